import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { resolveInside } from '../files/inside-dir';
import { executeSteps, type ExecuteOutcome } from '../robots/execute-steps';
import { describeUpload, type StoredFile } from '../robots/file-record';
import { ErrorCode } from '../../shared/api/codes';
import type { CredentialLookup } from '../robots/robot-types';
import type { ServiceDatabase } from '../store/database';
import { createRejection, sizeRejection, uploadRejection, uploadSizeCap, type TusRejection } from '../tus/tus-acceptance';
import { sseEvent, sseMessage, type UpdateStreams } from '../realtime/update-stream';
import { OK_MESSAGES, isRunning, okMessage, statusDate, type AssemblyState, type TusUploadEntry } from './assembly-state';
import { publicFileRecord, statusRecord, uploadRecord, type ServiceUrls } from './status-record';

interface LiveAssembly {
  state: AssemblyState;
  abort: AbortController;
  /** tus uploads finished but whose record (meta, md5) is still being built. */
  describing: number;
  lastProgressEmitMs: number;
}

export interface AddedUpload {
  localPath: string;
  name: string;
  field: string | null;
  userMeta?: Record<string, unknown>;
  id?: string;
}

const PROGRESS_EMIT_INTERVAL_MS = 500;

/** Runs Assemblies: state transitions, persistence after each change, update-stream events, robot execution. */
export class AssemblyRuntime {
  private readonly live = new Map<string, LiveAssembly>();
  private closed = false;
  /** Template credentials by name or id, for storage robots (set by the service; none in bare tests). */
  credentials: CredentialLookup = () => null;

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

