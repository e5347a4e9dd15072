import { formatBytes } from '../../shared/byte-units';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveInside } from '../files/inside-dir';
import { executeSteps, type ExecuteOutcome, type WarningAbout } from '../robots/execute-steps';
import { describeUpload, type StoredFile } from '../robots/file-record';
import type { FileDigests } from '../files/stream-hash';
import { NO_FAULTS, type TestFaults } from '../files/test-faults';
import { ErrorCode } from '../../shared/api/codes';
import type { AssetAccess, ChatAccess, CredentialLookup, NetworkAccess } from '../robots/robot-types';
import type { ServiceDatabase } from '../store/database';
import { createRejection, isPartialUploadId, partialCreateRejection, partialUploadRejection, sizeRejection, uploadRejection, uploadSizeCap, type TusRejection } from '../tus/tus-acceptance';
import { sseEvent, sseMessage, type UpdateStreams } from '../realtime/update-stream';
import { applyEvent, persistDelay, applyProgress, replayJournal, type AssemblyEvent } from './assembly-journal';
import { OK_MESSAGES, isRunning, okMessage, statusDate, type AssemblyState, type TusUploadEntry } from './assembly-state';
import { LOCAL_REGION, publicFileRecord, statusDurations, statusRecord, uploadRecord, type ServiceUrls } from './status-record';
import { usageOf, type UsageRecord } from '../usage/usage-record';
import type { OriginalProgress } from '../robots/execute-steps';
import { allStepsDone, executionProgressData, type ExecutionProgressData, type StepProgress } from '../realtime/execution-progress';
import { assemblySummary } from './assembly-summary';
import { queueDelivery } from '../notifications/notify-state';
import { availableParallelism } from 'node:os';
import { defaultSlotCount, JobSlots } from '../queue/job-slots';
import { InFlight } from '../lifecycle/in-flight';

interface LiveAssembly {
  state: AssemblyState;
  abort: AbortController;
  /** tus uploads finished but whose record (meta, md5) is still being built. */
  describing: number;
  lastProgressEmitMs: number;
  /** The steps as last reported (the completion event marks them all done). */
  lastPerStep: StepProgress[];
  /**
   * Progress held back by the emit interval, sent when the interval is over (so the last state shows); its
   * per-upload list is built then.
   */
  trailingProgress: { timer: NodeJS.Timeout; data: () => ExecutionProgressData } | null;
  /** The progress last sent, sent again when nothing moved for PROGRESS_HEARTBEAT_MS (see execute). */
  lastProgress: ExecutionProgressData | null;
  /** state.tusUploads by upload id: a PATCH must not scan every upload of the Assembly. */
  tusIndex: Map<string, TusUploadEntry>;
  /** Sum of state.uploads' sizes, kept as they are added. */
  uploadBytes: number;
  /** A coalesced write of the whole Assembly is due (see assembly-journal.ts). */
  persistTimer: NodeJS.Timeout | null;
  /** How long the last whole write took. */
  lastPersistMs: number;
  /** Partial uploads (tus concatenation) created for it since it went live. */
  partialsCreated: number;
}

function liveAssembly(state: AssemblyState): LiveAssembly {
  return {
    state,
    abort: new AbortController(),
    describing: 0,
    lastProgressEmitMs: 0,
    lastPerStep: [],
    trailingProgress: null,
    lastProgress: null,
    tusIndex: new Map(state.tusUploads.map((t) => [t.uploadId, t])),
    uploadBytes: state.uploads.reduce((n, u) => n + u.file.size, 0),
    persistTimer: null,
    lastPersistMs: 0,
    partialsCreated: 0,
  };
}

export interface AddedUpload {
  localPath: string;
  name: string;
  field: string | null;
  userMeta?: Record<string, unknown>;
  id?: string;
  /** md5 and sha256 computed while the bytes arrived; null or absent: read from disk. */
  digests?: FileDigests | null;
  /** The first bytes and size, kept as they arrived (file-record.ts). */
  head?: Buffer | null;
  size?: number;
}

/** Multipart files are described this many at a time (each is a few small reads). */
const DESCRIBE_CONCURRENCY = 8;

