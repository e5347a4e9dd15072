import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import type { AppError } from '../../../shared/result';

/** `run.state` before the service answered. */
export const RUN_CREATING = 'CREATING';

/** The run state a status record stands for: its `ok` code, or its error code when it failed. */
export function stateOfStatus(status: AssemblyStatus): string {
  if (status.error) return status.error;
  return status.ok ?? 'UNKNOWN';
}

/** What a failed status says about where and why, kept as the error's details. */
const ERROR_DETAIL_KEYS = ['reason', 'step', 'previousStep', 'parameter', 'file', 'name', 'assembly_id', 'info'] as const;

/**
 * A failed Assembly as an AppError carrying the service's code and message unchanged. A status record's
 * `http_code` is the status of the request that fetched it (200 for a failed Assembly, service-facts.md §4),
 * not the failure's: it is kept only when it is an HTTP error, so the app never says "HTTP 200" at a failure.
 */
export function errorOfStatus(status: AssemblyStatus): AppError | null {
  if (!status.error) return null;
  const details: Record<string, unknown> = {};
  for (const key of ERROR_DETAIL_KEYS) {
    if (status[key] !== undefined && status[key] !== null) details[key] = status[key];
  }
  return {
    code: status.error,
    message: status.message ?? `The Assembly failed with ${status.error}.`,
    ...(typeof status.http_code === 'number' && status.http_code >= 400 ? { httpCode: status.http_code } : {}),
    details,
  };
}

/** A cheap fingerprint of what the user sees in a status, so unchanged polls send no event. */
export function statusFingerprint(status: AssemblyStatus | null): string {
  if (!status) return '';
  const results = Object.values(status.results ?? {}).reduce((n, files) => n + files.length, 0);
  return [
    status.ok,
    status.error,
    status.uploads?.length ?? 0,
    results,
    status.bytes_received,
    status.finished_tus_uploads,
    status.execution_duration,
    // A file a step skipped is a warning the Assembly view shows at the file.
    status.warnings?.length ?? 0,
  ].join('|');
}

/** The last path segment of a tus upload URL: the same upload whatever host or port the URL was given with. */
const uploadIdOf = (url: string): string => url.replace(/[?#].*$/, '').replace(/\/+$/, '').split('/').pop() ?? url;

/**
 * The tus uploads a status record shows as delivered whole. After a crash the run store may lag behind the
 * service (the app died between the last PATCH and saving its state); the service's word wins.
 */
export function deliveredUploadIds(status: AssemblyStatus): Set<string> {
  const ids = new Set<string>();
  for (const upload of status.uploads ?? []) if (upload.tus_upload_url) ids.add(uploadIdOf(upload.tus_upload_url));
  for (const t of status.tus_uploads ?? []) if (t.finished && t.upload_url) ids.add(uploadIdOf(t.upload_url));
  return ids;
}

/** Whether a file's stored upload URL is among the delivered uploads. */
export const isDelivered = (uploadUrl: string | null, delivered: Set<string>): boolean =>
  uploadUrl !== null && delivered.has(uploadIdOf(uploadUrl));

/**
 * A status without its per-file lists (uploads, results, tus_uploads): what a finished run keeps in memory.
 * A 1,000-file Assembly's status is ~4 MB; its header a few hundred bytes. The whole one stays in the run store.
 */
export function statusHeader(status: AssemblyStatus): AssemblyStatus {
  const { uploads: _uploads, results: _results, tus_uploads: _tus, ...header } = status;
  return header;
}
