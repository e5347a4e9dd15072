import { mkdir, open, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Run } from '../../../shared/ipc/models';
import type { MirrorScope } from '../../../shared/ipc/mirror-models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import { getAssemblyStatus } from '../assemblies/assembly-api';
import { readStatusOf } from '../files/result-download';
import type { DownloadLedger } from '../files/download-ledger';
import type { Handlers } from '../ipc/handlers';
import { buildManifest, manifestCsv, manifestJson, manifestRows } from '../results-mirror/manifest';
import { matchInputs, type LocalInput, type MirrorSource } from '../results-mirror/mirror-plan';
import type { MirrorService } from '../results-mirror/mirror-service';
import type { HandlerContext } from './context';

/** Codes of the mirror and manifest channels. */
export const MirrorChannelError = {
  /** Save results: no output folder was chosen yet. */
  folderUnset: 'MIRROR_FOLDER_UNSET',
  /** The host shows no folder or save dialog. */
  noDialog: 'DIALOG_UNAVAILABLE',
  /** The run or batch has no Assembly (status record) yet. */
  notReady: 'RESULTS_NOT_READY',
} as const;

/** Where results go in a host with no folder dialog: `<downloads>/Assemblyline results`. */
export const DEFAULT_MIRROR_FOLDER = 'Assemblyline results';

type Channels = 'results:mirrorSettings' | 'results:chooseMirrorFolder' | 'results:mirror' | 'results:mirrorCancel' | 'manifest:export';

/** Every file row of a batch, page by page (the engine's own query; md5s come from the status record). */
function rowsOfBatch(ctx: HandlerContext, batchId: string): LocalInput[] {
  const out: LocalInput[] = [];
  for (let offset = 0; ; offset += 1000) {
    const page = ctx.transfers.rows({ batchId, offset, limit: 1000 });
    out.push(...page.rows.map((r) => ({ relativePath: r.relativePath, size: r.size, error: r.error })));
    if (page.rows.length < 1000 || out.length >= page.total) return out;
  }
}

/** What the app sent in a run: its batch's rows (a transfer), else its own file list, else nothing known. */
function localOfRun(ctx: HandlerContext, run: Run): LocalInput[] | null {
  const batch = ctx.transfers.overview().batches.find((b) => b.runId === run.runId);
  if (batch) return rowsOfBatch(ctx, batch.id);
  return run.files.length ? run.files.map((f) => ({ relativePath: f.relativePath, size: f.size, error: f.error ?? null })) : null;
}

function sourceOfRun(ctx: HandlerContext, run: Run): Result<MirrorSource> {
  if (!run.status || !run.assemblyId) return err(MirrorChannelError.notReady, 'This run has no Assembly yet: there are no results to save.');
  return ok({ assemblyId: run.assemblyId, status: run.status, inputs: matchInputs(localOfRun(ctx, run), run.status) });
}

/**
 * The fetch for a scope's result files: the workspace of its run (a batch's or a run's), else the active
 * one (Activity lists the active workspace's Assemblies) — its deployment's hosts, under its CA file.
 */
function clientOfScope(ctx: HandlerContext, scope: MirrorScope): ApiClient | undefined {
  const runId = scope.kind === 'run' ? scope.runId : scope.kind === 'batch' ? ctx.transfers.overview().batches.find((b) => b.id === scope.batchId)?.runId : undefined;
  const run = runId ? ctx.runs.get(runId) : null;
  const client = ctx.clientFor(run?.ok ? run.value.workspaceId : undefined);
  return client.ok ? client.value.api : undefined;
}

/** The status records (and what the app knows of their inputs) of a scope. */
async function sourcesOf(ctx: HandlerContext, scope: MirrorScope): Promise<Result<MirrorSource[]>> {
  if (scope.kind === 'run') {
    const run = ctx.runs.get(scope.runId);
    if (!run.ok) return run;
    const source = sourceOfRun(ctx, run.value);
    return source.ok ? ok([source.value]) : source;
  }
  if (scope.kind === 'batch') {
    const batch = ctx.transfers.overview().batches.find((b) => b.id === scope.batchId);
    if (!batch) return err(AppErrorCode.notFound, 'No such batch in the transfer queue.');
    if (!batch.runId) return err(MirrorChannelError.notReady, `${batch.label} has no Assembly yet: there are no results to save.`);
    const run = ctx.runs.get(batch.runId);
    if (!run.ok) return run;
    if (!run.value.status || !run.value.assemblyId) return err(MirrorChannelError.notReady, `${batch.label} has no Assembly yet: there are no results to save.`);
    return ok([{ assemblyId: run.value.assemblyId, status: run.value.status, inputs: matchInputs(rowsOfBatch(ctx, batch.id), run.value.status) }]);
  }
  const client = ctx.clientFor(undefined);
  if (!client.ok) return client;
  const runs = new Map(ctx.runs.list().flatMap((r) => (r.assemblyId ? [[r.assemblyId, r.runId] as const] : [])));
  const sources: MirrorSource[] = [];
  for (const assemblyId of scope.assemblyIds) {
    // A run of this app knows its inputs' paths; any other Assembly has its status record's uploads.
    const runId = runs.get(assemblyId);
    const run = runId ? ctx.runs.get(runId) : null;
    if (run?.ok && run.value.status) {
      const source = sourceOfRun(ctx, run.value);
      if (source.ok) {
        sources.push(source.value);
        continue;
      }
    }
    const status = await getAssemblyStatus(client.value.api, assemblyId);
    if (!status.ok) return status;
    sources.push({ assemblyId, status: status.value, inputs: matchInputs(null, status.value) });
  }
  return ok(sources);
}