/**
 * Execution progress is sent at most once a second while it moves, and again at least every two seconds
 * while a step runs (the vendor's cadence: "updated approximately every two seconds", service-facts §5).
 * The repeat lets a client that connects mid-step (a detail view opened late) learn the state within 2 s,
 * also while a job that cannot report its own progress runs; once a second keeps a moving encode's
 * percentage on screen changing well within those two seconds, jitter included (bench:execution-progress).
 */
export const PROGRESS_EMIT_INTERVAL_MS = 1000;
export const PROGRESS_HEARTBEAT_MS = 2000;
/** Per-file warnings kept in a status record (see onWarning). */
const MAX_FILE_WARNINGS = 1000;

/** Records of multipart files, DESCRIBE_CONCURRENCY at a time, in their order. */
async function describeAll(uploads: readonly AddedUpload[]): Promise<StoredFile[]> {
  const files: StoredFile[] = new Array<StoredFile>(uploads.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < uploads.length) {
      const i = next++;
      files[i] = await describeUpload(uploads[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(DESCRIBE_CONCURRENCY, uploads.length) }, worker));
  return files;
}

/** Runs Assemblies: state transitions, persistence after each change, update-stream events, robot execution. */
export class AssemblyRuntime {
  private readonly live = new Map<string, LiveAssembly>();
  private closed = false;
  /** Executions and robot runs close() aborted may still write: stopped() waits for them. */
  private readonly executions = new InFlight();
  /** Template credentials by name or id, for storage robots (set by the service; none in bare tests). */
  credentials: CredentialLookup = () => null;
  /** Test-only faults (files/test-faults.ts): an upload left out of its Assembly. None unless a test turned them on. */
  faults: TestFaults = NO_FAULTS;
  /** Stored assets, for /transloadit/store and /transloadit/import (set by the service; none in bare tests). */
  assets: AssetAccess | undefined = undefined;
  /** /ai/chat's endpoint and tool-server tokens for an Assembly's Auth Key (set by the service; none in bare tests). */
  chat: ((authKey: string) => ChatAccess) | undefined = undefined;
  /** Where /http/import may connect (set by the service from its notify options; loopback and public by default). */
  network: NetworkAccess = { policy: {} };
  /** The job-slot pool every robot job runs in (the service sets its size from --job-slots). */
  slots = new JobSlots(defaultSlotCount(availableParallelism()));
  /** Bytes the steps of an Assembly may write (default: execute-steps.ts outputCap of its input); tests set small ones. */
  maxOutputBytes: number | undefined = undefined;
  /** Called after an Assembly ended and was written (the notifier looks for deliveries then). */
  onEnded: (s: AssemblyState) => void = () => undefined;

  constructor(
    private readonly db: ServiceDatabase,
    private readonly urls: ServiceUrls,
    private readonly streams: UpdateStreams,
    private readonly dataDir: string,
  ) {}

  /** Ids are 32 hex characters (routes check), and the folder is proven to be below `<data>/assemblies`. */
  assemblyDir(id: string): string {
    return resolveInside(join(this.dataDir, 'assemblies'), id);
  }

  /**
   * An Assembly still waiting for tus uploads when the service stopped waits again after a restart: the
   * bytes it has are on disk and tus clients resume from the stored offset, so a crash of the service
   * loses no upload. Call before `markCrashed`. Returns how many were taken up again.
   */
  resumeUploading(): number {
    this.recoverJournal();
    const rows = this.db.assembliesInStates(['ASSEMBLY_UPLOADING']);
    for (const row of rows) {
      const state = JSON.parse(row.data) as AssemblyState;
      if (state.error !== null || state.ok !== 'ASSEMBLY_UPLOADING') continue;
      const live = liveAssembly(state);
      this.live.set(state.id, live);
      // Uploads that had arrived but whose record was not built yet (the stop came in between).
      const described = new Set(state.uploads.map((u) => u.tusUploadUrl));
      const pending = state.tusUploads.filter((t) => t.finished && !described.has(t.upload_url));
      for (const entry of pending) {
        live.describing += 1;
        void describeUpload({ localPath: entry.localPath, name: entry.filename, field: entry.fieldname, userMeta: entry.user_meta })
          .then(
            (file) => this.tusDescribed(live, entry, file),
            (e: Error) => this.fail(live, ErrorCode.invalidInput, `The upload ${entry.filename} could not be read: ${e.message}`),
          )
          .catch(() => undefined);
      }
      if (pending.length === 0 && state.finishedTusUploads >= state.expectedTusUploads) {
        state.uploadFinishedAtMs ??= Date.now();
        this.startExecution(live);
      }
    }
    return this.live.size;
  }

