import { randomUUID } from 'node:crypto';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { isAssemblyBusy } from '../../../shared/api/codes';
import type { Instructions } from '../../../shared/api/instructions';
import type { LocalFile, Run } from '../../../shared/ipc/models';
import { AppErrorCode, err, ok, type AppError, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import type { CoreEvents } from '../events';
import { systemClock, type Clock } from '../uploads/clock';
import { createProgressCoalescer, type CoalescerFile, type ProgressCoalescer } from '../uploads/progress-coalescer';
import { startUploads, type UploadBatch, type UploadEngineOptions, type UploadItem } from '../uploads/upload-engine';
import { watchAssembly, type AssemblyWatcher } from '../watch/assembly-watcher';
import type { RunStore, StoredRun } from './run-store';
import { deliveredUploadIds, errorOfStatus, isDelivered, RUN_CREATING, stateOfStatus, statusFingerprint } from './run-state';

export interface RunManagerDeps {
  events: CoreEvents;
  /** The API client of a workspace (the active one when id is undefined). */
  clientFor(workspaceId: string | undefined): Result<{ workspaceId: string; api: ApiClient }>;
  /** Persists runs so a restart lists them and resumes unfinished uploads; in memory only without it. */
  store?: RunStore;
  clock?: Clock;
  /** Tuning for the upload engine (concurrency, chunk size, stall timeout). */
  upload?: Pick<UploadEngineOptions, 'concurrency' | 'chunkSize' | 'stallTimeoutMs' | 'retryDelays'>;
  pollIntervalMs?: number;
  /** Called once per run when it ends, with its local files (the browser host then drops its staged copies). */
  onFinished?: (files: readonly LocalFile[]) => void;
  /** An error no request waits for (a callback that threw after an upload): shown to the user, the app goes on. */
  reportError?: (code: string, message: string) => void;
}

export interface StartRunInput {
  workspaceId?: string;
  files: LocalFile[];
  instructions: Instructions;
}

/** An Assembly the transfer engine created (one per batch): the run follows it like its own. */
export interface AdoptRunInput {
  workspaceId: string;
  status: AssemblyStatus;
  instructions: Instructions;
}

export interface RunManager {
  start(input: StartRunInput): Promise<Result<Run>>;
  /** Follow an Assembly created elsewhere (the transfer engine): watched until terminal, persisted, resumed. */
  adopt(input: AdoptRunInput): Result<Run>;
  /** Upload totals of an adopted run, as its uploader counts them (announced as `run:progress`). */
  setUploadTotals(runId: string, totals: Run['totals']): void;
  list(): Run[];
  get(runId: string): Result<Run>;
  cancel(runId: string): Promise<Result<Run>>;
  /** Resolves when the run is terminal (tests and hosts that wait for a run). */
  settled(runId: string): Promise<Result<Run>>;
  /** Load stored runs: finished ones are listed, unfinished ones reattach to their Assembly and resume. */
  restore(): Promise<void>;
  /** Stops uploads and watchers without marking anything canceled: a later restore resumes them. */
  close(): Promise<void>;
  /** Local paths that unfinished runs still read from. */
  pathsInUse(): string[];
}

/** A run whose app stopped before the service created its Assembly. */
export const RUN_INTERRUPTED = 'RUN_INTERRUPTED';

interface ActiveRun {
  run: Run;
  /** Totals pushed by the transfer engine for an adopted run (its files are the engine's). */
  uploadTotals: Run['totals'] | null;
  api: ApiClient | null;
  files: LocalFile[];
  coalescer: ProgressCoalescer;
  batch: UploadBatch | null;
  watcher: AssemblyWatcher | null;
  cancelRequested: boolean;
  finished: boolean;
  lastFingerprint: string;
  settled: Promise<void>;
  settle: () => void;
}

/**
 * A run: create the Assembly expecting N tus uploads → upload the files → watch until terminal. Every
 * change is published as `run:updated` (state, status) or coalesced `run:progress`, and persisted.
 */
export function createRunManager(deps: RunManagerDeps): RunManager {
  const clock = deps.clock ?? systemClock;
  const report = (cause: unknown) => {
    const message = cause instanceof Error ? cause.message : String(cause);
    if (deps.reportError) deps.reportError(AppErrorCode.internal, message);
    else console.error('Assemblyline run manager:', cause);
  };
  /** The end of a background chain (uploads done, watcher done): a throw there ends this run, never the app. */
  const settleOnFailure = (active: ActiveRun) => (cause: unknown) => {
    report(cause);
    finish(active, { code: AppErrorCode.internal, message: cause instanceof Error ? cause.message : String(cause) });
  };
  const runs = new Map<string, ActiveRun>();
  let closing = false;
  let storeClosed = false;
  // Persistence must never break a run: a late callback after close, or a full disk, only loses history.
  const persist = (write: (store: RunStore) => void) => {
    if (!deps.store || storeClosed) return;
    try {
      write(deps.store);
    } catch {
      // The run goes on in memory.
    }
  };

  const snapshot = (active: ActiveRun): Run => ({
    ...active.run,
    totals: active.uploadTotals ?? active.coalescer.totals(),
    files: active.coalescer.files(),
  });

  function publish(active: ActiveRun) {
    const { run } = active;
    persist((store) =>
      store.updateRun(run.runId, { state: run.state, error: run.error, assemblyId: run.assemblyId, status: run.status, finished: active.finished }),
    );
    deps.events.emit('run:updated', snapshot(active));
  }

  function makeActive(run: Run, api: ApiClient | null, files: LocalFile[], coalescerFiles: CoalescerFile[]): ActiveRun {
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const runId = run.runId;
    const active: ActiveRun = {
      run,
      uploadTotals: null,
      api,
      files,
      coalescer: createProgressCoalescer({
        runId,
        files: coalescerFiles,
        clock,
        emit: (progress) => {
          if (closing) return;
          persist((store) => store.updateFiles(runId, progress.files));
          deps.events.emit('run:progress', progress);
        },
      }),
      batch: null,
      watcher: null,
      cancelRequested: false,
      finished: false,
      lastFingerprint: '',
      settled,
      settle,
    };
    runs.set(runId, active);
    return active;
  }

  function applyStatus(active: ActiveRun, status: AssemblyStatus) {
    active.run.status = status;
    if (status.assembly_id) active.run.assemblyId = status.assembly_id;
    active.run.state = stateOfStatus(status);
    const failure = errorOfStatus(status);
    if (failure) active.run.error = failure;
    const fingerprint = statusFingerprint(status);
    if (fingerprint !== active.lastFingerprint) {
      active.lastFingerprint = fingerprint;
      publish(active);
    }
  }

  function finish(active: ActiveRun, extra?: AppError) {
    if (active.finished || closing) return;
    active.finished = true;
    if (extra && !active.run.error) active.run.error = extra;
    active.batch?.cancel();
    active.watcher?.stop();
    active.coalescer.flush();
    active.coalescer.dispose();
    publish(active);
    active.settle();
    try {
      deps.onFinished?.(active.files);
    } catch (cause) {
      // Cleanup after a run (the browser host's staged copies) must not turn into a crash.
      report(cause);
    }
  }

  /** DELETE the Assembly; `reportFailure` when the user asked, so they learn the service was not reached. */
  async function cancelAssembly(active: ActiveRun, reportFailure: boolean): Promise<void> {
    const url = active.run.status?.assembly_ssl_url ?? active.run.status?.assembly_url;
    if (!url || !active.api) return;
    const result = await active.api.cancelAssembly(url);
    if (result.ok) applyStatus(active, result.value);
    else if (reportFailure && !active.run.error) active.run.error = result.error;
  }

  function onUploadsDone(active: ActiveRun, failed: number) {
    if (active.finished || active.cancelRequested || closing || failed === 0) return;
    // The Assembly waits for every expected upload; with one missing it would wait until it expires.
    const firstError = active.coalescer.files().find((f) => f.state === 'failed')?.error ?? 'unknown error';
    const total = active.files.length;
    void cancelAssembly(active, false)
      .catch(report)
      .then(() =>
        finish(active, {
          code: AppErrorCode.uploadFailed,
          message: `${failed} of ${total} file${total === 1 ? '' : 's'} could not be uploaded (${firstError}). The Assembly was canceled.`,
        }),
      )
      .catch(report);
  }

  /** Upload what is not uploaded yet and watch the Assembly until it is terminal. */
  function follow(active: ActiveRun, status: AssemblyStatus, items: UploadItem[]) {
    const api = active.api!;
    const assemblyUrl = status.assembly_ssl_url ?? status.assembly_url;
    if (items.length > 0) {
      if (!status.tus_url || !assemblyUrl) {
        return finish(active, { code: AppErrorCode.invalidResponse, message: 'The service did not give a tus_url for the uploads.' });
      }
      const runId = active.run.runId;
      active.batch = startUploads(items, {
        ...deps.upload,
        tusUrl: status.tus_url,
        assemblyUrl,
        clock,
        onProgress: (fileId, bytes) => active.coalescer.update(fileId, { bytesUploaded: bytes }),
        onState: (fileId, state, error) => {
          if (!closing) active.coalescer.update(fileId, error === undefined ? { state } : { state, error });
        },
        onUploadUrl: (fileId, url) => persist((store) => store.setUploadUrl(runId, fileId, url)),
      });
      void active.batch.done
        .then((summary) => {
          if (closing) return;
          active.coalescer.flush();
          onUploadsDone(active, summary.failed);
        })
        .catch(settleOnFailure(active));
    }
    active.watcher = watchAssembly({
      initial: status,
      getStatus: (url) => api.getAssembly(url),
      onStatus: (s) => applyStatus(active, s),
      clock,
      ...(deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {}),
    });
    void active.watcher.done
      .then(() => {
        if (!active.cancelRequested && !closing && !isAssemblyBusy(active.run.status ?? {})) finish(active);
      })
      .catch(settleOnFailure(active));
  }

  async function begin(active: ActiveRun, input: StartRunInput) {
    const created = await active.api!.createAssembly({ instructions: input.instructions, expectedUploads: input.files.length });
    if (!created.ok) {
      active.run.state = created.error.code;
      return finish(active, created.error);
    }
    applyStatus(active, created.value);
    if (active.cancelRequested) {
      await cancelAssembly(active, true);
      return finish(active);
    }
    if (!isAssemblyBusy(created.value)) return finish(active);
    follow(
      active,
      created.value,
      input.files.map((f, i) => ({ fileId: fileIdOf(i), path: f.path, name: f.name, size: f.size, relativePath: f.relativePath })),
    );
  }

  async function resume(stored: StoredRun) {
    const client = deps.clientFor(stored.workspaceId);
    const run: Run = {
      runId: stored.runId,
      workspaceId: stored.workspaceId,
      assemblyId: stored.assemblyId,
      createdAt: stored.createdAt,
      state: stored.state,
      error: stored.error,
      totals: { bytesTotal: 0, bytesUploaded: 0, filesTotal: 0, filesUploaded: 0, speedBps: 0, etaSeconds: null },
      files: [],
      status: stored.status,
    };
    const active = makeActive(run, client.ok ? client.value.api : null, stored.files, stored.files);
    active.lastFingerprint = statusFingerprint(stored.status);
    if (stored.finished) {
      active.finished = true;
      active.coalescer.dispose();
      active.settle();
      return;
    }
    if (client.ok && stored.status) {
      const endpoint = client.value.api.endpoint;
      stored.status = rebaseLoopbackStatus(stored.status, endpoint);
      run.status = stored.status;
      for (const f of stored.files) f.uploadUrl = f.uploadUrl ? rebaseLoopback(f.uploadUrl, endpoint) : null;
    }
    const statusUrl = stored.status?.assembly_ssl_url ?? stored.status?.assembly_url;
    if (!client.ok || !statusUrl) {
      const error = !client.ok
        ? client.error
        : { code: RUN_INTERRUPTED, message: 'The app stopped before the service created the Assembly. Start the run again.' };
      if (!client.ok || run.state === RUN_CREATING) run.state = error.code;
      return finish(active, error);
    }
    const fresh = await client.value.api.getAssembly(statusUrl);
    // Unreachable right now: keep following the stored status; the watcher polls until it answers.
    const status = fresh.ok ? fresh.value : stored.status!;
    applyStatus(active, status);
    const delivered = deliveredUploadIds(status);
    for (const f of stored.files) {
      if (f.state !== 'uploaded' && isDelivered(f.uploadUrl, delivered)) {
        f.state = 'uploaded';
        active.coalescer.update(f.fileId, { state: 'uploaded', bytesUploaded: f.size });
      }
    }
    if (!isAssemblyBusy(status)) {
      for (const f of stored.files) if (f.state !== 'uploaded') active.coalescer.update(f.fileId, { state: 'canceled' });
      return finish(active);
    }
    follow(
      active,
      status,
      stored.files
        .filter((f) => f.state !== 'uploaded')
        .map((f) => ({ fileId: f.fileId, path: f.path, name: f.name, size: f.size, relativePath: f.relativePath, uploadUrl: f.uploadUrl })),
    );
  }

  return {
    async start(input) {
      const client = deps.clientFor(input.workspaceId);
      if (!client.ok) return client;
      const runId = randomUUID();
      const coalescerFiles = input.files.map((f, i) => ({ fileId: fileIdOf(i), relativePath: f.relativePath, size: f.size }));
      const active = makeActive(
        {
          runId,
          workspaceId: client.value.workspaceId,
          assemblyId: null,
          createdAt: new Date(clock.now()).toISOString(),
          state: RUN_CREATING,
          error: null,
          totals: { bytesTotal: 0, bytesUploaded: 0, filesTotal: 0, filesUploaded: 0, speedBps: 0, etaSeconds: null },
          files: [],
          status: null,
        },
        client.value.api,
        input.files,
        coalescerFiles,
      );
      persist((store) => store.insert({
        runId,
        workspaceId: active.run.workspaceId,
        createdAt: active.run.createdAt,
        instructions: input.instructions,
        state: RUN_CREATING,
        error: null,
        assemblyId: null,
        status: null,
        finished: false,
        files: input.files.map((f, i) => ({ ...f, fileId: fileIdOf(i), state: 'queued', bytesUploaded: 0, uploadUrl: null, error: null })),
      }));
      publish(active);
      try {
        await begin(active, input);
      } catch (cause) {
        finish(active, { code: AppErrorCode.internal, message: cause instanceof Error ? cause.message : String(cause) });
      }
      return ok(snapshot(active));
    },
    adopt(input) {
      const client = deps.clientFor(input.workspaceId);
      if (!client.ok) return client;
      const runId = randomUUID();
      const active = makeActive(
        {
          runId,
          workspaceId: input.workspaceId,
          assemblyId: input.status.assembly_id ?? null,
          createdAt: new Date(clock.now()).toISOString(),
          state: stateOfStatus(input.status),
          error: errorOfStatus(input.status),
          totals: { bytesTotal: 0, bytesUploaded: 0, filesTotal: 0, filesUploaded: 0, speedBps: 0, etaSeconds: null },
          files: [],
          status: input.status,
        },
        client.value.api,
        [],
        [],
      );
      persist((store) =>
        store.insert({
          runId,
          workspaceId: input.workspaceId,
          createdAt: active.run.createdAt,
          instructions: input.instructions,
          state: active.run.state,
          error: active.run.error,
          assemblyId: active.run.assemblyId,
          status: input.status,
          finished: false,
          files: [],
        }),
      );
      active.lastFingerprint = statusFingerprint(input.status);
      publish(active);
      if (!isAssemblyBusy(input.status)) finish(active);
      else follow(active, input.status, []);
      return ok(snapshot(active));
    },
    setUploadTotals(runId, totals) {
      const active = runs.get(runId);
      if (!active || closing) return;
      active.uploadTotals = totals;
      deps.events.emit('run:progress', { runId, totals, files: [] });
    },
    list: () => [...runs.values()].map(snapshot).sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    get(runId) {
      const active = runs.get(runId);
      return active ? ok(snapshot(active)) : err(AppErrorCode.notFound, `No run with id ${runId}.`);
    },
    async cancel(runId) {
      const active = runs.get(runId);
      if (!active) return err(AppErrorCode.notFound, `No run with id ${runId}.`);
      if (active.finished) return ok(snapshot(active));
      active.cancelRequested = true;
      active.batch?.cancel();
      active.watcher?.stop();
      if (active.run.status) {
        await cancelAssembly(active, true);
        finish(active);
      }
      // Still creating: begin() cancels the Assembly as soon as the service answers.
      return ok(snapshot(active));
    },
    async settled(runId) {
      const active = runs.get(runId);
      if (!active) return err(AppErrorCode.notFound, `No run with id ${runId}.`);
      await active.settled;
      return ok(snapshot(active));
    },
    async restore() {
      if (!deps.store) return;
      for (const stored of deps.store.load()) {
        if (runs.has(stored.runId)) continue;
        try {
          await resume(stored);
        } catch (cause) {
          const active = runs.get(stored.runId);
          if (active) finish(active, { code: AppErrorCode.internal, message: cause instanceof Error ? cause.message : String(cause) });
        }
      }
    },
    pathsInUse: () => [...runs.values()].filter((a) => !a.finished).flatMap((a) => a.files.map((f) => f.path)),
    async close() {
      closing = true;
      for (const active of runs.values()) {
        active.batch?.cancel();
        active.watcher?.stop();
        active.coalescer.dispose();
      }
      await Promise.all([...runs.values()].map((a) => a.batch?.done));
      storeClosed = true;
      deps.store?.close();
    },
  };
}

const fileIdOf = (index: number) => `f${index}`;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * The embedded service listens on a new ephemeral port each start: a loopback URL stored by an earlier
 * session is moved to the loopback endpoint of today. Other URLs are left alone.
 */
export function rebaseLoopback(url: string, endpoint: string): string {
  try {
    const from = new URL(url);
    const to = new URL(endpoint);
    if (!LOOPBACK.has(from.hostname) || !LOOPBACK.has(to.hostname) || from.origin === to.origin) return url;
    return `${to.origin}${from.pathname}${from.search}`;
  } catch {
    return url;
  }
}

function rebaseLoopbackStatus(status: AssemblyStatus, endpoint: string): AssemblyStatus {
  const out: AssemblyStatus = { ...status };
  for (const key of ['assembly_url', 'assembly_ssl_url', 'tus_url', 'update_stream_url', 'websocket_url'] as const) {
    const value = out[key];
    if (typeof value === 'string') out[key] = rebaseLoopback(value, endpoint);
  }
  return out;
}