const scopeLabel = (scope: MirrorScope): string =>
  scope.kind === 'run' ? 'run' : scope.kind === 'batch' ? 'batch' : scope.assemblyIds.length === 1 ? `assembly-${scope.assemblyIds[0]!.slice(0, 8)}` : `${scope.assemblyIds.length}-assemblies`;

/** A name not taken in `dir` (for hosts with no save dialog), reserved with O_EXCL. */
async function freshFile(dir: string, base: string, ext: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  for (let n = 1; ; n++) {
    const file = path.join(dir, n === 1 ? `${base}.${ext}` : `${base} (${n}).${ext}`);
    try {
      await (await open(file, 'wx')).close();
      return file;
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code !== 'EEXIST' || n > 10_000) throw cause;
    }
  }
}

/**
 * Results to disk and job manifests. The output folder and the manifest's file come from the host's own
 * dialogs (the user's act), never from the page; what was written is recorded in the download ledger so
 * "Show in folder" (shell:revealPath) works for it and for nothing else.
 */
export function createMirrorHandlers(ctx: HandlerContext, mirrors: MirrorService, downloads: DownloadLedger): Pick<Handlers, Channels> {
  // A host with no folder dialog (the browser host) saves into a folder of the downloads folder instead.
  const folderOf = () => mirrors.store.settings().folder ?? (ctx.desktop.chooseFolder ? null : path.join(ctx.downloadsDir, DEFAULT_MIRROR_FOLDER));
  const settings = () => ({ ...mirrors.store.settings(), folder: folderOf(), canChooseFolder: Boolean(ctx.desktop.chooseFolder) });
  return {
    'results:mirrorSettings': async () => ok(settings()),
    'results:chooseMirrorFolder': async () => {
      if (!ctx.desktop.chooseFolder) return err(MirrorChannelError.noDialog, 'This host shows no folder dialog; run the desktop app to choose an output folder.');
      const current = mirrors.store.settings().folder;
      const folder = await ctx.desktop.chooseFolder({ title: 'Save results to folder', ...(current ? { defaultDir: current } : {}) });
      if (folder === null) return ok({ ...settings(), canceled: true });
      await mirrors.store.saveSettings({ folder: path.resolve(folder) });
      return ok({ ...settings(), canceled: false });
    },
    'results:mirror': async ({ scope, layout, conflict }) => {
      const folder = folderOf();
      if (!folder) return err(MirrorChannelError.folderUnset, 'Choose an output folder first.');
      const sources = await sourcesOf(ctx, scope);
      if (!sources.ok) return sources;
      await mirrors.store.saveSettings({ layout, conflict });
      downloads.record(folder);
      const api = clientOfScope(ctx, scope);
      const started = mirrors.start(sources.value, { outputDir: folder, layout, conflict, ...(api ? { fetch: api.transport.fetch, readStatus: readStatusOf(api) } : {}) });
      return ok({ mirrorId: started.mirrorId, folder });
    },
    'results:mirrorCancel': async ({ mirrorId }) => ok({ canceled: mirrors.cancel(mirrorId) }),
    'manifest:export': async ({ scope, format }) => {
      const sources = await sourcesOf(ctx, scope);
      if (!sources.ok) return sources;
      const manifest = buildManifest(sources.value, (key) => mirrors.store.mirrored(key));
      const rows = manifestRows(manifest).length;
      const base = `manifest-${scopeLabel(scope)}-${new Date().toISOString().slice(0, 10)}`;
      let file: string | null;
      if (ctx.desktop.chooseSaveFile) {
        file = await ctx.desktop.chooseSaveFile({
          title: 'Export manifest',
          defaultName: `${base}.${format}`,
          defaultDir: mirrors.store.settings().folder ?? ctx.downloadsDir,
          filters: [format === 'csv' ? { name: 'CSV', extensions: ['csv'] } : { name: 'JSON', extensions: ['json'] }],
        });
        if (file === null) return ok({ path: null, assemblies: manifest.length, rows });
      } else {
        // No save dialog in this host: the downloads folder, under a name not taken.
        file = await freshFile(ctx.downloadsDir, base, format);
      }
      const text = format === 'csv' ? manifestCsv(manifest) : manifestJson(manifest, new Date().toISOString());
      try {
        await writeFile(file, text, 'utf8');
      } catch (cause) {
        return err(AppErrorCode.internal, `Could not write the manifest: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
      downloads.record(file);
      return ok({ path: file, assemblies: manifest.length, rows });
    },
  };
}