  /** An Assembly that was running when the service stopped ends with ASSEMBLY_CRASHED, never silently. */
  markCrashed(nowMs: number): number {
    this.recoverJournal();
    const rows = this.db.assembliesInStates(['ASSEMBLY_UPLOADING', 'ASSEMBLY_EXECUTING']).filter((row) => !this.live.has(row.id));
    for (const row of rows) {
      const s = JSON.parse(row.data) as AssemblyState;
      s.error = ErrorCode.assemblyCrashed;
      s.message = `The local service stopped while this Assembly was ${row.state === 'ASSEMBLY_UPLOADING' ? 'uploading' : 'executing'}; it did not finish. Start a new Assembly.`;
      s.ok = null;
      if (s.executionStartMs) s.executionDurationS = (nowMs - s.executionStartMs) / 1000;
      this.queueNotification(s, nowMs);
      this.db.saveAssembly({ id: s.id, state: s.error, data: JSON.stringify(s), usage: this.usage(s, nowMs) });
    }
    return rows.length;
  }

  /**
   * Replays the journal of Assemblies whose last whole write came before a crash (assembly-journal.ts),
   * so every tus upload a client was told about is in the stored Assembly again. Idempotent.
   */
  recoverJournal(): number {
    const ids = this.db.assembliesWithEvents();
    for (const id of ids) {
      const row = this.db.getAssembly(id);
      if (!row) continue;
      const state = replayJournal(JSON.parse(row.data) as AssemblyState, this.db.assemblyEvents(id));
      this.db.saveAssembly({ id, state: row.state, data: JSON.stringify(state) });
    }
    return ids.length;
  }

  get(id: string): AssemblyState | null {
    const live = this.live.get(id);
    if (live) return live.state;
    const row = this.db.getAssembly(id);
    return row ? (JSON.parse(row.data) as AssemblyState) : null;
  }

  exists(id: string): boolean {
    return this.live.has(id) || this.db.getAssembly(id) !== null;
  }

  /** Client-chosen ids whose create request is still being received. */
  private readonly claimed = new Set<string>();

  /**
   * Claims a client-chosen id for one create request, until `release`. False when it is taken or another
   * request with it is still being received: two bodies must never fill (and discard) the same folder.
   */
  claim(id: string): boolean {
    if (this.claimed.has(id) || this.exists(id)) return false;
    this.claimed.add(id);
    return true;
  }

  release(id: string): void {
    this.claimed.delete(id);
  }

  status(state: AssemblyState): Record<string, unknown> {
    return statusRecord(this.urls, state, Date.now());
  }

  /** Stores a new Assembly; false when the id is taken. Multipart uploads are described before it is visible. */
  async create(state: AssemblyState, uploads: AddedUpload[] | { described: StoredFile[] }): Promise<boolean> {
    // An Assembly that is over when it is stored (REQUEST_ABORTED) is metered in the same write.
    const usage = isRunning(state) ? undefined : this.usage(state);
    if (!this.db.insertAssembly({ id: state.id, state: state.error ?? state.ok ?? '', data: JSON.stringify(state), summary: assemblySummary(state), usage })) return false;
    const live = liveAssembly(state);
    if (state.ok === 'REQUEST_ABORTED') return true;
    this.live.set(state.id, live);
    try {
      // A replay brings files already described (their record is kept): no need to read them again.
      const files = 'described' in uploads ? uploads.described : await describeAll(uploads);
      for (const file of files) {
        if (this.faults.takeDrop(file.name)) continue;
        state.uploads.push({ file, isTus: false, tusUploadUrl: null });
        live.uploadBytes += file.size;
      }
    } catch (e) {
      this.fail(live, ErrorCode.invalidInput, `An uploaded file could not be read: ${(e as Error).message}`);
      return true;
    }
    if (!this.checkLimits(live)) return true;
    if (state.expectedTusUploads > 0) {
      this.setOk(live, 'ASSEMBLY_UPLOADING');
    } else {
      state.uploadFinishedAtMs = Date.now();
      this.startExecution(live);
    }
    return true;
  }

