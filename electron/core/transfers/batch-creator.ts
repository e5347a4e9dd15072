import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import type { Instructions } from '../../../shared/api/instructions';
import { AppErrorCode, type AppError, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import { digestOf, feed, newCursor, readRange, type HashCursor } from './hashing-reader';
import { readSmallFile } from './small-file-read';
import type { Excluded, FailureKind, FileRec } from './transfer-model';
import { assemblyIdOf, MARKER_FIELD } from './transfer-model';
import type { LedgerEntry } from './transfer-store';
import type { TokenBucket } from './token-bucket';
import { BATCH_EMPTY } from './transfer-state';

export interface CreateBatchJob {
  api: ApiClient;
  instructions: Instructions;
  batchId: string;
  generation: number;
  /** The id attempt to start from (`assemblyIdOf`): the ones below are known spent. */
  idAttempt: number;
  /** POST /assemblies/{id}; false once the deployment showed it has no such endpoint (then: marker only). */
  useIds: boolean;
  marker: string;
  multipart: FileRec[];
  tus: FileRec[];
  /** An earlier request may have created this Assembly (its answer was lost): look it up (id, marker) first. */
  lookFirst: boolean;
  /** "Skip unchanged": a verified upload of the same path, if any. */
  ledger(path: string): LedgerEntry | null;
  bucket: TokenBucket | null;
  /** A multipart file's bytes read into the request so far (from 0 again when the request is sent again). */
  onFileBytes(fileId: string, sent: number): void;
  /** Aborted when the queue abandons this request (paused, or a file of it canceled): the upload stops. */
  signal?: AbortSignal;
}

/** Where the id walk ended (the next create starts there), and whether ids turned out unsupported. */
interface IdProgress {
  idAttempt: number;
  idsUnsupported?: boolean;
}

export type CreateBatchOutcome =
  | ({
      ok: true;
      status: AssemblyStatus;
      excluded: Excluded[];
      tus: string[];
      delivered: Array<{ fileId: string; md5: string; serviceMd5: string | null }>;
    } & IdProgress)
  | ({ ok: false; error: AppError; failure: FailureKind; retryInMs?: number; ambiguous: boolean; excluded: Excluded[] } & IdProgress);

/** Requests (lookups and creates) one createBatchAssembly call makes at most on the id path. */
export const MAX_ID_STEPS = 8;
const DO_NOT_REUSE = 'DO_NOT_REUSE_ASSEMBLY_IDS';
/** Ours: the batch's Assembly exists but its create request is still arriving (batch-creator.ts `stillArriving`). */
const STILL_ARRIVING = 'ASSEMBLY_REQUEST_ARRIVING';

/**
 * A deployment without "Create Assembly With Id" answers POST /assemblies/{id} as an unknown route (HTTP 404,
 * `SERVER_404`, with or without a JSON body); a 404 carrying a code of its own (TEMPLATE_NOT_FOUND…) is an
 * answer about the request, not about the endpoint. Pure.
 */
export function idsUnsupportedBy(error: AppError): boolean {
  return error.httpCode === 404 && error.code === 'SERVER_404';
}

const fieldOf = (index: number) => `file_${index}`;

/** Multipart files up to this size are read whole by the check before the request and sent from memory. */
export const HELD_FILE_BYTES = 64 * 1024;
/** At most this much of one batch is held so. */
const HELD_BATCH_BYTES = 16 * 1024 * 1024;

const changedSince = (f: FileRec, now: number): string => `Changed since it was added (${f.size} bytes then, ${now} now). Add it again to send it.`;

/**
 * Can the file still be opened, with the size it had when it was added? Null when it can. With `hold`, the
 * bytes of a file that can, read in the same open (readSmallFile: open, read, close) instead of a check and
 * a stream.
 */
async function unreadable(f: FileRec, hold?: (bytes: Buffer) => void): Promise<string | null> {
  try {
    if (hold) {
      const read = await readSmallFile(f.path, f.size);
      if (!read.ok) return changedSince(f, read.sizeNow);
      hold(read.bytes);
      return null;
    }
    const handle = await open(f.path, 'r');
    try {
      const st = await handle.stat();
      return st.size === f.size ? null : changedSince(f, st.size);
    } finally {
      await handle.close();
    }
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'it no longer exists' : code === 'EACCES' || code === 'EPERM' ? 'permission denied' : (cause as Error).message;
    return `Could not be read: ${why} (${code ?? 'error'}).`;
  }
}

async function md5OfFile(path: string): Promise<string> {
  const hash = createHash('md5');
  for await (const chunk of createReadStream(path, { highWaterMark: 1024 * 1024 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The files left out before the request: unreadable (failed, with the reason) or unchanged (skipped); and
 * the bytes of the small multipart files, read in the same pass (HELD_FILE_BYTES, HELD_BATCH_BYTES).
 */
async function precheck(job: CreateBatchJob): Promise<{ excluded: Excluded[]; held: Map<string, Buffer> }> {
  const all = [...job.multipart, ...job.tus];
  const multipart = new Set(job.multipart.map((f) => f.id));
  const excluded: Excluded[] = [];
  const held = new Map<string, Buffer>();
  let heldBytes = 0;
  const LIMIT = 32;
  for (let i = 0; i < all.length; i += LIMIT) {
    await Promise.all(
      all.slice(i, i + LIMIT).map(async (f) => {
        const hold = multipart.has(f.id) && f.size <= HELD_FILE_BYTES && heldBytes + f.size <= HELD_BATCH_BYTES;
        if (hold) heldBytes += f.size;
        const reason = await unreadable(f, hold ? (bytes) => held.set(f.id, bytes) : undefined);
        if (reason) return void excluded.push({ fileId: f.id, state: 'failed', reason });
        if (!f.unchangedCandidate) return;
        const before = job.ledger(f.path);
        if (!before || before.size !== f.size) return;
        const bytes = held.get(f.id);
        const md5 = bytes ? createHash('md5').update(bytes).digest('hex') : await md5OfFile(f.path).catch(() => null);
        if (md5 === before.md5) excluded.push({ fileId: f.id, state: 'skipped', reason: 'Unchanged since it was uploaded before (same path, size and content).' });
      }),
    );
  }
  return { excluded, held };
}

const uploadIdOf = (url: string): string => url.replace(/[?#].*$/, '').replace(/\/+$/, '').split('/').pop() ?? url;

/** Match the status's uploads to the request's multipart parts by field name. */
function serviceMd5ByField(status: AssemblyStatus): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const u of status.uploads ?? []) if (u.field && !u.is_tus_file) out.set(u.field, u.md5hash ?? null);
  return out;
}

/** The service's md5 of each tus upload, by upload id (the last segment of its URL). */
export function serviceMd5ByUploadId(status: AssemblyStatus): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (const u of status.uploads ?? []) if (u.tus_upload_url) out.set(uploadIdOf(u.tus_upload_url), u.md5hash ?? null);
  return out;
}
export { uploadIdOf };

/**
 * Look for an Assembly carrying the batch's marker (a create whose answer was lost). A request cut off
 * mid-body also leaves one, in REQUEST_ABORTED with none of the files: that is not the batch's Assembly.
 */
/** The Assembly created under a client-chosen id, or null when there is none (yet). Unsigned GET (the spec's). */
async function findById(api: ApiClient, id: string): Promise<Result<AssemblyStatus | null>> {
  const status = await api.getAssembly(`${api.endpoint}/assemblies/${id}`);
  if (status.ok) return status;
  if (status.error.code === 'ASSEMBLY_NOT_FOUND' || status.error.httpCode === 404) return { ok: true, value: null };
  return status;
}

/**
 * An Assembly still receiving the create request that made it: uploading, and not every multipart part
 * (`file_0…`) listed yet. One waiting only for tus uploads has them all. Pure.
 */
export function stillArriving(status: AssemblyStatus, multipartParts: number): boolean {
  if (status.ok !== 'ASSEMBLY_UPLOADING' || status.error) return false;
  const fields = serviceMd5ByField(status);
  return Array.from({ length: multipartParts }, (_, i) => fieldOf(i)).some((field) => !fields.has(field));
}

async function findByMarker(api: ApiClient, marker: string): Promise<Result<AssemblyStatus | null>> {
  const list = await api.request('GET', '/assemblies', { keywords: [marker], pagesize: 5, type: 'all' });
  if (!list.ok) return list;
  const items = Array.isArray(list.value.items) ? (list.value.items as Array<{ id?: unknown }>) : [];
  for (const item of items) {
    if (typeof item.id !== 'string') continue;
    const status = await api.getAssembly(`${api.endpoint}/assemblies/${encodeURIComponent(item.id)}`);
    if (!status.ok) return status;
    if (status.value.ok !== 'REQUEST_ABORTED') return { ok: true, value: status.value };
  }
  return { ok: true, value: null };
}

export function classifyApiError(error: AppError): { failure: FailureKind; retryInMs?: number; ambiguous: boolean } {
  if (error.code === 'RATE_LIMIT_REACHED') {
    const retryIn = (error.details?.info as { retryIn?: unknown } | undefined)?.retryIn;
    return { failure: 'rate-limit', ...(typeof retryIn === 'number' ? { retryInMs: retryIn * 1000 } : {}), ambiguous: false };
  }
  // No answer at all: the request may have reached the service and created the Assembly.
  if (error.code === AppErrorCode.network || error.code === 'LOCAL_SERVICE_UNAVAILABLE') return { failure: 'transient', ambiguous: error.code === AppErrorCode.network };
  const http = error.httpCode ?? 0;
  if (http === 429) return { failure: 'transient', ambiguous: false };
  if (http >= 500 || error.code.startsWith('SERVER_5')) return { failure: 'transient', ambiguous: true };
  return { failure: 'fatal', ambiguous: false };
}

function delivered(status: AssemblyStatus, cursors: HashCursor[], multipart: FileRec[]) {
  const byField = serviceMd5ByField(status);
  return multipart.map((f, i) => ({ fileId: f.id, md5: digestOf(cursors[i]!, f.size) ?? '', serviceMd5: byField.get(fieldOf(i)) ?? null }));
}

/**
 * Create a batch's Assembly: files checked first (unreadable → failed, unchanged → skipped, both left out);
 * the small ones streamed in the POST itself, each hashed on the way; the rest announced for tus.
 *
 * At most once per batch generation: the POST goes to `/assemblies/<assemblyIdOf(batch, generation, n)>`,
 * and the service creates one Assembly per id. After a lost answer (`lookFirst`) the id is looked up first:
 * found → adopted; REQUEST_ABORTED (a cut request) → that id is spent, the next one is looked up; none →
 * created under that same id, so a late copy of the lost request is refused (DO_NOT_REUSE_ASSEMBLY_IDS), or,
 * arriving first, makes ours refused and is adopted. The marker in `fields` stays: it finds an Assembly
 * created without an id (an older app) and is the whole lookup where the deployment has no id endpoint.
 */
export async function createBatchAssembly(job: CreateBatchJob): Promise<CreateBatchOutcome> {
  const { excluded, held } = await precheck(job);
  const out = new Set(excluded.map((x) => x.fileId));
  const multipart = job.multipart.filter((f) => !out.has(f.id));
  const tus = job.tus.filter((f) => !out.has(f.id));
  let attempt = job.idAttempt;
  let idsUnsupported = false;
  const progress = (): IdProgress => ({ idAttempt: attempt, ...(idsUnsupported ? { idsUnsupported } : {}) });
  const failed = (error: AppError, ambiguous?: boolean): CreateBatchOutcome => {
    const kind = classifyApiError(error);
    return { ok: false, error, ...kind, ambiguous: ambiguous ?? kind.ambiguous, excluded, ...progress() };
  };
  /** Nothing wrong with the request: the queue backs off and looks again. */
  const later = (code: string, message: string): CreateBatchOutcome => ({ ok: false, error: { code, message }, failure: 'transient', ambiguous: true, excluded, ...progress() });
  if (multipart.length + tus.length === 0) {
    return { ok: false, error: { code: BATCH_EMPTY, message: 'No file of this batch is left to send.' }, failure: 'fatal', ambiguous: false, excluded, ...progress() };
  }
  const adopt = async (status: AssemblyStatus): Promise<CreateBatchOutcome> => {
    // Created by the request whose answer was lost: its multipart files arrived with it (the service
    // computed their md5; ours is computed again from disk, once).
    const cursors = multipart.map(() => newCursor());
    await Promise.all(multipart.map((f, i) => drain(readRange(f.path, 0, f.size, cursors[i]!, null))));
    return { ok: true, status, excluded, tus: tus.map((f) => f.id), delivered: delivered(status, cursors, multipart), ...progress() };
  };
  const adoptOrWait = (status: AssemblyStatus): Promise<CreateBatchOutcome> | CreateBatchOutcome =>
    // The lost request is still being received (the app was closed after its last byte left): its parts are
    // not all recorded yet, and adopting now would leave them unverified for good. Look again shortly.
    stillArriving(status, multipart.length)
      ? later(STILL_ARRIVING, 'An earlier request for this batch is still being received by the service; looking again shortly.')
      : adopt(status);
  let cursors: HashCursor[] = [];
  const post = (assemblyId: string | undefined) =>
    job.api.createAssembly({
      instructions: job.instructions,
      expectedUploads: tus.length,
      fields: { [MARKER_FIELD]: job.marker },
      retries: 0,
      ...(assemblyId ? { assemblyId } : {}),
      streamFiles: multipart.map((f, i) => ({
        field: fieldOf(i),
        name: f.name,
        mime: f.mime,
        ...(held.has(f.id)
          ? {
              read: async () => {
                if (i === 0) cursors = multipart.map(() => newCursor());
                if (job.signal?.aborted) throw new Error('The queue stopped this request.');
                const bytes = held.get(f.id)!;
                if (job.bucket) await job.bucket.take(bytes.length);
                feed(cursors[i]!, bytes, 0);
                job.onFileBytes(f.id, bytes.length);
                return bytes;
              },
            }
          : {}),
        open: () => {
          // Each attempt of the request reads (and hashes) the file again from its start.
          if (i === 0) cursors = multipart.map(() => newCursor());
          let sent = 0;
          job.onFileBytes(f.id, 0);
          const stream = readRange(f.path, 0, f.size, cursors[i]!, job.bucket, (bytes) => job.onFileBytes(f.id, (sent += bytes)));
          // A failing body ends the request: fetch stops sending and answers with an error.
          const stop = () => stream.destroy(new Error('The queue stopped this request.'));
          if (job.signal?.aborted) stop();
          job.signal?.addEventListener('abort', stop, { once: true });
          stream.once('close', () => job.signal?.removeEventListener('abort', stop));
          return stream;
        },
      })),
    });
  const createdWith = (status: AssemblyStatus): CreateBatchOutcome => ({ ok: true, status, excluded, tus: tus.map((f) => f.id), delivered: delivered(status, cursors, multipart), ...progress() });

  let lookFirst = job.lookFirst;
  let markerChecked = false;
  if (job.useIds) {
    let refused: string | null = null;
    for (let step = 0; step < MAX_ID_STEPS; step++) {
      const id = assemblyIdOf(job.batchId, job.generation, attempt);
      if (lookFirst) {
        const found = await findById(job.api, id);
        if (!found.ok) return failed(found.error, true);
        if (found.value?.ok === 'REQUEST_ABORTED') {
          // A request cut mid-body holds this id (with none of the files): it is spent, the next one may be in use.
          attempt++;
          continue;
        }
        if (found.value) return adoptOrWait(found.value);
        if (refused === id) {
          // Refused, yet not there: a copy of this request is still being received. Look again after a backoff.
          return later(DO_NOT_REUSE, 'An earlier request for this batch is still reaching the service; looking again shortly.');
        }
        if (!markerChecked) {
          // A request sent without an id (an older app, or a deployment without ids) carries only the marker.
          markerChecked = true;
          const byMarker = await findByMarker(job.api, job.marker);
          if (!byMarker.ok && classifyApiError(byMarker.error).failure !== 'fatal') return failed(byMarker.error, true);
          if (byMarker.ok && byMarker.value) return adoptOrWait(byMarker.value);
        }
      }
      const created = await post(id);
      if (created.ok) return createdWith(created.value);
      if (idsUnsupportedBy(created.error)) {
        idsUnsupported = true;
        break;
      }
      if (created.error.code !== DO_NOT_REUSE) return failed(created.error);
      // The id is taken: by a copy of our request that arrived first (adopt it) or by a cut one (spent).
      refused = id;
      lookFirst = true;
    }
    if (!idsUnsupported) {
      return later('ASSEMBLY_ID_UNSETTLED', `Could not settle this batch's Assembly id in ${MAX_ID_STEPS} requests; trying again shortly.`);
    }
  }
  // Without ids (the deployment has no POST /assemblies/{id}): the marker is the only way to find a lost answer.
  if (lookFirst && !markerChecked) {
    const found = await findByMarker(job.api, job.marker);
    if (!found.ok) return failed(found.error, true);
    if (found.value) return adoptOrWait(found.value);
  }
  const created = await post(undefined);
  if (!created.ok) return failed(created.error);
  return createdWith(created.value);
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) {
    // hashing happens in readRange
  }
}

