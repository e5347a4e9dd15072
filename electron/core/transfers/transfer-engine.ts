import type { Transport } from '../net/transport';
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { createHash } from 'node:crypto';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { isAssemblyBusy } from '../../../shared/api/codes';
import type { Instructions } from '../../../shared/api/instructions';
import type { FileUploadState, LocalFile, Run } from '../../../shared/ipc/models';
import {
  transferSettingsSchema,
  type Transfer,
  type CancelCost,
  type TransferAction,
  type TransferBatch,
  type TransferOverview,
  type TransferRowsPage,
  type TransferRowsQuery,
  type TransferScope,
  type TransferSettings,
} from '../../../shared/ipc/transfer-models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import type { CoreEvents } from '../events';
import { rebaseLoopback, type RunManager } from '../runs/run-manager';
import { errorOfStatus } from '../runs/run-state';
import { getTemplate } from '../templates/template-api';
import { systemClock, type Clock } from '../uploads/clock';
import { HARD_MAX_FILES_PER_ASSEMBLY, mergeLimits, type AssemblyLimits } from './batching';
import { seenUploads } from './assembly-check';
import { createBatchAssembly, serviceMd5ByUploadId, uploadIdOf, type CreateBatchOutcome } from './batch-creator';
import type { DraftFeed } from './draft-feed';
import { recipeOf } from './recipe';
import { startProblem } from './start-check';
import { LOCAL_WORKSPACE_ID } from '../workspaces/workspace-store';
import { createTokenBucket } from './token-bucket';
import { batchIdOf, emptyState, fileIdOf, finishedTransfers, markerOf, runStartOf, type Command, type EngineEvent, type EngineState, type FileRec } from './transfer-model';
import { control as controlStep } from './transfer-controls';
import { nextWake, pump, reduce, restored, type Changes, type Step } from './transfer-state';
import { openTransferStore, type TransferStore } from './transfer-store';
import { createSpeedMeter, filesSentOf, queryRows, toBatch, toRow, totalsOf, toTransfer } from './transfer-views';
import { uploadTus, type TusRun } from './tus-worker';
import { concatenationProbe, DEFAULT_PARALLEL, mapUploadUrls, type ParallelPolicy } from './tus-parts';

export interface TransferEngineDeps {
  dataDir: string;
  events: CoreEvents;
  clientFor(workspaceId: string | undefined): Result<{ workspaceId: string; api: ApiClient }>;
  runs: Pick<RunManager, 'open' | 'attach' | 'fail' | 'adopt' | 'setUploadTotals' | 'updateFiles' | 'onCancel' | 'onStatus' | 'cancel' | 'get'>;
  clock?: Clock;
  /**
   * tus tuning: bytes per PATCH (16 MiB: a kill costs at most that much), the stall timeout, and parallel
   * parts for large files where the deployment offers concatenation (tus-parts.ts DEFAULT_PARALLEL; false: never).
   */
  tus?: { chunkSize?: number; stallMs?: number; parallel?: Partial<ParallelPolicy> | false };
  /** Store writes are batched: one transaction per this many ms. */
  writeEveryMs?: number;
  /** `transfers:changed` at most this often. */
  announceEveryMs?: number;
  reportError?: (code: string, message: string) => void;
}

export interface StartTransferInput {
  workspaceId?: string;
  instructions: Instructions;
  /** What the drop does, as the user chose it (a preset's title, a Template's name); else worked out here. */
  recipe?: string;
  feed: DraftFeed;
  /** Override the batching settings for this transfer (runs:start sends one Assembly per drop). */
  batching?: Partial<Pick<TransferSettings, 'batchMode' | 'batchMaxFiles' | 'batchMaxBytes'>>;
}

export interface StartRunInput {
  workspaceId?: string;
  instructions: Instructions;
  files: LocalFile[];
}

export interface TransferEngine {
  /**
   * What Start would be refused for, before the draft is handed over (so a refused Start keeps it): the
   * steps against the service's step and robot-parameter rules, a Template that is not there. ok(undefined) when it may start.
   */
  check(input: { workspaceId?: string; instructions: Instructions }): Promise<Result<undefined>>;
  start(input: StartTransferInput): Promise<Result<Transfer>>;
  /**
   * `runs:start`: the files as one transfer with one Assembly (per drop, every file by tus, as that channel
   * always did), followed by a run that lists them. Answers once the Assembly exists (or failed).
   */
  startRun(input: StartRunInput): Promise<Result<Run>>;
  overview(): TransferOverview;
  rows(query: TransferRowsQuery): TransferRowsPage;
  /** `resend`: the user agreed that canceling these files sends their batches' other files again (see cancelCost). */
  control(action: TransferAction, scope: TransferScope, options?: { resend?: boolean }): { affected: number; confirm?: CancelCost };
  /** Takes finished drops (no failed file among them) out of the queue and its store. */
  clearFinished(): { transfers: number; files: number; keptWithFailures: number };
  settings(): TransferSettings;
  /** A verified upload from this path with this size is in the ledger (a skipUnchanged candidate for the plan). */
  uploadedBefore(path: string, size: number): boolean;
  saveSettings(change: Partial<TransferSettings>): Result<TransferSettings>;
  batchesOf(transferId: string): TransferBatch[];
  /** Resolves when every batch of the transfer ended (completed, failed or canceled) and its walk is over. */
  settled(transferId: string): Promise<Transfer>;
  /**
   * Paths the queue may still read: every file not verified or skipped (failed and canceled ones can be
   * retried). The browser host's staged copies of them must outlive a restart.
   */
  pathsInUse(): string[];
  /** Load the stored queue and continue it (uploads resume from the server's offsets). */
  restore(): Promise<void>;
  /** Stops requests without marking anything canceled (a later restore continues), writes the queue, closes the store. */
  close(): Promise<void>;
}