  cancel(id: string): AssemblyState | null {
    const live = this.live.get(id);
    if (live) {
      live.abort.abort();
      this.live.delete(id);
      this.stopPersistTimer(live);
      live.state.ok = 'ASSEMBLY_CANCELED';
      live.state.error = null;
      live.state.message = OK_MESSAGES.ASSEMBLY_CANCELED;
      this.finishTiming(live.state);
      this.queueNotification(live.state, Date.now());
      this.persist(live.state, true);
      this.streams.finish(id, sseMessage('assembly_finished'));
      this.onEnded(live.state);
      return live.state;
    }
    const s = this.get(id);
    if (!s) return null;
    // The real service answers ASSEMBLY_CANCELED even for a finished Assembly, and keeps saying so.
    s.ok = 'ASSEMBLY_CANCELED';
    s.error = null;
    s.message = OK_MESSAGES.ASSEMBLY_CANCELED;
    delete s.errorExtra;
    this.persist(s);
    return s;
  }

  /**
   * Why a new tus upload of `uploadLength` bytes (null: deferred) may not attach to this Assembly, or null
   * when it may. A file bigger than all of auth.max_size ends the Assembly with MAX_SIZE_EXCEEDED, as
   * exceeding the limit any other way does.
   */
  tusCreateRejection(id: string, uploadLength: number | null): TusRejection | null {
    const s = this.get(id);
    const why = createRejection(id, s, this.live.has(id));
    if (why || !s) return why;
    const tooBig = sizeRejection(s, uploadLength);
    const live = this.live.get(id);
    if (tooBig && live) this.fail(live, tooBig.code, tooBig.message);
    return tooBig;
  }

  /**
   * Why a new partial upload (tus concatenation) of `uploadLength` bytes may not be made for this Assembly,
   * or null (then it is counted). A part bigger than all of auth.max_size fails the Assembly, as a file would.
   */
  tusPartialRejection(id: string, uploadLength: number): TusRejection | null {
    const s = this.get(id);
    const live = this.live.get(id);
    const why = partialCreateRejection(id, s, live !== undefined, live?.partialsCreated ?? 0);
    if (why || !s || !live) return why;
    const tooBig = sizeRejection(s, uploadLength);
    if (tooBig) {
      this.fail(live, tooBig.code, tooBig.message);
      return tooBig;
    }
    live.partialsCreated += 1;
    return null;
  }

  /** The most bytes one tus upload to this Assembly may hold, or null for no cap. */
  tusUploadSizeCap(id: string): number | null {
    return uploadSizeCap(this.get(id));
  }

  /** Why a PATCH or DELETE of one of this Assembly's tus uploads is refused, or null. */
  tusUploadRejection(id: string, uploadId: string, method: 'PATCH' | 'DELETE'): TusRejection | null {
    const live = this.live.get(id);
    if (isPartialUploadId(uploadId)) return partialUploadRejection(id, method, this.get(id), live !== undefined);
    const find = live ? (u: string) => live.tusIndex.get(u) : undefined;
    return uploadRejection(id, uploadId, method, this.get(id), live !== undefined, find);
  }

  /** The file name a tus upload of a live Assembly was created with, or null. */
  tusFilename(id: string, uploadId: string): string | null {
    return this.live.get(id)?.tusIndex.get(uploadId)?.filename ?? null;
  }

  /** A tus upload of a live Assembly that has not been marked finished (its bytes may all be in, though). */
  tusUnfinished(id: string, uploadId: string): boolean {
    const entry = this.live.get(id)?.tusIndex.get(uploadId);
    return entry !== undefined && !entry.finished;
  }

  /** Journaled before the client hears 201, so the upload is known after a crash; the whole write is coalesced. */
  tusCreated(id: string, entry: TusUploadEntry): void {
    const live = this.live.get(id);
    if (!live) return;
    this.journal(live, { kind: 'tus_created', entry });
    applyEvent(live.state, { kind: 'tus_created', entry }, (u) => live.tusIndex.get(u));
    live.tusIndex.set(entry.uploadId, entry);
    this.schedulePersist(live);
  }

  tusProgress(id: string, uploadId: string, offset: number): void {
    const live = this.live.get(id);
    const entry = live?.tusIndex.get(uploadId);
    if (live && entry) applyProgress(live.state, entry, offset);
  }

