import type { AssemblyStatus } from '../../../shared/api/assembly-status';

/**
 * The invariant, checked when a batch's Assembly completes: every file the engine sent is in the
 * Assembly's uploads exactly once, with the size and md5 the engine read. Pure.
 */

/** What the engine needs of one upload record. */
export interface SeenUpload {
  field: string | null;
  /** Last segment of `tus_upload_url` (null for a multipart upload). */
  uploadId: string | null;
  size: number | null;
  md5: string | null;
}

/** How a sent file is found among the uploads: a multipart part by its field, a tus upload by its id. */
export type SentKey = { field: string } | { uploadId: string };

export interface SentFile {
  fileId: string;
  /** Null: the engine does not know how it was sent (a tus upload whose URL was never learned). */
  key: SentKey | null;
  size: number;
}

export type UploadCheck =
  /** Once, with the size sent; `md5` is the service's (compare it with ours). */
  | { kind: 'present'; md5: string }
  /** Once, with the size sent, on a deployment that records no md5 for any upload: nothing to compare. */
  | { kind: 'no-checksums' }
  | { kind: 'failed'; reason: string };

export const uploadIdOf = (url: string): string => url.replace(/[?#].*$/, '').replace(/\/+$/, '').split('/').pop() ?? url;

export function seenUploads(status: AssemblyStatus): SeenUpload[] {
  return (status.uploads ?? []).map((u) => ({
    field: u.field ?? null,
    uploadId: u.tus_upload_url ? uploadIdOf(u.tus_upload_url) : null,
    size: typeof u.size === 'number' ? u.size : null,
    md5: u.md5hash ?? null,
  }));
}

const bytes = (n: number): string => `${n.toLocaleString('en-US')} byte${n === 1 ? '' : 's'}`;

/** Whether the deployment records checksums at all (any upload carries one). */
export const recordsChecksums = (uploads: readonly SeenUpload[]): boolean => uploads.some((u) => u.md5 !== null && u.md5 !== '');

/** Each sent file's standing in the completed Assembly's uploads. */
export function checkUploads(sent: readonly SentFile[], uploads: readonly SeenUpload[], assemblyId: string): Map<string, UploadCheck> {
  const byField = new Map<string, SeenUpload[]>();
  const byUploadId = new Map<string, SeenUpload[]>();
  for (const u of uploads) {
    if (u.uploadId !== null) byUploadId.set(u.uploadId, [...(byUploadId.get(u.uploadId) ?? []), u]);
    else if (u.field !== null) byField.set(u.field, [...(byField.get(u.field) ?? []), u]);
  }
  const checksums = recordsChecksums(uploads);
  const where = assemblyId ? `its Assembly (${assemblyId})` : 'its Assembly';
  const out = new Map<string, UploadCheck>();
  for (const f of sent) {
    const found = f.key === null ? [] : 'field' in f.key ? (byField.get(f.key.field) ?? []) : (byUploadId.get(f.key.uploadId) ?? []);
    if (found.length === 0) {
      out.set(f.fileId, { kind: 'failed', reason: `Missing from ${where}: the service completed it without this file.` });
    } else if (found.length > 1) {
      out.set(f.fileId, { kind: 'failed', reason: `Listed ${found.length} times in ${where}, not once.` });
    } else {
      const u = found[0]!;
      if (u.size !== null && u.size !== f.size) out.set(f.fileId, { kind: 'failed', reason: `The service recorded ${bytes(u.size)} in ${where}; ${bytes(f.size)} were sent.` });
      else if (u.md5) out.set(f.fileId, { kind: 'present', md5: u.md5 });
      else if (!checksums) out.set(f.fileId, { kind: 'no-checksums' });
      else out.set(f.fileId, { kind: 'failed', reason: `The service recorded no checksum for this file in ${where}, though it did for the others.` });
    }
  }
  return out;
}

export const checksumMismatch = (ours: string, theirs: string): string => `The service's checksum did not match (sent ${ours}, it recorded ${theirs}).`;

/** Said once for a batch whose deployment records no md5 at all. */
export const NOT_VERIFIED_NOTE = 'Not verified: this service records no checksums (md5hash), so its files were checked by size only.';