  /** An Assembly that was running when the service stopped ends with ASSEMBLY_CRASHED, never silently. */
  markCrashed(nowMs: number): number {
    const rows = this.db.assembliesInStates(['ASSEMBLY_UPLOADING', 'ASSEMBLY_EXECUTING']);
    for (const row of rows) {
      const s = JSON.parse(row.data) as AssemblyState;
      s.error = ErrorCode.assemblyCrashed;
      s.message = `The local service stopped while this Assembly was ${row.state === 'ASSEMBLY_UPLOADING' ? 'uploading' : 'executing'}; it did not finish. Start a new Assembly.`;
      s.ok = null;
      if (s.executionStartMs) s.executionDurationS = (nowMs - s.executionStartMs) / 1000;
      this.db.saveAssembly({ id: s.id, state: s.error, data: JSON.stringify(s) });
    }
    return rows.length;
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

  status(state: AssemblyState): Record<string, unknown> {
    return statusRecord(this.urls, state, Date.now());
  }

  /** Stores a new Assembly; false when the id is taken. Multipart uploads are described before it is visible. */
  async create(state: AssemblyState, uploads: AddedUpload[]): Promise<boolean> {
    if (!this.db.insertAssembly({ id: state.id, state: state.error ?? state.ok ?? '', data: JSON.stringify(state) })) return false;
    const live: LiveAssembly = { state, abort: new AbortController(), describing: 0, lastProgressEmitMs: 0 };
    if (state.ok === 'REQUEST_ABORTED') return true;
    this.live.set(state.id, live);
    try {
      for (const u of uploads) {
        const file = await describeUpload(u);
        state.uploads.push({ file, isTus: false, tusUploadUrl: null });
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
      live.state.ok = 'ASSEMBLY_CANCELED';
      live.state.error = null;
      live.state.message = OK_MESSAGES.ASSEMBLY_CANCELED;
      this.finishTiming(live.state);
      this.persist(live.state);
      this.streams.finish(id, sseMessage('assembly_finished'));
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

  /** The most bytes one tus upload to this Assembly may hold, or null for no cap. */
  tusUploadSizeCap(id: string): number | null {
    return uploadSizeCap(this.get(id));
  }

  /** Why a PATCH or DELETE of one of this Assembly's tus uploads is refused, or null. */
  tusUploadRejection(id: string, uploadId: string, method: 'PATCH' | 'DELETE'): TusRejection | null {
    return uploadRejection(id, uploadId, method, this.get(id), this.live.has(id));
  }

  tusCreated(id: string, entry: TusUploadEntry): void {
    const live = this.live.get(id);
    if (!live) return;
    live.state.tusUploads.push(entry);
    live.state.startedTusUploads += 1;
    live.state.bytesExpected += entry.size;
    this.persist(live.state);
  }

  tusProgress(id: string, uploadId: string, offset: number): void {
    const live = this.live.get(id);
    const entry = live?.state.tusUploads.find((t) => t.uploadId === uploadId);
    if (!live || !entry || offset <= entry.offset) return;
    live.state.bytesReceived += offset - entry.offset;
    entry.offset = offset;
  }

  /** Called before the final tus response; the record (md5, meta) is built afterwards so the client is not held up. */
  tusFinished(id: string, uploadId: string, size: number): void {
    const live = this.live.get(id);
    const entry = live?.state.tusUploads.find((t) => t.uploadId === uploadId);
    if (!live || !entry || entry.finished) return;
    this.tusProgress(id, uploadId, size);
    entry.finished = true;
    entry.size = size;
    live.state.finishedTusUploads += 1;
    live.describing += 1;
    this.persist(live.state);
    void describeUpload({ localPath: entry.localPath, name: entry.filename, field: entry.fieldname, userMeta: entry.user_meta })
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
    s.uploads.push({ file, isTus: true, tusUploadUrl: entry.upload_url });
    this.persist(s);
    this.streams.send(s.id, sseEvent('assembly_upload_finished', uploadRecord(this.urls, s, s.uploads.length - 1)));
    if (!this.checkLimits(live)) return;
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
    const bytes = Math.max(s.bytesReceived, s.uploads.reduce((n, u) => n + u.file.size, 0));
    if (s.maxSize !== null && bytes > s.maxSize) {
      this.fail(live, ErrorCode.maxSizeExceeded, `This Assembly received ${bytes} bytes; auth.max_size allows ${s.maxSize}.`);
      return false;
    }
    return true;
  }

  private startExecution(live: LiveAssembly): void {
    const s = live.state;
    const now = Date.now();
    s.executionStartMs = now;
    s.executionStart = statusDate(now);
    this.setOk(live, 'ASSEMBLY_EXECUTING');
    this.streams.send(s.id, sseMessage('assembly_upload_meta_data_extracted'));
    void this.execute(live);
  }

  private async execute(live: LiveAssembly): Promise<void> {
    const s = live.state;
    const workDir = join(this.assemblyDir(s.id), 'results');
    let outcome: ExecuteOutcome;
    try {
      await mkdir(workDir, { recursive: true });
      outcome = await executeSteps({
        assemblyId: s.id,
        steps: s.steps,
        uploads: s.uploads.map((u) => u.file),
        fields: s.fields,
        workDir,
        signal: live.abort.signal,
        onResult: (step, file) => this.onResult(live, step, file),
        onProgress: (p) => this.onProgress(live, p),
        credentials: this.credentials,
      });
    } catch (e) {
      outcome = { ok: false, code: 'INTERNAL_COMMAND_ERROR', message: `Processing failed: ${(e as Error).message}` };
    }
    if (this.closed || this.live.get(s.id) !== live || !isRunning(s)) return;
    if (!outcome.ok) {
      this.fail(live, outcome.code, outcome.message, outcome.step ? { step: outcome.step } : undefined);
      return;
    }
    s.progressCombined = 100;
    if (s.emitExecutionProgress) this.streams.send(s.id, sseEvent('assembly_execution_progress', { progress_combined: 100, progress_per_original_file: [] }));
    this.finishTiming(s);
    this.live.delete(s.id);
    this.setOk(live, 'ASSEMBLY_COMPLETED');
    this.streams.finish(s.id, sseMessage('assembly_finished'));
  }

  private onResult(live: LiveAssembly, step: string, file: StoredFile): void {
    const s = live.state;
    if (this.closed || this.live.get(s.id) !== live) return;
    (s.results[step] ??= []).push(file);
    this.persist(s);
    this.streams.send(s.id, sseEvent('assembly_result_finished', [step, publicFileRecord(this.urls, 'results', s.id, file)]));
  }

  private onProgress(live: LiveAssembly, progress: number): void {
    const s = live.state;
    s.progressCombined = Math.max(0, Math.min(100, progress));
    const now = Date.now();
    if (!s.emitExecutionProgress || now - live.lastProgressEmitMs < PROGRESS_EMIT_INTERVAL_MS) return;
    live.lastProgressEmitMs = now;
    this.streams.send(s.id, sseEvent('assembly_execution_progress', { progress_combined: s.progressCombined, progress_per_original_file: [] }));
  }

  private fail(live: LiveAssembly, code: string, message: string, extra?: Record<string, unknown>): void {
    const s = live.state;
    if (this.closed || !isRunning(s)) return;
    live.abort.abort();
    this.live.delete(s.id);
    s.ok = null;
    s.error = code;
    s.message = message;
    if (extra) s.errorExtra = extra;
    this.finishTiming(s);
    this.persist(s);
    this.streams.finish(s.id, sseEvent('assembly_error', this.status(s)));
  }

  private setOk(live: LiveAssembly, ok: string): void {
    live.state.ok = ok;
    live.state.message = okMessage(ok);
    this.persist(live.state);
  }

  private finishTiming(s: AssemblyState): void {
    if (s.executionStartMs && s.executionDurationS === null) s.executionDurationS = (Date.now() - s.executionStartMs) / 1000;
  }

  private persist(s: AssemblyState): void {
    if (this.closed) return;
    this.db.saveAssembly({ id: s.id, state: s.error ?? s.ok ?? '', data: JSON.stringify(s) });
  }

  /** Stops executions; Assemblies still running stay so in the database and are marked crashed on next start. */
  close(): void {
    this.closed = true;
    for (const live of this.live.values()) live.abort.abort();
    this.live.clear();
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