  /**
   * Called before the final tus response (journaled first: the client is told the upload is complete);
   * the record (meta) is built afterwards so the client is not held up. md5 and sha256 were computed while
   * the bytes arrived (null: read from disk).
   */
  tusFinished(id: string, uploadId: string, size: number, digest: { digests: Promise<FileDigests | null>; head: Buffer | null } | null = null): void {
    const live = this.live.get(id);
    const entry = live?.tusIndex.get(uploadId);
    if (!live || !entry || entry.finished) return;
    this.journal(live, { kind: 'tus_finished', uploadId, size });
    applyEvent(live.state, { kind: 'tus_finished', uploadId, size }, (u) => live.tusIndex.get(u));
    live.describing += 1;
    this.schedulePersist(live);
    void describeUpload({ localPath: entry.localPath, name: entry.filename, field: entry.fieldname, userMeta: entry.user_meta, size, ...digest })
      .then(
        (file) => this.tusDescribed(live, entry, file),
        (e: Error) => this.fail(live, ErrorCode.invalidInput, `The upload ${entry.filename} could not be read: ${e.message}`),
      )
      .catch(() => undefined);
  }

  private tusDescribed(live: LiveAssembly, entry: TusUploadEntry, file: StoredFile): void {
    live.describing -= 1;
    const s = live.state;
    if (this.closed || !isRunning(s) || this.live.get(s.id) !== live) return;
    if (!this.faults.takeDrop(file.name)) {
      s.uploads.push({ file, isTus: true, tusUploadUrl: entry.upload_url });
      live.uploadBytes += file.size;
      // Rebuilt from the finished tus upload after a crash (resumeUploading): no need to write at once.
      this.schedulePersist(live);
      this.streams.send(s.id, sseEvent('assembly_upload_finished', uploadRecord(this.urls, s, s.uploads.length - 1)));
      if (!this.checkLimits(live)) return;
    }
    if (s.finishedTusUploads >= s.expectedTusUploads && live.describing === 0) {
      s.uploadFinishedAtMs = Date.now();
      this.streams.send(s.id, sseMessage('assembly_uploading_finished'));
      this.startExecution(live);
    }
  }

  /** auth.max_number_of_files and auth.max_size stop the whole Assembly (spec: Limits). */
  private checkLimits(live: LiveAssembly): boolean {
    const s = live.state;
    if (s.maxNumberOfFiles !== null && s.uploads.length > s.maxNumberOfFiles) {
      this.fail(live, ErrorCode.maxFilesExceeded, `This Assembly has ${s.uploads.length} input files; auth.max_number_of_files allows ${s.maxNumberOfFiles}.`);
      return false;
    }
    const bytes = Math.max(s.bytesReceived, live.uploadBytes);
    if (s.maxSize !== null && bytes > s.maxSize) {
      this.fail(live, ErrorCode.maxSizeExceeded, `This Assembly received ${formatBytes(bytes)}; auth.max_size allows ${formatBytes(s.maxSize)}.`);
      return false;
    }
    return true;
  }

  private startExecution(live: LiveAssembly): void {
    const s = live.state;
    const now = Date.now();
    s.executionStartMs = now;
    s.executionStart = statusDate(now);
    // Ready now; execution starts when the first job gets a slot (onSlot).
    s.queuedAtMs = now;
    s.queueDurationS = null;
    s.jobsQueueDurationS = 0;
    this.setOk(live, 'ASSEMBLY_EXECUTING');
    this.streams.send(s.id, sseMessage('assembly_upload_meta_data_extracted'));
    void this.executions.track(this.execute(live));
  }

