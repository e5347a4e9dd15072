import { randomUUID } from 'node:crypto';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { isAssemblyBusy, SseEvent } from '../../../shared/api/codes';
import type { Instructions } from '../../../shared/api/instructions';
import type { FileUploadState, LocalFile, Run } from '../../../shared/ipc/models';
import { AppErrorCode, err, ok, type AppError, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import { executionProgress } from '../assemblies/assembly-follower';
import type { CoreEvents } from '../events';
import { systemClock, type Clock } from '../uploads/clock';
import { createProgressCoalescer, type CoalescerFile, type ProgressCoalescer } from '../uploads/progress-coalescer';
import { watchAssembly, type AssemblyWatcher } from '../watch/assembly-watcher';
import type { RunStore, StoredRun } from './run-store';
import { createRunUpdates } from './run-update-delta';
import { deliveredUploadIds, errorOfStatus, isDelivered, RUN_CREATING, stateOfStatus, statusFingerprint, statusHeader } from './run-state';

export interface RunManagerDeps {
  events: CoreEvents;
  /** The API client of a workspace (the active one when id is undefined). */
  clientFor(workspaceId: string | undefined): Result<{ workspaceId: string; api: ApiClient }>;
  /** Persists runs so a restart lists them and resumes unfinished uploads; in memory only without it. */
  store?: RunStore;
  clock?: Clock;
  pollIntervalMs?: number;
  /** Called once per run when it ends, with its local files (the browser host then drops its staged copies). */
  onFinished?: (files: readonly LocalFile[]) => void;
  /** An error no request waits for (a callback that threw after an upload): shown to the user, the app goes on. */
  reportError?: (code: string, message: string) => void;
}

/** A run opened before its Assembly exists (`runs:start` through the transfer engine). */
export interface OpenRunInput {
  workspaceId: string;
  instructions: Instructions;
  /** Its files, shown per file in the Assembly view; the transfer engine reports their progress. */
  files: Array<LocalFile & { fileId: string }>;
}

/** An Assembly the transfer engine created (one per batch): the run follows it like its own. */
export interface AdoptRunInput {
  workspaceId: string;
  status: AssemblyStatus;
  instructions: Instructions;
}

export interface RunManager {
  /** A run in `CREATING` state, before its Assembly exists; `attach` or `fail` it next. */
  open(input: OpenRunInput): Result<Run>;
  /** The run's Assembly exists: follow it (watched until terminal, persisted, resumed after a restart). */
  attach(runId: string, status: AssemblyStatus): void;
  /** The Assembly could not be created: the run ends with the service's error. */
  fail(runId: string, error: AppError): void;
  /** Follow an Assembly the transfer engine created (one per batch), with upload totals only. */
  adopt(input: AdoptRunInput): Result<Run>;
  /** Upload totals of an adopted run, as the transfer engine counts them (announced as `run:progress`). */
  setUploadTotals(runId: string, totals: Run['totals']): void;
  /** Per-file progress of an opened run, from the transfer engine (coalesced into `run:progress`). */
  updateFiles(runId: string, files: ReadonlyArray<{ fileId: string; state: FileUploadState; bytesUploaded: number; error?: string }>): void;
  /** Who stops a run's uploads when it is canceled (the transfer engine). */
  onCancel(hook: (runId: string) => void): void;
  /** Every status a run takes, whole (the transfer engine verifies checksums against it; run:updated carries deltas). */
  onStatus(hook: (runId: string, status: AssemblyStatus) => void): void;
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
  watcher: AssemblyWatcher | null;
  cancelRequested: boolean;
  finished: boolean;
  /** A finished run's status is kept whole in the run store only; `run.status` holds its header. */
  statusOnDisk: boolean;
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
  // run:updated carries a status whole once, then only what was appended to it.
  const updates = createRunUpdates();
  let cancelHook: ((runId: string) => void) | null = null;
  let statusHook: ((runId: string, status: AssemblyStatus) => void) | null = null;
  let closing = false;
  let storeClosed = false;
  // Persistence must never break a run: a late callback after close, or a full disk, only loses history.
  const persist = (write: (store: RunStore) => void): boolean => {
    if (!deps.store || storeClosed) return false;
    try {
      write(deps.store);
      return true;
    } catch {
      // The run goes on in memory.
      return false;
    }
  };

  /** The run as in memory: a finished run's status is its header (enough for lists). */
  const snapshot = (active: ActiveRun): Run => ({
    ...active.run,
    totals: active.uploadTotals ?? active.coalescer.totals(),
    files: active.coalescer.files(),
  });

  // The last few whole statuses read back: the Assembly view asks for one run many times (runs:get, and a
  // result check per thumbnail), and reading and parsing 4 MB each time would cost more than keeping them.
  const readBack = new Map<string, AssemblyStatus>();
  const READ_BACK_KEPT = 2;

  /** The run with its status whole: read back from the run store for a finished run (runs:get, results). */
  const whole = (active: ActiveRun): Run => {
    const run = snapshot(active);
    if (!active.statusOnDisk || !deps.store || storeClosed) return run;
    const kept = readBack.get(run.runId);
    if (kept) return { ...run, status: kept };
    try {
      const status = deps.store.statusOf(run.runId);
      if (!status) return run;
      readBack.set(run.runId, status);
      for (const id of readBack.keys()) if (readBack.size > READ_BACK_KEPT) readBack.delete(id);
      return { ...run, status };
    } catch {
      return run;
    }
  };

  /**
   * A finished run keeps only its status header in memory (100 Assemblies of 1,000 files held ~400 MB);
   * the run store has it whole. Only once it was written, so a failed write loses nothing the view needs.
   */
  function shelve(active: ActiveRun, written: boolean) {
    active.watcher = null;
    updates.forget(active.run.runId);
    if (!written || !active.run.status) return;
    active.run.status = statusHeader(active.run.status);
    active.statusOnDisk = true;
  }

  function publish(active: ActiveRun): boolean {
    const { run } = active;
    if (active.statusOnDisk) return true;
    // A running Assembly's status is written as its header (state, URLs, counts): a 1,000-file status is ~4 MB
    // of JSON, and a restart fetches the live status again anyway. A status that says the Assembly ended is
    // written whole at once, not only when the run is marked finished a moment later: an app stopped between
    // the two left a header that said "completed" with no uploads, and the restarted engine failed every file
    // of that batch as left out of its Assembly (restart-anywhere, at load).
    const status = run.status && !active.finished && isAssemblyBusy(run.status) ? statusHeader(run.status) : run.status;
    const written = persist((store) =>
      store.updateRun(run.runId, { state: run.state, error: run.error, assemblyId: run.assemblyId, status, finished: active.finished }),
    );
    // File rows never travel in run:updated (run:progress has them): not built here.
    deps.events.emit('run:updated', updates.next({ ...active.run, totals: active.uploadTotals ?? active.coalescer.totals(), files: [] }));
    if (run.status) statusHook?.(run.runId, run.status);
    return written;
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
      watcher: null,
      cancelRequested: false,
      finished: false,
      statusOnDisk: false,
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
    active.watcher?.stop();
    active.coalescer.flush();
    active.coalescer.dispose();
    shelve(active, publish(active));
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

  /** Watch the Assembly until it is terminal (the transfer engine does the uploads). */
  function follow(active: ActiveRun, status: AssemblyStatus, created = false) {
    const api = active.api!;
    active.watcher = watchAssembly({
      initial: status,
      // The create's answer of an Assembly already executing (a multipart batch): it may end before the stream opens.
      fetchAtOnce: created && status.ok === 'ASSEMBLY_EXECUTING',
      getStatus: (url, hooks) => api.getAssembly(url, hooks),
      fetch: api.transport.fetch,
      onStatus: (s) => applyStatus(active, s),
      // A rate-limit wait, a dropped or stalled stream: the Assembly view says how it is followed, not an error.
      onFollow: (follow) => {
        const assemblyId = active.run.assemblyId;
        if (assemblyId && !closing) deps.events.emit('assembly:updated', { assemblyId, status: null, progress: null, follow });
      },
      // `emit_execution_progress` (asked by the steps or the Template): the Assembly view shows it as the
      // detail view does, so it travels as the same event rather than a run:updated per percent.
      onEvent: (name, data) => {
        const assemblyId = active.run.assemblyId;
        const progress = name === SseEvent.executionProgress ? executionProgress(data) : null;
        if (progress && assemblyId && !closing) deps.events.emit('assembly:updated', { assemblyId, status: null, progress });
      },
      clock,
      ...(deps.pollIntervalMs ? { pollIntervalMs: deps.pollIntervalMs } : {}),
    });
    void active.watcher.done
      .then(() => {
        if (!active.cancelRequested && !closing && !isAssemblyBusy(active.run.status ?? {})) finish(active);
      })
      .catch(settleOnFailure(active));
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
      // The store loaded its status as a header (statusOf reads it whole).
      active.finished = true;
      active.statusOnDisk = stored.status !== null;
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
    // The transfer engine resumes the uploads (from its own store); the run watches.
    follow(active, status);
  }

  return {
    open(input) {
      const client = deps.clientFor(input.workspaceId);
      if (!client.ok) return client;
      const runId = randomUUID();
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
        input.files.map((f) => ({ fileId: f.fileId, relativePath: f.relativePath, size: f.size })),
      );
      persist((store) =>
        store.insert({
          runId,
          workspaceId: active.run.workspaceId,
          createdAt: active.run.createdAt,
          instructions: input.instructions,
          state: RUN_CREATING,
          error: null,
          assemblyId: null,
          status: null,
          finished: false,
          files: input.files.map((f) => ({ ...f, state: 'queued', bytesUploaded: 0, uploadUrl: null, error: null })),
        }),
      );
      publish(active);
      return ok(snapshot(active));
    },
    attach(runId, status) {
      const active = runs.get(runId);
      if (!active || active.finished) return;
      applyStatus(active, status);
      if (active.cancelRequested) {
        void cancelAssembly(active, true).then(() => finish(active), settleOnFailure(active));
        return;
      }
      if (!isAssemblyBusy(status)) return finish(active);
      follow(active, status, true);
    },
    fail(runId, error) {
      const active = runs.get(runId);
      if (!active || active.finished) return;
      active.run.state = error.code;
      finish(active, error);
    },
    adopt(input) {
      const opened = this.open({ workspaceId: input.workspaceId, instructions: input.instructions, files: [] });
      if (!opened.ok) return opened;
      this.attach(opened.value.runId, input.status);
      const active = runs.get(opened.value.runId)!;
      return ok(whole(active));
    },
    setUploadTotals(runId, totals) {
      const active = runs.get(runId);
      if (!active || closing || active.files.length > 0) return;
      active.uploadTotals = totals;
      deps.events.emit('run:progress', { runId, totals, files: [] });
    },
    updateFiles(runId, files) {
      const active = runs.get(runId);
      if (!active || closing) return;
      if (active.finished) {
        // The Assembly ended before the engine learned a file's last state (a restart): record it quietly.
        for (const f of files) active.coalescer.patch(f.fileId, f.error === undefined ? { state: f.state, bytesUploaded: f.bytesUploaded } : { state: f.state, bytesUploaded: f.bytesUploaded, error: f.error });
        persist((store) => store.updateFiles(runId, files));
        // File rows travel as run:progress (run:updated never carries them).
        const changed = new Set(files.map((f) => f.fileId));
        deps.events.emit('run:progress', { runId, totals: active.coalescer.totals(), files: active.coalescer.files().filter((f) => changed.has(f.fileId)) });
        return;
      }
      for (const f of files) active.coalescer.update(f.fileId, f.error === undefined ? { state: f.state, bytesUploaded: f.bytesUploaded } : { state: f.state, bytesUploaded: f.bytesUploaded, error: f.error });
    },
    onStatus(hook) {
      statusHook = hook;
    },
    onCancel(hook) {
      cancelHook = hook;
    },
    list: () => [...runs.values()].map(snapshot).sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    get(runId) {
      const active = runs.get(runId);
      return active ? ok(whole(active)) : err(AppErrorCode.notFound, `No run with id ${runId}.`);
    },
    async cancel(runId) {
      const active = runs.get(runId);
      if (!active) return err(AppErrorCode.notFound, `No run with id ${runId}.`);
      if (active.finished) return ok(whole(active));
      if (active.cancelRequested) {
        await active.settled;
        return ok(whole(active));
      }
      active.cancelRequested = true;
      try {
        cancelHook?.(runId);
      } catch (cause) {
        report(cause);
      }
      active.watcher?.stop();
      if (active.run.status) {
        await cancelAssembly(active, true);
        finish(active);
      }
      // Still creating: begin() cancels the Assembly as soon as the service answers.
      return ok(whole(active));
    },
    async settled(runId) {
      const active = runs.get(runId);
      if (!active) return err(AppErrorCode.notFound, `No run with id ${runId}.`);
      await active.settled;
      return ok(whole(active));
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
        active.watcher?.stop();
        active.coalescer.dispose();
      }
      storeClosed = true;
      deps.store?.close();
    },
  };
}

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
