import type { LocalFile, Run, SelectedFile } from '../../../shared/ipc/models';
import type { Handlers } from '../ipc/handlers';
import { ok, type Result } from '../../../shared/result';
import type { FileHandleRegistry } from '../files/file-handles';
import { resolvePickedFile } from '../files/picked-path';
import type { HandlerContext } from './context';

export function createRunHandlers(ctx: HandlerContext): Pick<Handlers, 'runs:start' | 'runs:list' | 'runs:get' | 'runs:cancel'> {
  return {
    // Every file is named by a handle the user's pick produced; one that is not refuses the whole run.
    'runs:start': async ({ files, ...rest }) => {
      const local = await resolveSelectedFiles(ctx.files, files);
      return local.ok ? ctx.transfers.startRun({ ...rest, files: local.value }) : local;
    },
    // Activity shows each run's header: no file rows, no upload/result lists (runs:get has them).
    'runs:list': async () => ok(ctx.runs.list().map(runHeader)),
    'runs:get': async ({ runId }) => ctx.runs.get(runId),
    'runs:cancel': ({ runId }) => ctx.runs.cancel(runId),
  };
}

/** The picked files a request names, on disk; one handle the user's pick did not produce refuses them all. */
export async function resolveSelectedFiles(registry: FileHandleRegistry, files: readonly SelectedFile[]): Promise<Result<LocalFile[]>> {
  const local: LocalFile[] = [];
  const realDirs = new Map<string, Promise<string | null>>();
  for (const file of files) {
    const resolved = await resolvePickedFile(registry, file.handle, file.relativePath, realDirs);
    if (!resolved.ok) return resolved;
    const name = file.relativePath.slice(file.relativePath.lastIndexOf('/') + 1);
    local.push({ path: resolved.value, relativePath: file.relativePath, name, size: file.size, mime: file.mime });
  }
  return ok(local);
}

const runHeader = (run: Run): Run => {
  if (!run.status) return { ...run, files: [] };
  const { uploads: _uploads, results: _results, tus_uploads: _tus, ...status } = run.status;
  return { ...run, files: [], status };
};
