// Which tus requests an Assembly accepts. A tus upload URL is a capability anyone who saw the status
// record holds, so bytes are taken only while the Assembly still waits for them. Pure.

import { formatBytes } from '../../shared/byte-units';
import { ErrorCode } from '../../shared/api/codes';
import type { AssemblyState, TusUploadEntry } from '../assemblies/assembly-state';

export interface TusRejection {
  status: number;
  code: string;
  message: string;
}

export const TusCode = {
  notUploading: 'ASSEMBLY_NOT_UPLOADING',
  uploadsComplete: 'ASSEMBLY_UPLOADS_COMPLETE',
  tooManyUploads: 'ASSEMBLY_TOO_MANY_UPLOADS',
  uploadNotFound: 'TUS_UPLOAD_NOT_FOUND',
  uploadFinished: 'TUS_UPLOAD_FINISHED',
  /** Ours: more partial uploads (tus concatenation) than an Assembly's files can use. */
  tooManyPartials: 'TUS_TOO_MANY_PARTIAL_UPLOADS',
} as const;

/** Partial uploads' ids are `<assembly_id>_part_<32hex>`: a file's are `<assembly_id>_<32hex>`. */
export const isPartialUploadId = (uploadId: string): boolean => /^[0-9a-f]{32}_part_[0-9a-f]{32}$/.test(uploadId);

/**
 * Partial uploads (tus concatenation) an Assembly may have had created: a client splits a file into a few
 * parts (tus-js-client's parallelUploads; the app uses up to 16), and retries create some again.
 */
export const partialAllowance = (expected: number): number => (expected + 8) * 32;

/**
 * Creates beyond the expected count, before all files have arrived, are client retries (tus-js-client
 * re-creates an upload whose creating response was lost or stalled); this many extra are allowed.
 */
export const tusCreateAllowance = (expected: number): number => expected + 8;

type TusView = Pick<AssemblyState, 'id' | 'ok' | 'error' | 'expectedTusUploads' | 'startedTusUploads' | 'finishedTusUploads' | 'tusUploads' | 'maxSize'>;

const notFound = (id: string): TusRejection => ({ status: 404, code: ErrorCode.assemblyNotFound, message: `Assembly ${id} was not found.` });

function stateWord(s: TusView): string {
  if (s.error) return `ended with ${s.error}`;
  if (s.ok === 'ASSEMBLY_EXECUTING') return 'is executing';
  if (s.ok === 'ASSEMBLY_UPLOADING') return 'is no longer running';
  return `is ${(s.ok ?? 'ended').replace(/^ASSEMBLY_/, '').toLowerCase()}`;
}

const notUploading = (s: TusView, status: number): TusRejection => ({
  status,
  code: TusCode.notUploading,
  message: `Assembly ${s.id} no longer accepts uploads: it ${stateWord(s)}.`,
});

/** `live`: the Assembly runs in this service now (a stored one that is not live has ended). */
const isWaiting = (s: TusView, live: boolean): boolean => live && s.ok === 'ASSEMBLY_UPLOADING' && s.error === null;

/** Why a new tus upload (POST) may not attach to this Assembly, or null when it may. */
export function createRejection(id: string, s: TusView | null, live: boolean): TusRejection | null {
  if (!s) return notFound(id);
  if (!isWaiting(s, live)) return notUploading(s, 400);
  if (s.finishedTusUploads >= s.expectedTusUploads) {
    return { status: 400, code: TusCode.uploadsComplete, message: `Assembly ${id} has received all ${s.expectedTusUploads} file(s) it expected; it takes no more uploads.` };
  }
  if (s.startedTusUploads >= tusCreateAllowance(s.expectedTusUploads)) {
    return { status: 400, code: TusCode.tooManyUploads, message: `Assembly ${id} expects ${s.expectedTusUploads} file(s) and ${s.startedTusUploads} uploads were already started for it.` };
  }
  return null;
}

/**
 * Why a new upload of `uploadLength` bytes (null: deferred) is too big for the Assembly: one file larger
 * than all of `auth.max_size` can never fit, so it is refused before a byte is stored.
 */
export function sizeRejection(s: Pick<TusView, 'id' | 'maxSize'>, uploadLength: number | null): TusRejection | null {
  if (s.maxSize === null || uploadLength === null || uploadLength <= s.maxSize) return null;
  return { status: 413, code: ErrorCode.maxSizeExceeded, message: `This upload has ${formatBytes(uploadLength)}; auth.max_size of Assembly ${s.id} allows ${formatBytes(s.maxSize)}.` };
}

/**
 * Why a new partial upload (Upload-Concat: partial) may not be made for this Assembly, with `created`
 * partials made for it so far, or null. Partials are bytes for a file still to come, so they follow the
 * rules of a new upload, counted on an allowance of their own.
 */
export function partialCreateRejection(id: string, s: TusView | null, live: boolean, created: number): TusRejection | null {
  if (!s) return notFound(id);
  if (!isWaiting(s, live)) return notUploading(s, 400);
  if (s.finishedTusUploads >= s.expectedTusUploads) {
    return { status: 400, code: TusCode.uploadsComplete, message: `Assembly ${id} has received all ${s.expectedTusUploads} file(s) it expected; it takes no more uploads.` };
  }
  if (created >= partialAllowance(s.expectedTusUploads)) {
    return { status: 400, code: TusCode.tooManyPartials, message: `Assembly ${id} expects ${s.expectedTusUploads} file(s) and ${created} partial uploads were already created for it.` };
  }
  return null;
}

/** Why bytes for (PATCH) or the removal of (DELETE) a partial upload are refused: bytes only while the Assembly waits. */
export function partialUploadRejection(id: string, method: 'PATCH' | 'DELETE', s: TusView | null, live: boolean): TusRejection | null {
  if (!s) return notFound(id);
  if (method === 'DELETE') return null;
  return isWaiting(s, live) ? null : notUploading(s, 410);
}

/** The most bytes one upload to this Assembly may hold (deferred-length uploads included), or null for no cap. */
export const uploadSizeCap = (s: Pick<TusView, 'maxSize'> | null): number | null => s?.maxSize ?? null;

/**
 * Why bytes (PATCH) or a termination (DELETE) for an existing upload are refused, or null. `find` looks the
 * upload up (the live Assembly's index; a scan of `s.tusUploads` when absent).
 */
export function uploadRejection(
  id: string,
  uploadId: string,
  method: 'PATCH' | 'DELETE',
  s: TusView | null,
  live: boolean,
  find?: (uploadId: string) => Pick<TusUploadEntry, 'finished'> | undefined,
): TusRejection | null {
  if (!s) return notFound(id);
  const entry = find ? find(uploadId) : s.tusUploads.find((t) => t.uploadId === uploadId);
  if (!entry) return { status: 404, code: TusCode.uploadNotFound, message: `There is no upload ${uploadId} in Assembly ${id}.` };
  if (method === 'DELETE') {
    // An unfinished upload may always be given up; a finished one's bytes are the Assembly's input now.
    return entry.finished ? { status: 400, code: TusCode.uploadFinished, message: `The upload ${uploadId} is complete; its file belongs to Assembly ${id} and cannot be deleted.` } : null;
  }
  if (!isWaiting(s, live)) return notUploading(s, 410);
  if (entry.finished) return { status: 410, code: TusCode.uploadFinished, message: `The upload ${uploadId} is already complete.` };
  return null;
}