  private async execute(live: LiveAssembly): Promise<void> {
    const s = live.state;
    const workDir = join(this.assemblyDir(s.id), 'results');
    let outcome: ExecuteOutcome;
    const heartbeat = s.emitExecutionProgress ? setInterval(() => this.repeatProgress(live), PROGRESS_HEARTBEAT_MS / 4) : null;
    heartbeat?.unref();
    try {
      await mkdir(workDir, { recursive: true });
      this.slots.enter(s.id);
      outcome = await executeSteps({
        assemblyId: s.id,
        steps: s.steps,
        uploads: s.uploads.map((u) => u.file),
        fields: s.fields,
        workDir,
        signal: live.abort.signal,
        track: (run) => void this.executions.track(run),
        onResult: (step, file) => this.onResult(live, step, file),
        onProgress: (p, perFile, perStep) => this.onProgress(live, p, perFile, perStep),
        onWarning: (step, message, about) => this.onWarning(live, step, message, about),
        onProcessed: (robot, bytes) => this.onProcessed(live, robot, bytes),
        credentials: this.credentials,
        assets: this.assets,
        network: this.network,
        ...(this.chat ? { chat: this.chat(s.authKey) } : {}),
        parallelJobs: this.slots.size,
        ...(this.maxOutputBytes !== undefined ? { maxOutputBytes: this.maxOutputBytes } : {}),
        maxNumberOfFiles: s.maxNumberOfFiles,
        acquireSlot: async (job, signal) => {
          const grant = await this.slots.acquire({ assemblyId: s.id, ...job }, signal);
          this.onSlot(live, grant.waitedMs);
          return grant.release;
        },
      });
    } catch (e) {
      outcome = { ok: false, code: 'INTERNAL_COMMAND_ERROR', message: `Processing failed: ${(e as Error).message}` };
    } finally {
      if (heartbeat) clearInterval(heartbeat);
      this.slots.leave(s.id);
    }
    if (this.closed || this.live.get(s.id) !== live || !isRunning(s)) return;
    if (!outcome.ok) {
      const { ok: _ok, code: _code, message: _message, ...where } = outcome;
      const extra = Object.fromEntries(Object.entries(where).filter(([, v]) => v !== undefined && v !== ''));
      this.fail(live, outcome.code, outcome.message, Object.keys(extra).length > 0 ? extra : undefined);
      return;
    }
    s.progressCombined = 100;
    this.dropTrailingProgress(live);
    if (s.emitExecutionProgress) this.streams.send(s.id, sseEvent('assembly_execution_progress', executionProgressData(100, [], allStepsDone(live.lastPerStep))));
    this.finishTiming(s);
    this.live.delete(s.id);
    // Queued in the same write as the end state: a stop right after still delivers on the next start.
    this.queueNotification(s, Date.now());
    this.setOk(live, 'ASSEMBLY_COMPLETED', true);
    this.streams.finish(s.id, sseMessage('assembly_finished'));
    this.onEnded(s);
  }

  /** A job of the Assembly got a slot: the first one ends its time in the queue and starts its execution. */
  private onSlot(live: LiveAssembly, waitedMs: number): void {
    const s = live.state;
    if (this.closed || this.live.get(s.id) !== live) return;
    s.jobsQueueDurationS = (s.jobsQueueDurationS ?? 0) + waitedMs / 1000;
    if (s.queueDurationS !== null && s.queueDurationS !== undefined) return;
    const now = Date.now();
    s.queueDurationS = s.queuedAtMs ? (now - s.queuedAtMs) / 1000 : 0;
    s.executionStartMs = now;
    s.executionStart = statusDate(now);
    this.schedulePersist(live);
  }

  private onResult(live: LiveAssembly, step: string, file: StoredFile): void {
    const s = live.state;
    if (this.closed || this.live.get(s.id) !== live) return;
    (s.results[step] ??= []).push(file);
    // An Assembly caught executing by a crash ends ASSEMBLY_CRASHED: results need no immediate write.
    this.schedulePersist(live);
    this.streams.send(s.id, sseEvent('assembly_result_finished', [step, publicFileRecord(this.urls, 'results', s.id, file)]));
  }

  /**
   * A file a step skipped (or an error it ignored) goes into the status's `warnings`, as the real service
   * reports them (`{level, msg}`), with where: the step, the upload it came from and the reason alone,
   * so a client can say it at the file. Past MAX_FILE_WARNINGS only a count is kept.
   */
  private onWarning(live: LiveAssembly, step: string, message: string, about?: WarningAbout): void {
    const s = live.state;
    if (this.closed || this.live.get(s.id) !== live) return;
    const files = about?.files ?? [];
    for (const file of files.length > 0 ? files : [null]) {
      if (s.warnings.length >= MAX_FILE_WARNINGS) {
        // One line says the list stops here; a batch of 10,000 unsuitable files must not bloat the status.
        if (s.warnings.length === MAX_FILE_WARNINGS) s.warnings.push({ level: 'warning', msg: `More files were skipped or had errors; only the first ${MAX_FILE_WARNINGS} are listed.` });
        break;
      }
      s.warnings.push({
        level: about?.level ?? 'warning',
        msg: files.length > 1 && file ? `${message} ("${file.original_name ?? file.name}")` : message,
        step,
        ...(file && about ? { original_id: file.original_id, name: file.original_name ?? file.name, code: about.code, reason: about.reason } : {}),
      });
    }
    this.schedulePersist(live);
  }

