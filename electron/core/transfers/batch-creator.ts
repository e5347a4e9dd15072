import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import type { Instructions } from '../../../shared/api/instructions';
import { AppErrorCode, type AppError, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import { digestOf, newCursor, readRange, type HashCursor } from './hashing-reader';
import type { Excluded, FailureKind, FileRec } from './transfer-model';
import { MARKER_FIELD } from './transfer-model';
import type { LedgerEntry } from './transfer-store';
import type { TokenBucket } from './token-bucket';
import { BATCH_EMPTY } from './transfer-state';

export interface CreateBatchJob {
  api: ApiClient;
  instructions: Instructions;
  marker: string;
  multipart: FileRec[];
  tus: FileRec[];
  /** An earlier request may have created this Assembly (its answer was lost): look for the marker first. */
  lookFirst: boolean;
  /** "Skip unchanged": a verified upload of the same path, if any. */
  ledger(path: string): LedgerEntry | null;
  bucket: TokenBucket | null;
  onBytes(bytes: number): void;
  /** Aborted when the queue abandons this request (paused, or a file of it canceled): the upload stops. */
  signal?: AbortSignal;
}

export type CreateBatchOutcome =
  | {
      ok: true;
      status: AssemblyStatus;
      excluded: Excluded[];
      tus: string[];
      delivered: Array<{ fileId: string; md5: string; serviceMd5: string | null }>;
    }
  | { ok: false; error: AppError; failure: FailureKind; retryInMs?: number; ambiguous: boolean; excluded: Excluded[] };

const fieldOf = (index: number) => `file_${index}`;

/** Can the file still be opened, with the size it had when it was added? Null when it can. */
async function unreadable(f: FileRec): Promise<string | null> {
  try {
    const handle = await open(f.path, 'r');
    const st = await handle.stat();
    await handle.close();
    if (st.size !== f.size) return `Changed since it was added (${f.size} bytes then, ${st.size} now). Add it again to send it.`;
    return null;
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

/** The files left out before the request: unreadable (failed, with the reason) or unchanged (skipped). */
async function precheck(job: CreateBatchJob): Promise<Excluded[]> {
  const all = [...job.multipart, ...job.tus];
  const excluded: Excluded[] = [];
  const LIMIT = 32;
  for (let i = 0; i < all.length; i += LIMIT) {
    await Promise.all(
      all.slice(i, i + LIMIT).map(async (f) => {
        const reason = await unreadable(f);
        if (reason) return void excluded.push({ fileId: f.id, state: 'failed', reason });
        if (!f.unchangedCandidate) return;
        const before = job.ledger(f.path);
        if (!before || before.size !== f.size) return;
        const md5 = await md5OfFile(f.path).catch(() => null);
        if (md5 === before.md5) excluded.push({ fileId: f.id, state: 'skipped', reason: 'Unchanged since it was uploaded before (same path, size and content).' });
      }),
    );
  }
  return excluded;
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
 * the small ones streamed in the POST itself, each hashed on the way; the rest announced for tus. The
 * Assembly's `fields` carry the batch's marker, so a lost answer is found again instead of sent twice.
 */
export async function createBatchAssembly(job: CreateBatchJob): Promise<CreateBatchOutcome> {
  const excluded = await precheck(job);
  const out = new Set(excluded.map((x) => x.fileId));
  const multipart = job.multipart.filter((f) => !out.has(f.id));
  const tus = job.tus.filter((f) => !out.has(f.id));
  if (multipart.length + tus.length === 0) {
    return { ok: false, error: { code: BATCH_EMPTY, message: 'No file of this batch is left to send.' }, failure: 'fatal', ambiguous: false, excluded };
  }
  if (job.lookFirst) {
    const found = await findByMarker(job.api, job.marker);
    if (!found.ok) return { ok: false, error: found.error, ...classifyApiError(found.error), ambiguous: true, excluded: [] };
    if (found.value) {
      // Created by the request whose answer was lost: its multipart files arrived with it (the service
      // computed their md5; ours is computed again from disk, once).
      const cursors = multipart.map(() => newCursor());
      await Promise.all(multipart.map((f, i) => drain(readRange(f.path, 0, f.size, cursors[i]!, null))));
      return { ok: true, status: found.value, excluded, tus: tus.map((f) => f.id), delivered: delivered(found.value, cursors, multipart) };
    }
  }
  let cursors: HashCursor[] = [];
  const created = await job.api.createAssembly({
    instructions: job.instructions,
    expectedUploads: tus.length,
    fields: { [MARKER_FIELD]: job.marker },
    retries: 0,
    streamFiles: multipart.map((f, i) => ({
      field: fieldOf(i),
      name: f.name,
      mime: f.mime,
      open: () => {
        // Each attempt of the request reads (and hashes) the file again from its start.
        if (i === 0) cursors = multipart.map(() => newCursor());
        const stream = readRange(f.path, 0, f.size, cursors[i]!, job.bucket, job.onBytes);
        // A failing body ends the request: fetch stops sending and answers with an error.
        const stop = () => stream.destroy(new Error('The queue stopped this request.'));
        if (job.signal?.aborted) stop();
        job.signal?.addEventListener('abort', stop, { once: true });
        stream.once('close', () => job.signal?.removeEventListener('abort', stop));
        return stream;
      },
    })),
  });
  if (!created.ok) return { ok: false, error: created.error, ...classifyApiError(created.error), excluded };
  return { ok: true, status: created.value, excluded, tus: tus.map((f) => f.id), delivered: delivered(created.value, cursors, multipart) };
}

async function drain(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of stream) {
    // hashing happens in readRange
  }
}

