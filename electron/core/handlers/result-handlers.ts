import path from 'node:path';
import { BridgeErrorCode } from '../../../shared/ipc/bridge-errors';
import type { Handlers } from '../ipc/handlers';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import { downloadResult } from '../files/result-download';
import { tlsProblem } from '../net/transport';
import { createDragCache } from '../files/drag-cache';
import type { DownloadLedger } from '../files/download-ledger';
import { resultFileOfRun } from '../files/result-urls';
import { previewUrl } from '../files/thumbnails';
import type { AssemblyFile, AssemblyStatus } from '../../../shared/api/assembly-status';
import { getAssemblyStatus } from '../assemblies/assembly-api';
import type { StatusMemo } from './assembly-handlers';
import type { HandlerContext } from './context';

/** The host has no native file drag (the browser host drags the URL with DownloadURL instead). */
export const DRAG_UNAVAILABLE = 'DRAG_UNAVAILABLE';

/** Core fetches only URLs the run's (or the Assembly's) own status record gave (see files/result-urls.ts), never one the page made up. */
export function createResultHandlers(ctx: HandlerContext, downloads: DownloadLedger, statuses: StatusMemo): Pick<Handlers, 'results:download' | 'results:thumbnail' | 'results:startDrag'> {
  const checkUrl = (runId: string, url: string): Result<AssemblyFile> => {
    const run = ctx.runs.get(runId);
    if (!run.ok) return run;
    const file = resultFileOfRun(run.value.status, url);
    if (!file) return err(BridgeErrorCode.urlNotOfRun, 'Only the result files of this run can be fetched.');
    return ok(file);
  };
  /**
   * Any Assembly of the active workspace: the URL must be in that Assembly's status record as core last
   * read it (the detail view read it); if not, core reads the record again once (a result just added).
   */
  const checkAssemblyUrl = async (assemblyId: string, url: string): Promise<Result<AssemblyFile>> => {
    const client = ctx.clientFor(undefined);
    if (!client.ok) return client;
    const { api, workspaceId } = client.value;
    const known = resultFileOfRun(statuses.get(workspaceId, assemblyId) ?? null, url);
    if (known) return ok(known);
    const fresh = await getAssemblyStatus(api, assemblyId);
    if (!fresh.ok) return fresh;
    statuses.set(workspaceId, assemblyId, fresh.value);
    const file = resultFileOfRun(fresh.value, url);
    return file ? ok(file) : err(BridgeErrorCode.urlNotOfRun, 'Only the files of this Assembly can be fetched.');
  };
  const dragCache = createDragCache(path.join(ctx.dataDir, 'drag-cache'));
  /** The fetch of the run's (or the active) workspace: result files are on its deployment's hosts, under its CA file. */
  const transportFor = (runId: string | undefined) => {
    const run = runId !== undefined ? ctx.runs.get(runId) : null;
    const client = ctx.clientFor(run?.ok ? run.value.workspaceId : undefined);
    return client.ok ? client.value.api.transport : null;
  };
  const fetchFor = (runId: string | undefined): typeof fetch => transportFor(runId)?.fetch ?? fetch;
  /** The Assembly's status read again (an expired result URL): the run's, or the active workspace's Assembly's. */
  const readStatusFor = async (runId: string | undefined, assemblyId: string | undefined): Promise<Result<AssemblyStatus>> => {
    const run = runId !== undefined ? ctx.runs.get(runId) : null;
    if (run && !run.ok) return run;
    const client = ctx.clientFor(run?.ok ? run.value.workspaceId : undefined);
    if (!client.ok) return client;
    const { api, workspaceId } = client.value;
    const statusUrl = run?.ok ? (run.value.status?.assembly_ssl_url ?? run.value.status?.assembly_url) : undefined;
    const id = run?.ok ? run.value.assemblyId : (assemblyId ?? null);
    if (!statusUrl && !id) return err(AppErrorCode.invalidRequest, 'No Assembly to read again.');
    const fresh = statusUrl ? await api.getAssembly(statusUrl) : await getAssemblyStatus(api, id!);
    if (fresh.ok && id && !run) statuses.set(workspaceId, id, fresh.value);
    return fresh;
  };
  const failed = (what: string, url: string, cause: unknown) =>
    err(tlsProblem(cause, url)?.code ?? AppErrorCode.network, `${what}: ${tlsProblem(cause, url)?.message ?? (cause instanceof Error ? cause.message : String(cause))}`);
  return {
    'results:download': async ({ runId, assemblyId, url, name }) => {
      // Same place and naming either way; an Assembly's URL must be in its own status record.
      const allowed = runId !== undefined ? checkUrl(runId, url) : await checkAssemblyUrl(assemblyId ?? '', url);
      if (!allowed.ok) return allowed;
      try {
        const saved = await downloadResult({ url, file: allowed.value, dir: ctx.downloadsDir, name, fetch: fetchFor(runId), readStatus: () => readStatusFor(runId, assemblyId) });
        if (!saved.ok) return saved;
        downloads.record(saved.value.path);
        return ok({ path: saved.value.path });
      } catch (cause) {
        return failed(`Could not download ${name}`, url, cause);
      }
    },
    'results:startDrag': async ({ runId, assemblyId, url, name, start }) => {
      const startDrag = ctx.desktop.startDrag;
      if (!startDrag) return err(DRAG_UNAVAILABLE, 'This host drags the result URL itself; there is no file drag here.');
      const allowed = runId !== undefined ? checkUrl(runId, url) : await checkAssemblyUrl(assemblyId ?? '', url);
      if (!allowed.ok) return allowed;
      let file: string;
      try {
        file = await dragCache.copyOf(url, name, allowed.value.size ?? undefined, fetchFor(runId));
      } catch (cause) {
        return failed(`Could not fetch ${name} to drag it`, url, cause);
      }
      // `start: false`: only fetch (the mouse went down on the result; a drag may follow).
      if (!start) return ok({ path: file });
      try {
        startDrag(file);
      } catch (cause) {
        return err(DRAG_UNAVAILABLE, `Could not start the drag: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
      return ok({ path: file });
    },
    'results:thumbnail': async ({ runId, assemblyId, url, size }) => {
      const allowed = runId !== undefined ? checkUrl(runId, url) : await checkAssemblyUrl(assemblyId ?? '', url);
      if (!allowed.ok) return allowed;
      try {
        // The status record's type and duration choose the preview (poster frame, waveform, image).
        const file = allowed.value;
        const duration = typeof file.meta?.duration === 'number' ? file.meta.duration : null;
        return ok(await previewUrl(url, size, { mime: file.mime ?? null, duration }, { fetch: fetchFor(runId), ca: transportFor(runId)?.ca ?? null }));
      } catch (cause) {
        return failed('Could not load the preview', url, cause);
      }
    },
  };
}