const DEFAULT_CHUNK = 16 * 1024 * 1024;

/**
 * The transfer engine: the pure queue (transfer-state.ts) driven by events, with the I/O at its edges —
 * the SQLite store, the batch creator (multipart POST), tus workers, the run manager (which watches each
 * batch's Assembly), timers and the token bucket.
 */
export function createTransferEngine(deps: TransferEngineDeps): TransferEngine {
  const clock = deps.clock ?? systemClock;
  const store: TransferStore = openTransferStore(deps.dataDir);
  const loaded = store.load();
  const state: EngineState = emptyState(loaded.settings);
  const bucket = createTokenBucket(state.settings.bandwidthLimitBps, clock);
  const chunkSize = deps.tus?.chunkSize ?? DEFAULT_CHUNK;
  const stallMs = deps.tus?.stallMs ?? 30_000;
  const parallelOption = deps.tus?.parallel;
  // Each deployment's tus endpoint is asked once whether it offers concatenation.
  const concatOffered = new Map<string, Promise<boolean>>();
  const parallel =
    parallelOption === false
      ? null
      : {
          policy: { ...DEFAULT_PARALLEL, ...parallelOption },
          supportsConcatenation: (tusUrl: string, transport?: Transport) => {
            let known = concatOffered.get(tusUrl);
            if (!known) concatOffered.set(tusUrl, (known = concatenationProbe(tusUrl, undefined, transport?.fetch)));
            return known;
          },
        };
  const writeEveryMs = deps.writeEveryMs ?? 100;
  const announceEveryMs = deps.announceEveryMs ?? 250;
  const progressEveryMs = Math.min(100, announceEveryMs);
  const report = (cause: unknown) => {
    const message = cause instanceof Error ? cause.message : String(cause);
    if (deps.reportError) deps.reportError(AppErrorCode.internal, message);
    else console.error('Assemblyline transfer engine:', cause);
  };

  const toWrite: Changes = { files: new Set(), batches: new Set(), transfers: new Set() };
  const toAnnounce: Changes = { files: new Set(), batches: new Set(), transfers: new Set() };
  const tusRuns = new Map<string, TusRun>();
  const runToBatch = new Map<string, string>();
  /** Batches whose run lists their files (`runs:start`): their rows are mirrored into the run. */
  const fileRuns = new Map<string, string>();
  /** `runs:start` waits for the first answer to its batch's create request. */
  const createWaiters = new Map<string, () => void>();
  /** Create requests on the wire, by batch: abandoning one aborts it. */
  const createAborts = new Map<string, AbortController>();
  /** Endpoints that answered POST /assemblies/{id} as an unknown route: creates there go without an id. */
  const idsUnsupported = new Set<string>();
  const waiters = new Map<string, Array<(t: Transfer) => void>>();
  const sortCache = new Map<string, { version: number; ids: string[] }>();
  const speed = createSpeedMeter();
  let closing = false;
  /** Nothing starts before restore(): the run manager first reattaches the runs of stored batches. */
  let started = false;
  let writeTimer: unknown = null;
  let announceTimer: unknown = null;
  let wakeTimer: unknown = null;
  let wakeAt: number | null = null;
  let totalsDirty = false;
  const pending = new Set<Promise<unknown>>();
  const track = (p: Promise<unknown>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };

  // ---- edges: store and announcements, batched ----------------------------------------------------

  function note(changes: Changes) {
    for (const k of ['files', 'batches', 'transfers'] as const) {
      for (const id of changes[k]) {
        toWrite[k].add(id);
        toAnnounce[k].add(id);
      }
    }
    if (changes.files.size + changes.batches.size + changes.transfers.size > 0) totalsDirty = true;
    writeTimer ??= clock.setTimeout(writeNow, writeEveryMs);
    announceTimer ??= clock.setTimeout(announceNow, announceEveryMs);
  }

  function writeNow() {
    writeTimer = null;
    if (toWrite.files.size + toWrite.batches.size + toWrite.transfers.size === 0) return;
    const pick = <T>(ids: Set<string>, map: Map<string, T>) => [...ids].map((id) => map.get(id)).filter((v): v is T => v !== undefined);
    try {
      store.write({ files: pick(toWrite.files, state.files), batches: pick(toWrite.batches, state.batches), transfers: pick(toWrite.transfers, state.transfers) });
    } catch (cause) {
      report(cause);
    }
    toWrite.files.clear();
    toWrite.batches.clear();
    toWrite.transfers.clear();
  }

  function announceNow() {
    announceTimer = null;
    if (closing) return;
    const now = clock.now();
    const totalsBefore = totalsOf(state, 0, null);
    speed.sample(now, totalsBefore.bytesSent);
    const cur = totalsBefore.current;
    const totals = { ...totalsBefore, speedBps: Math.round(speed.speed()), etaSeconds: speed.eta(cur.bytesTotal - cur.bytesSent) };
    const batches = [...toAnnounce.batches].map((id) => state.batches.get(id)).filter((b) => b !== undefined).map((b) => toBatch(b, state));
    const transfers = [...toAnnounce.transfers].map((id) => state.transfers.get(id)).filter((t) => t !== undefined).map((t) => toTransfer(t, state));
    const changedRows = [...toAnnounce.files];
    const rowsTruncated = changedRows.length > 500;
    const rows = rowsTruncated ? [] : changedRows.map((id) => state.files.get(id)).filter((f) => f !== undefined).map(toRow);
    const anything = totalsDirty || batches.length + transfers.length + rows.length > 0 || rowsTruncated;
    toAnnounce.files.clear();
    toAnnounce.batches.clear();
    toAnnounce.transfers.clear();
    totalsDirty = false;
    if (anything) deps.events.emit('transfers:changed', { totals, transfers, batches, rows, rowsTruncated });
    mirrorRunFiles(changedRows);
    for (const b of batches) {
      if (!b.runId || fileRuns.has(b.id)) continue;
      deps.runs.setUploadTotals(b.runId, {
        bytesTotal: b.bytesTotal,
        bytesUploaded: b.bytesSent,
        filesTotal: b.filesTotal,
        // Uploaded: with the service, verified or not yet (the batch's Done counts only verified ones).
        filesUploaded: filesSentOf(state.batches.get(b.id), state),
        speedBps: 0,
        etaSeconds: null,
      });
    }
    for (const t of transfers) {
      if (t.state !== 'done' && t.state !== 'canceled') continue;
      for (const resolve of waiters.get(t.id) ?? []) resolve(t);
      waiters.delete(t.id);
    }
    // While bytes move, keep the speed fresh even when no row changed.
    if (totals.filesActive > 0) announceTimer = clock.setTimeout(announceNow, announceEveryMs);
  }

  function mirrorRunFiles(fileIds: Iterable<string>) {
    if (fileRuns.size === 0) return;
    const byRun = new Map<string, Array<{ fileId: string; state: FileUploadState; bytesUploaded: number; error?: string }>>();
    for (const id of fileIds) {
      const f = state.files.get(id);
      const runId = f?.batchId ? fileRuns.get(f.batchId) : undefined;
      if (!f || !runId) continue;
      const list = byRun.get(runId) ?? [];
      // Sent again as a new Assembly (its Assembly crashed, or a checksum differed): that run's Assembly ended
      // without processing it — said so there, never left "queued" in a run that is over.
      const sentAgain = state.batches.get(f.batchId!)!.generation > 0;
      const error = sentAgain ? (f.note ?? 'Sent again in a new Assembly.') : f.error;
      list.push({ fileId: f.id, state: sentAgain ? 'failed' : runFileState(f.state), bytesUploaded: f.bytesSent, ...(error ? { error } : {}) });
      byRun.set(runId, list);
    }
    for (const [runId, files] of byRun) deps.runs.updateFiles(runId, files);
  }

  // ---- the loop: event → transitions → commands ----------------------------------------------------

  function apply(step: Step) {
    note(step.changes);
    for (const command of step.commands) {
      try {
        run(command);
      } catch (cause) {
        report(cause);
      }
    }
  }

  /**
   * Bytes read into requests arrive per chunk (multipart parts, tus slices): they are gathered here and go
   * through the queue as one event per ~100 ms, not one transition (and pump) per chunk.
   */
  const progress = new Map<string, number>();
  let progressTimer: unknown = null;
  function progressOf(fileId: string, bytes: number) {
    progress.set(fileId, bytes);
    progressTimer ??= clock.setTimeout(flushProgress, progressEveryMs);
  }
  function flushProgress() {
    if (progressTimer !== null) clock.clearTimeout(progressTimer);
    progressTimer = null;
    if (progress.size === 0 || closing) return;
    const entries = [...progress];
    progress.clear();
    apply(reduce(state, { kind: 'files-progress', entries }, clock.now()));
  }

  /** Answers the files the event changed. */
  function dispatch(event: EngineEvent): ReadonlySet<string> {
    if (closing) return new Set();
    // Progress gathered so far goes first: an event after it (uploaded, failed) is not undone by it.
    flushProgress();
    const step = reduce(state, event, clock.now());
    apply(step);
    schedule();
    return step.changes.files;
  }

  function schedule() {
    if (closing || !started) return;
    const now = clock.now();
    apply(pump(state, now));
    const next = nextWake(state, now);
    if (next !== null && (wakeAt === null || next < wakeAt)) {
      if (wakeTimer !== null) clock.clearTimeout(wakeTimer);
      wakeAt = next;
      wakeTimer = clock.setTimeout(() => {
        wakeTimer = null;
        wakeAt = null;
        dispatch({ kind: 'tick' });
      }, Math.max(1, next - now));
    }
    if (state.gateUntil !== null) totalsDirty = true;
  }

  const apiOf = (transferId: string): Result<ApiClient> => {
    const t = state.transfers.get(transferId);
    if (!t) return err(AppErrorCode.notFound, `No transfer ${transferId}.`);
    const client = deps.clientFor(t.workspaceId);
    return client.ok ? ok(client.value.api) : client;
  };

  function run(command: Command) {
    switch (command.kind) {
      case 'create-batch':
        return track(createBatch(command));
      case 'upload-tus':
        return startTus(command.fileId, command.batchId);
      case 'abort-file': {
        const r = tusRuns.get(command.fileId);
        tusRuns.delete(command.fileId);
        r?.abort();
        return;
      }
      case 'abort-create':
        // The request's body stops; if it still made an Assembly, its answer is for a generation the
        // queue no longer waits for, and that Assembly is canceled when the answer comes.
        createAborts.get(command.batchId)?.abort();
        createAborts.delete(command.batchId);
        return;
      case 'cancel-assembly':
        return track(cancelAssembly(command.batchId, command.assemblyUrl, command.runId));
      case 'remember-verified': {
        const f = state.files.get(command.fileId);
        if (f?.md5) store.ledgerPut({ path: f.path, size: f.size, mtimeMs: f.mtimeMs, md5: f.md5 });
        return;
      }
      case 'hash-file': {
        const f = state.files.get(command.fileId);
        if (!f) return;
        return track(
          md5Of(f.path).then(
            (md5) => dispatch({ kind: 'file-hashed', fileId: f.id, md5 }),
            () => undefined,
          ),
        );
      }
    }
  }

  async function cancelAssembly(batchId: string, assemblyUrl: string, runId: string | null) {
    if (runId) {
      const canceled = await deps.runs.cancel(runId);
      if (canceled.ok) return;
    }
    const transferId = state.batches.get(batchId)?.transferId;
    const api = transferId ? apiOf(transferId) : null;
    if (api?.ok) await api.value.cancelAssembly(assemblyUrl);
  }

  async function createBatch(command: Extract<Command, { kind: 'create-batch' }>) {
    const b = state.batches.get(command.batchId)!;
    const t = state.transfers.get(b.transferId)!;
    const api = apiOf(t.id);
    if (!api.ok) {
      return dispatch({ kind: 'batch-create-failed', batchId: b.id, generation: command.generation, error: api.error, failure: 'transient', ambiguous: b.ambiguous, excluded: [] });
    }
    const files = (ids: string[]) => ids.map((id) => state.files.get(id)!);
    const abort = new AbortController();
    createAborts.set(b.id, abort);
    const outcome = await createBatchAssembly({
      api: api.value,
      instructions: t.instructions,
      batchId: b.id,
      generation: command.generation,
      idAttempt: command.idAttempt,
      useIds: !idsUnsupported.has(api.value.endpoint),
      marker: markerOf(b.id, command.generation),
      multipart: files(command.multipart),
      tus: files(command.tus),
      lookFirst: command.lookFirst,
      ledger: (p) => store.ledgerGet(p),
      bucket: state.settings.bandwidthLimitBps > 0 ? bucket : null,
      onFileBytes: progressOf,
      signal: abort.signal,
    }).catch((cause: unknown): CreateBatchOutcome => ({
      ok: false as const,
      error: { code: AppErrorCode.internal, message: cause instanceof Error ? cause.message : String(cause) },
      failure: 'transient' as const,
      ambiguous: true,
      excluded: [],
      idAttempt: command.idAttempt,
    }));
    if (createAborts.get(b.id) === abort) createAborts.delete(b.id);
    if (outcome.idsUnsupported) idsUnsupported.add(api.value.endpoint);
    if (closing) return;
    const openedRun = fileRuns.get(b.id) ?? null;
    const wake = () => {
      createWaiters.get(b.id)?.();
      createWaiters.delete(b.id);
    };
    if (!outcome.ok) {
      const { ok: _ok, idsUnsupported: _ids, ...rest } = outcome;
      dispatch({ kind: 'batch-create-failed', batchId: b.id, generation: command.generation, ...rest });
      if (openedRun && state.batches.get(b.id)?.state === 'failed') deps.runs.fail(openedRun, outcome.error);
      return wake();
    }
    const status = outcome.status;
    const assemblyUrl = status.assembly_ssl_url ?? status.assembly_url ?? `${api.value.endpoint}/assemblies/${status.assembly_id}`;
    // The run follows the Assembly (Activity, the Assembly view); its status updates come back as events. A
    // run opened by runs:start attaches to its first Assembly; a batch sent again gets a run of its own.
    let runId: string | null = null;
    if (openedRun && command.generation === 0) {
      deps.runs.attach(openedRun, status);
      runId = openedRun;
    } else {
      if (openedRun) fileRuns.delete(b.id);
      const adopted = deps.runs.adopt({ workspaceId: t.workspaceId, status, instructions: t.instructions });
      runId = adopted.ok ? adopted.value.runId : null;
    }
    if (runId) runToBatch.set(runId, b.id);
    const terminal = !isAssemblyBusy(status);
    dispatch({
      kind: 'batch-created',
      batchId: b.id,
      generation: command.generation,
      assemblyId: status.assembly_id ?? '',
      assemblyUrl,
      tusUrl: status.tus_url ?? null,
      runId,
      excluded: outcome.excluded,
      tus: outcome.tus,
      delivered: outcome.delivered,
      terminal,
      uploads: terminal ? seenUploads(status) : null,
      error: errorOfStatus(status),
      idAttempt: outcome.idAttempt,
    });
    wake();
    if (!terminal && runId) {
      const current = deps.runs.get(runId);
      if (current.ok && current.value.status) onStatus(b.id, current.value.status);
    }
  }

  function startTus(fileId: string, batchId: string) {
    const f = state.files.get(fileId)!;
    const b = state.batches.get(batchId)!;
    if (!b.tusUrl || !b.assemblyUrl) {
      return dispatch({ kind: 'file-failed', fileId, error: 'The service gave no tus_url for this batch.', failure: 'fatal' });
    }
    // The workspace's trust (its CA file) for the tus host too.
    const client = deps.clientFor(state.transfers.get(b.transferId)?.workspaceId);
    const transport = client.ok ? client.value.api.transport : undefined;
    const r = uploadTus({
      ...(transport ? { transport } : {}),
      path: f.path,
      name: f.name,
      size: f.size,
      relativePath: f.relativePath,
      tusUrl: b.tusUrl,
      assemblyUrl: b.assemblyUrl,
      uploadUrl: f.uploadUrl,
      chunkSize,
      stallMs,
      bucket: state.settings.bandwidthLimitBps > 0 ? bucket : null,
      clock,
      onUploadUrl: (url) => dispatch({ kind: 'tus-url', fileId, url }),
      onProgress: (bytes) => progressOf(fileId, bytes),
      parallel: parallel && { policy: parallel.policy, supportsConcatenation: (tusUrl) => parallel.supportsConcatenation(tusUrl, transport) },
    });
    tusRuns.set(fileId, r);
    track(
      r.done.then((outcome) => {
        if (tusRuns.get(fileId) === r) tusRuns.delete(fileId);
        if (outcome.kind === 'aborted' || closing) return;
        if (outcome.kind === 'uploaded') dispatch({ kind: 'file-uploaded', fileId, md5: outcome.md5 });
        else dispatch({ kind: 'file-failed', fileId, error: outcome.error, failure: outcome.failure, ...(outcome.retryInMs !== undefined ? { retryInMs: outcome.retryInMs } : {}) });
      }),
    );
  }

  /** A status of a batch's Assembly (from its run): checksums of the uploads it lists, and whether it ended. */
  function onStatus(batchId: string, status: AssemblyStatus) {
    const b = state.batches.get(batchId);
    if (!b || (status.assembly_id && b.assemblyId && status.assembly_id !== b.assemblyId)) return;
    const byUpload = serviceMd5ByUploadId(status);
    const checks = [];
    for (const id of b.assemblyFiles) {
      const f = state.files.get(id)!;
      if (f.method !== 'tus' || !f.uploadUrl) continue;
      const key = uploadIdOf(f.uploadUrl);
      if (!byUpload.has(key)) continue;
      checks.push({ fileId: id, serviceMd5: byUpload.get(key) ?? null, delivered: true });
    }
    const terminal = !isAssemblyBusy(status);
    const changed = dispatch({ kind: 'assembly-status', batchId, checks, terminal, error: errorOfStatus(status), uploads: terminal ? seenUploads(status) : null });
    // At once, not with the next announcement: a run that ends now shows its files' final states.
    if (fileRuns.has(batchId) && changed.size > 0) mirrorRunFiles(changed);
  }

  // Canceling a run cancels its batch here (uploads stop); the run manager DELETEs the Assembly.
  deps.runs.onCancel((runId) => {
    const batchId = runToBatch.get(runId);
    const b0 = batchId ? state.batches.get(batchId) : undefined;
    // Only the run of the batch's current Assembly (or the one runs:start opened before it): an earlier
    // Assembly the engine itself cancels (sent again after a checksum mismatch) leaves the batch alone.
    if (!batchId || !b0 || !(b0.runId === runId || (b0.runId === null && b0.assemblyUrl === null && b0.generation === 0))) return;
    apply(controlStep(state, 'cancel', { kind: 'batch', id: batchId }, clock.now()));
    const b = state.batches.get(batchId);
    if (b) mirrorRunFiles(b.fileIds);
  });

  deps.runs.onStatus((runId, status) => {
    if (closing) return;
    const batchId = runToBatch.get(runId);
    if (batchId) onStatus(batchId, status);
  });

  // ---- intake -------------------------------------------------------------------------------------

  async function ingest(transferId: string, feed: DraftFeed) {
    const flushEvery = 500;
    let buffer: Array<Omit<FileRec, 'id' | 'transferId' | 'batchId' | 'state' | 'bytesSent' | 'method' | 'attempts' | 'error' | 'note' | 'uploadUrl' | 'md5' | 'retryAt' | 'serviceMd5' | 'resends'>> = [];
    let last = clock.now();
    const flush = () => {
      if (buffer.length > 0) dispatch({ kind: 'files-added', transferId, files: buffer });
      buffer = [];
      last = clock.now();
    };
    try {
      for await (const file of feed.files) {
        if (closing || state.transfers.get(transferId)?.canceled) break;
        const before = feed.skip.skipUnchanged ? store.ledgerGet(file.path) : null;
        buffer.push({ ...file, unchangedCandidate: before !== null && before.size === file.size });
        // Small groups early, so the first batch can close and leave while the walk goes on.
        if (buffer.length >= flushEvery || clock.now() - last >= 50) {
          flush();
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
    } catch (cause) {
      report(cause);
    } finally {
      flush();
      dispatch({ kind: 'scan-ended', transferId });
    }
  }

  /** The request's own limits (the Upload options) where given, else the Template's: batches never exceed them. */
  async function limitsOf(api: ApiClient, instructions: Instructions): Promise<AssemblyLimits> {
    const none = { maxNumberOfFiles: null, maxSize: null };
    const own = instructions.auth;
    if (!instructions.template_id || (own?.max_size !== undefined && own.max_number_of_files !== undefined)) return mergeLimits(own, none).limits;
    const template = await getTemplate(api, instructions.template_id);
    if (!template.ok) return mergeLimits(own, none).limits;
    const auth = (template.value.content as { auth?: { max_number_of_files?: unknown; max_size?: unknown } } | null)?.auth;
    const num = (v: unknown) => (typeof v === 'number' && v > 0 ? v : typeof v === 'string' && Number(v) > 0 ? Number(v) : null);
    return mergeLimits(own, { maxNumberOfFiles: num(auth?.max_number_of_files), maxSize: num(auth?.max_size) }).limits;
  }

  // ---- restore --------------------------------------------------------------------------------------

  function load() {
    for (const t of loaded.transfers) state.transfers.set(t.id, t);
    for (const b of loaded.batches) state.batches.set(b.id, b);
    for (const f of loaded.files) state.files.set(f.id, f);
    note(restored(state));
    state.runStart = runStartOf(state);
    // The embedded service listens on a new port each start: stored loopback URLs move to today's.
    for (const b of state.batches.values()) {
      if (b.runId) runToBatch.set(b.runId, b.id);
      const opened = state.transfers.get(b.transferId)?.runId;
      if (opened && b.seq === 0 && b.generation === 0) {
        fileRuns.set(b.id, opened);
        runToBatch.set(opened, b.id);
      }
      const client = deps.clientFor(state.transfers.get(b.transferId)?.workspaceId);
      if (!client.ok) continue;
      const endpoint = client.value.api.endpoint;
      if (b.assemblyUrl) b.assemblyUrl = rebaseLoopback(b.assemblyUrl, endpoint);
      if (b.tusUrl) b.tusUrl = rebaseLoopback(b.tusUrl, endpoint);
      for (const id of b.fileIds) {
        const f = state.files.get(id)!;
        if (f.uploadUrl) f.uploadUrl = mapUploadUrls(f.uploadUrl, (u) => rebaseLoopback(u, endpoint));
      }
    }
  }
  load();

  return {
    async check(input) {
      const client = deps.clientFor(input.workspaceId);
      if (!client.ok) return client;
      let templateSteps: Record<string, unknown> | null = null;
      if (input.instructions.template_id) {
        const template = await getTemplate(client.value.api, input.instructions.template_id);
        // The service's answer about the Template (not there, not allowed) is the answer to Start.
        if (!template.ok && (template.error.httpCode ?? 0) >= 400 && (template.error.httpCode ?? 0) < 500) return template;
        const steps = template.ok ? (template.value.content as { steps?: unknown } | null)?.steps : undefined;
        if (steps && typeof steps === 'object' && !Array.isArray(steps)) templateSteps = steps as Record<string, unknown>;
      }
      const problem = startProblem(input.instructions, templateSteps, client.value.workspaceId === LOCAL_WORKSPACE_ID);
      return problem ? { ok: false, error: problem } : ok(undefined);
    },
    async start(input) {
      const client = deps.clientFor(input.workspaceId);
      if (!client.ok) return client;
      const id = randomUUID();
      const limits = await limitsOf(client.value.api, input.instructions);
      const s = { ...state.settings, ...input.batching };
      dispatch({
        kind: 'transfer-started',
        transfer: {
          id,
          workspaceId: client.value.workspaceId,
          createdAt: new Date(clock.now()).toISOString(),
          label: input.feed.label,
          recipe: recipeOf(input.instructions, input.recipe),
          instructions: input.instructions,
          limits,
          batching: { mode: s.batchMode, batchMaxFiles: s.batchMaxFiles, batchMaxBytes: s.batchMaxBytes },
          multipartMaxFileBytes: null,
          runId: null,
        },
      });
      // The walk is not awaited (nor tracked: a feed may wait on a folder for long); close stops it.
      void ingest(id, input.feed);
      return ok(toTransfer(state.transfers.get(id)!, state));
    },
    async startRun(input) {
      const client = deps.clientFor(input.workspaceId);
      if (!client.ok) return client;
      const workspaceId = client.value.workspaceId;
      const api = client.value.api;
      const transferId = randomUUID();
      const opened = deps.runs.open({ workspaceId, instructions: input.instructions, files: input.files.map((f, i) => ({ ...f, fileId: fileIdOf(transferId, i) })) });
      if (!opened.ok) return opened;
      const runId = opened.value.runId;
      if (input.files.length === 0) {
        // Nothing to upload: the Assembly alone (steps that import, or a check of the instructions).
        const created = await api.createAssembly({ instructions: input.instructions, expectedUploads: 0 });
        if (created.ok) deps.runs.attach(runId, created.value);
        else deps.runs.fail(runId, created.error);
        return deps.runs.get(runId);
      }
      const batchId = batchIdOf(transferId, 0);
      fileRuns.set(batchId, runId);
      runToBatch.set(runId, batchId);
      const created = new Promise<void>((resolve) => createWaiters.set(batchId, resolve));
      const limits = await limitsOf(api, input.instructions);
      dispatch({
        kind: 'transfer-started',
        transfer: {
          id: transferId,
          workspaceId,
          createdAt: new Date(clock.now()).toISOString(),
          label: input.files.length === 1 ? input.files[0]!.name : `${input.files.length} files`,
          recipe: recipeOf(input.instructions),
          instructions: input.instructions,
          limits,
          batching: { mode: 'per-drop', batchMaxFiles: HARD_MAX_FILES_PER_ASSEMBLY, batchMaxBytes: Number.MAX_SAFE_INTEGER },
          multipartMaxFileBytes: 0,
          runId,
        },
      });
      dispatch({ kind: 'files-added', transferId, files: input.files.map((f) => ({ path: f.path, relativePath: f.relativePath, name: f.name, size: f.size, mime: f.mime, mtimeMs: 0 })) });
      dispatch({ kind: 'scan-ended', transferId });
      await created;
      return deps.runs.get(runId);
    },
    overview: () => ({
      totals: totalsOf(state, Math.round(speed.speed()), null),
      transfers: [...state.transfers.values()].map((t) => toTransfer(t, state)),
      batches: [...state.batches.values()].map((b) => toBatch(b, state)),
    }),
    rows: (query) => queryRows(state, query, sortCache, () => 0),
    control(action, scope, options = {}) {
      flushProgress();
      const step = controlStep(state, action, scope, clock.now(), options);
      if (step.confirm) return { affected: 0, confirm: step.confirm };
      apply(step);
      totalsDirty = true;
      announceTimer ??= clock.setTimeout(announceNow, announceEveryMs);
      schedule();
      return { affected: step.affected };
    },
    clearFinished() {
      const finished = finishedTransfers(state);
      const gone = new Set<string>();
      let keptWithFailures = 0;
      const withFailures = new Set<string>();
      for (const f of state.files.values()) if (f.state === 'failed') withFailures.add(f.transferId);
      for (const id of finished) {
        // A failed file is the user's to retry or cancel: its drop stays until then.
        if (withFailures.has(id)) keptWithFailures++;
        else if (!state.transfers.get(id)!.scanning) gone.add(id);
      }
      let files = 0;
      for (const [id, f] of state.files) {
        if (!gone.has(f.transferId)) continue;
        state.files.delete(id);
        toWrite.files.delete(id);
        toAnnounce.files.delete(id);
        files++;
      }
      for (const [id, b] of state.batches) {
        if (!gone.has(b.transferId)) continue;
        state.batches.delete(id);
        toWrite.batches.delete(id);
        toAnnounce.batches.delete(id);
        sortCache.delete(id);
        fileRuns.delete(id);
        if (b.runId) runToBatch.delete(b.runId);
      }
      for (const id of gone) {
        state.transfers.delete(id);
        toWrite.transfers.delete(id);
        toAnnounce.transfers.delete(id);
      }
      if (gone.size > 0) {
        try {
          store.remove([...gone]);
        } catch (cause) {
          report(cause);
        }
        totalsDirty = true;
        announceTimer ??= clock.setTimeout(announceNow, announceEveryMs);
      }
      return { transfers: gone.size, files, keptWithFailures };
    },
    settings: () => state.settings,
    uploadedBefore: (path, size) => store.ledgerGet(path)?.size === size,
    saveSettings(change) {
      const parsed = transferSettingsSchema.safeParse({ ...state.settings, ...change, skip: { ...state.settings.skip, ...change.skip } });
      if (!parsed.success) return err(AppErrorCode.invalidRequest, parsed.error.issues[0]?.message ?? 'Invalid settings.');
      const { minBytes, maxBytes } = parsed.data.skip;
      if (minBytes !== null && maxBytes !== null && minBytes > maxBytes) {
        return err(AppErrorCode.invalidRequest, `The smallest file (${minBytes} bytes) is larger than the largest file (${maxBytes} bytes): every file would be left out.`, { details: { field: 'minBytes' } });
      }
      store.saveSettings(parsed.data);
      bucket.setRate(parsed.data.bandwidthLimitBps);
      dispatch({ kind: 'settings', settings: parsed.data });
      totalsDirty = true;
      return ok(parsed.data);
    },
    pathsInUse: () => [...state.files.values()].filter((f) => f.state !== 'verified' && f.state !== 'unverified' && f.state !== 'skipped').map((f) => f.path),
    batchesOf: (transferId) => [...state.batches.values()].filter((b) => b.transferId === transferId).map((b) => toBatch(b, state)),
    settled(transferId) {
      const t = state.transfers.get(transferId);
      if (!t) return Promise.reject(new Error(`No transfer ${transferId}`));
      const view = toTransfer(t, state);
      if (view.state === 'done' || view.state === 'canceled') return Promise.resolve(view);
      return new Promise((resolve) => waiters.set(transferId, [...(waiters.get(transferId) ?? []), resolve]));
    },
    async restore() {
      for (const t of state.transfers.values()) {
        // The walk of a transfer interrupted while scanning is gone: what it had found goes on.
        if (t.scanning) dispatch({ kind: 'scan-ended', transferId: t.id });
      }
      for (const b of state.batches.values()) {
        if (!b.runId || b.assemblyDone) continue;
        const r = deps.runs.get(b.runId);
        if (r.ok && r.value.status) onStatus(b.id, r.value.status);
      }
      // runs:start's runs list their files: bring them up to the queue's word (the run store may lag).
      for (const [batchId] of fileRuns) {
        const b = state.batches.get(batchId);
        if (b) mirrorRunFiles(b.fileIds);
      }
      started = true;
      schedule();
    },
    async close() {
      if (closing) return;
      closing = true;
      for (const timer of [wakeTimer, announceTimer, progressTimer]) if (timer !== null) clock.clearTimeout(timer);
      for (const r of tusRuns.values()) r.abort();
      tusRuns.clear();
      // Requests on the wire get a moment to answer (their results are dropped; a restore continues).
      await Promise.race([Promise.allSettled([...pending]), new Promise((resolve) => setTimeout(resolve, 2_000).unref())]);
      // Then a create still sending is cut, as quitting would cut it. Bytes of it already on the way (a
      // proxy's buffer) may still arrive after the next start: its Assembly id is taken by then, and the
      // service refuses it (batch-creator.ts).
      for (const a of createAborts.values()) a.abort();
      if (writeTimer !== null) clock.clearTimeout(writeTimer);
      writeNow();
      store.close();
    },
  };
}

async function md5Of(path: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The Assembly view's file states (older than the transfer states). */
function runFileState(state: FileRec['state']): FileUploadState {
  switch (state) {
    case 'uploaded':
    case 'verified':
    case 'unverified':
    case 'skipped':
      return 'uploaded';
    case 'paused':
      return 'queued';
    default:
      return state;
  }
}