  /** Real progress from the robots (steps done, ffmpeg's encoded time, files done), sent at most every PROGRESS_EMIT_INTERVAL_MS. */
  private onProgress(live: LiveAssembly, progress: number, perFile: () => OriginalProgress[], perStep: StepProgress[]): void {
    const s = live.state;
    const combined = (s.progressCombined = Math.max(0, Math.min(100, progress)));
    if (!s.emitExecutionProgress) return;
    const steps = executionProgressData(combined, [], perStep).progress_per_step;
    live.lastPerStep = steps;
    // The per-upload list (O(uploads)) only for an event that is sent: one a second, not one per file.
    const data = (): ExecutionProgressData => executionProgressData(combined, perFile(), steps);
    const wait = live.lastProgressEmitMs + PROGRESS_EMIT_INTERVAL_MS - Date.now();
    if (wait <= 0) return this.sendProgress(live, data());
    // Held back, not dropped: a step that ended just after an event would otherwise show unfinished
    // for as long as the next step runs without reporting.
    if (live.trailingProgress) live.trailingProgress.data = data;
    else {
      const timer = setTimeout(() => {
        const held = live.trailingProgress;
        live.trailingProgress = null;
        if (held && !this.closed && this.live.get(s.id) === live && isRunning(s)) this.sendProgress(live, held.data());
      }, wait);
      timer.unref();
      live.trailingProgress = { timer, data };
    }
  }

  /** The last progress again when none was sent for PROGRESS_HEARTBEAT_MS while the Assembly executes. */
  private repeatProgress(live: LiveAssembly): void {
    if (this.closed || this.live.get(live.state.id) !== live || !isRunning(live.state) || live.trailingProgress) return;
    if (live.lastProgress && Date.now() - live.lastProgressEmitMs >= PROGRESS_HEARTBEAT_MS) this.sendProgress(live, live.lastProgress);
  }

  private sendProgress(live: LiveAssembly, data: ExecutionProgressData): void {
    this.dropTrailingProgress(live);
    live.lastProgressEmitMs = Date.now();
    live.lastProgress = data;
    this.streams.send(live.state.id, sseEvent('assembly_execution_progress', data));
  }

  private dropTrailingProgress(live: LiveAssembly): void {
    if (live.trailingProgress) clearTimeout(live.trailingProgress.timer);
    live.trailingProgress = null;
  }

  private fail(live: LiveAssembly, code: string, message: string, extra?: Record<string, unknown>): void {
    const s = live.state;
    if (this.closed || !isRunning(s)) return;
    live.abort.abort();
    this.live.delete(s.id);
    this.stopPersistTimer(live);
    s.ok = null;
    s.error = code;
    s.message = message;
    if (extra) s.errorExtra = extra;
    this.finishTiming(s);
    this.queueNotification(s, Date.now());
    this.persist(s, true);
    this.streams.finish(s.id, sseEvent('assembly_error', this.status(s)));
    this.onEnded(s);
  }

  /** The end-of-Assembly notification, due now, when the Assembly has a notify_url. */
  private queueNotification(s: AssemblyState, nowMs: number): void {
    if (s.notifyUrl) queueDelivery(s, s.notifyUrl, false, nowMs);
  }

  /**
   * Changes a stored Assembly (notification bookkeeping after it ended) and writes it at once. Synchronous
   * read-change-write, so two changes never interleave.
   */
  update(id: string, change: (s: AssemblyState) => void): AssemblyState | null {
    const s = this.live.get(id)?.state ?? this.get(id);
    if (!s) return null;
    change(s);
    this.persist(s);
    return s;
  }

  private setOk(live: LiveAssembly, ok: string, ended = false): void {
    live.state.ok = ok;
    live.state.message = okMessage(ok);
    this.stopPersistTimer(live);
    this.persist(live.state, ended);
  }

  /** Metering: a robot ran a job on `bytes` of input (kept in the state, so a crash keeps what was counted). */
  private onProcessed(live: LiveAssembly, robot: string, bytes: number): void {
    const s = live.state;
    if (this.closed || this.live.get(s.id) !== live) return;
    const counts = (s.robotBytes ??= {});
    counts[robot] = (counts[robot] ?? 0) + bytes;
    this.schedulePersist(live);
  }

  /**
   * The usage row of an Assembly that has just ended (usage/usage-record.ts), with the durations its status
   * record shows (only those: a whole record of a 1,000-file Assembly is 2,000 file records).
   */
  private usage(s: AssemblyState, nowMs = Date.now()): UsageRecord {
    return usageOf(s, statusDurations(s, nowMs), nowMs, LOCAL_REGION);
  }

  private journal(live: LiveAssembly, event: AssemblyEvent): void {
    if (!this.closed) this.db.appendAssemblyEvent(live.state.id, JSON.stringify(event));
  }

  /** Writes the whole Assembly soon (persistDelay), once for however many changes came meanwhile. */
  private schedulePersist(live: LiveAssembly): void {
    if (live.persistTimer || this.closed) return;
    live.persistTimer = setTimeout(() => {
      live.persistTimer = null;
      // Ended meanwhile: its end state was written then, and must not be overwritten by this one.
      if (this.live.get(live.state.id) !== live) return;
      const start = performance.now();
      this.persist(live.state);
      live.lastPersistMs = performance.now() - start;
    }, persistDelay(live.lastPersistMs));
  }

  private stopPersistTimer(live: LiveAssembly): void {
    if (live.persistTimer) clearTimeout(live.persistTimer);
    live.persistTimer = null;
  }

  private finishTiming(s: AssemblyState): void {
    // One clock reading: a second one could tick a millisecond on and give an Assembly that never ran an execution time.
    const now = Date.now();
    // Ended before any job got a slot (canceled while waiting, or no job to run): all its time was queue time.
    if (s.queuedAtMs && (s.queueDurationS === null || s.queueDurationS === undefined)) {
      s.queueDurationS = (now - s.queuedAtMs) / 1000;
      s.executionStartMs = now;
      s.executionStart = statusDate(now);
    }
    if (s.executionStartMs && s.executionDurationS === null) s.executionDurationS = (now - s.executionStartMs) / 1000;
  }

  /** `ended`: this write ends the Assembly, and carries its usage row (written once, in the same transaction). */
  private persist(s: AssemblyState, ended = false): void {
    if (this.closed) return;
    this.db.saveAssembly({ id: s.id, state: s.error ?? s.ok ?? '', data: JSON.stringify(s), summary: assemblySummary(s), ...(ended ? { usage: this.usage(s) } : {}) });
  }

  /** Assemblies running robots now: a restart would end each with ASSEMBLY_CRASHED (the app waits for 0). */
  executingCount(): number {
    let n = 0;
    for (const live of this.live.values()) if (live.state.error === null && (live.state.ok === 'ASSEMBLY_EXECUTING' || live.state.ok === 'ASSEMBLY_REPLAYING')) n += 1;
    return n;
  }

  /** Stops executions; Assemblies still running stay so in the database and are marked crashed on next start. */
  close(): void {
    for (const live of this.live.values()) {
      live.abort.abort();
      // A clean stop writes what was coalesced; a crash leaves it to the journal.
      if (live.persistTimer) this.persist(live.state);
      this.stopPersistTimer(live);
    }
    this.closed = true;
    this.live.clear();
  }

  /** After close(): resolves once every aborted execution has ended (false if some outlived `limitMs`). */
  stopped(limitMs: number): Promise<boolean> {
    return this.executions.settled(limitMs);
  }

  /** Finds a stored upload or result by id, for serving its bytes. */
  findFile(assemblyId: string, fileId: string): StoredFile | null {
    const s = this.get(assemblyId);
    if (!s) return null;
    const up = s.uploads.find((u) => u.file.id === fileId);
    if (up) return up.file;
    for (const files of Object.values(s.results)) {
      const hit = files.find((f) => f.id === fileId);
      if (hit) return hit;
    }
    return null;
  }
}
