import type { StoredFile } from '../robots/file-record';
import type { AssemblyState } from './assembly-state';
import { statusDate } from './assembly-state';
import { notifyStatusFields } from '../notifications/notify-state';

export interface ServiceUrls {
  /** The API's origin: create, list, Templates, keys… */
  base: string;
  /**
   * A deployment like the hosted one serves roles from other hosts (docs/hosts.md "Deployments"): Assembly
   * status and update streams from a regional host, tus from another, result files from a fourth. Each
   * defaults to `base`.
   */
  regional?: string;
  tus?: string;
  results?: string;
}

const regionalBase = (u: ServiceUrls): string => u.regional || u.base;

/** The local service's one region: status records, list items and usage rows carry it (statistics filter on it). */
export const LOCAL_REGION = 'local';
/**
 * The service's one account: `account_id` everywhere (status records, list items, Templates, credentials).
 * Never the Auth Key: the vendor's `account_id` is an account's id, and the key is not published.
 */
export const LOCAL_ACCOUNT_ID = 'local';

const publicParamsCache = new WeakMap<AssemblyState, Map<string, string>>();

/**
 * `params` as shown in a status record: the request's JSON with `auth.key` written `"****"`, as the vendor
 * shows it (service-facts §4); the record is public, the key is what a caller needs to make Assemblies.
 * Text that is not a JSON object is shown as it came. Pure (cached per state).
 */
export function shownParams(raw: string): string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return raw;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return raw;
  const p = parsed as Record<string, unknown>;
  const auth = p.auth;
  if (typeof auth !== 'object' || auth === null || Array.isArray(auth) || !('key' in auth)) return raw;
  return JSON.stringify({ ...p, auth: { ...(auth as Record<string, unknown>), key: '****' } });
}

/** shownParams, once per text of an Assembly (a status is built on every GET and event). */
function publicParams(s: AssemblyState, raw: string): string {
  let texts = publicParamsCache.get(s);
  if (!texts) publicParamsCache.set(s, (texts = new Map()));
  let shown = texts.get(raw);
  if (shown === undefined) {
    if (texts.size >= 2) texts.clear();
    texts.set(raw, (shown = shownParams(raw)));
  }
  return shown;
}

export const assemblyUrl = (u: ServiceUrls, id: string): string => `${regionalBase(u)}/assemblies/${id}`;
export const websocketUrl = (u: ServiceUrls): string => `${regionalBase(u)}/ws20000`;
export const updateStreamUrl = (u: ServiceUrls, id: string): string => `${websocketUrl(u)}?assembly=${id}`;
export const tusUrl = (u: ServiceUrls): string => `${u.tus || u.base}/resumable/files/`;
/** The name ends the URL for readers only (routes go by id); "." and ".." would be cut off by URL parsing. */
const urlName = (name: string): string => (name === '.' || name === '..' ? 'file' : encodeURIComponent(name));

export const fileUrl = (u: ServiceUrls, kind: 'uploads' | 'results', assemblyId: string, file: Pick<StoredFile, 'id' | 'name'>): string =>
  `${(kind === 'results' ? u.results : u.tus) || u.base}/${kind}/${assemblyId}/${file.id}/${urlName(file.name)}`;

/** The client-facing file record: no disk path, with the URLs it is served at. */
export function publicFileRecord(u: ServiceUrls, kind: 'uploads' | 'results', assemblyId: string, file: StoredFile, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const remoteUrls = file.remoteUrls;
  const url = remoteUrls?.url ?? fileUrl(u, kind, assemblyId, file);
  // Copied key by key: a status of 1,000 files builds 2,000 of these on every GET and its end, and an object
  // rest (`{ localPath, ...rest }`) then a spread cost 2–3 times as much CPU (issue 27).
  const out: Record<string, unknown> = {};
  for (const key in file) if (key !== 'localPath' && key !== 'remoteUrls') out[key] = file[key as keyof StoredFile];
  out.from_batch_import = false;
  out.url = url;
  out.ssl_url = remoteUrls?.ssl_url ?? url;
  if (remoteUrls?.signed_url) {
    out.signed_url = remoteUrls.signed_url;
    out.signed_ssl_url = remoteUrls.signed_ssl_url ?? remoteUrls.signed_url;
  }
  // docs/local-service.md "File records": one queue, no per-file price (the bill is per Assembly), no
  // step aliases, and URLs that stay as long as the Assembly does.
  out.as = null;
  out.queue = kind === 'results' ? 'live' : null;
  out.queue_time = file.queue_time ?? 0;
  out.exec_time = file.exec_time ?? 0;
  out.cost = null;
  out.is_temp_url = false;
  if (kind === 'results') {
    out.width = typeof file.meta.width === 'number' ? file.meta.width : undefined;
    out.height = typeof file.meta.height === 'number' ? file.meta.height : undefined;
  }
  for (const key in extra) out[key] = extra[key];
  return out;
}

export function uploadRecord(u: ServiceUrls, state: AssemblyState, index: number): Record<string, unknown> {
  const entry = state.uploads[index];
  if (!entry) throw new RangeError(`no upload #${index}`);
  return publicFileRecord(u, 'uploads', state.id, entry.file, { is_tus_file: entry.isTus, tus_upload_url: entry.tusUploadUrl });
}

/** The durations a status record shows (seconds; execution null until it starts). Pure. */
export function statusDurations(s: AssemblyState, nowMs: number): { upload_duration: number; queue_duration: number; execution_duration: number | null } {
  const running = s.error === null && (s.ok === 'ASSEMBLY_EXECUTING');
  // Waiting for its first job slot: all time since it became ready is queue time, none is execution yet.
  const waiting = running && !!s.queuedAtMs && (s.queueDurationS === null || s.queueDurationS === undefined);
  return {
    upload_duration: s.uploadFinishedAtMs ? (s.uploadFinishedAtMs - s.createdAtMs) / 1000 : 0,
    queue_duration: s.queueDurationS ?? (waiting && s.queuedAtMs ? (nowMs - s.queuedAtMs) / 1000 : 0),
    execution_duration: waiting ? 0 : (s.executionDurationS ?? (running && s.executionStartMs ? (nowMs - s.executionStartMs) / 1000 : null)),
  };
}

/** The Assembly status record with the real field names (service-facts.md §4). Pure. */
export function statusRecord(u: ServiceUrls, s: AssemblyState, nowMs: number): Record<string, unknown> {
  const { upload_duration: uploadDuration, queue_duration: queueDuration, execution_duration: executionDuration } = statusDurations(s, nowMs);
  const url = assemblyUrl(u, s.id);
  return {
    ok: s.ok,
    ...(s.error ? { error: s.error } : {}),
    message: s.message,
    http_code: 200,
    ...s.errorExtra,
    assembly_id: s.id,
    parent_id: s.parentId ?? null,
    account_id: LOCAL_ACCOUNT_ID,
    template_id: s.templateId ?? null,
    ...(s.templateName ? { template_name: s.templateName } : {}),
    instance: new URL(regionalBase(u)).host,
    region: LOCAL_REGION,
    assembly_url: url,
    assembly_ssl_url: url,
    websocket_url: websocketUrl(u),
    update_stream_url: updateStreamUrl(u, s.id),
    tus_url: tusUrl(u),
    bytes_received: s.bytesReceived,
    bytes_expected: s.bytesExpected,
    upload_duration: uploadDuration,
    client_agent: s.client.client_agent,
    client_ip: s.client.client_ip,
    client_referer: s.client.client_referer,
    transloadit_client: s.client.transloadit_client,
    start_date: s.startDate,
    upload_meta_data_extracted: s.uploadFinishedAtMs !== null,
    warnings: s.warnings,
    is_infinite: false,
    has_dupe_jobs: false,
    execution_start: s.executionStart,
    // Absent until execution starts: clients type it as a number.
    ...(executionDuration !== null ? { execution_duration: executionDuration } : {}),
    queue_duration: queueDuration,
    jobs_queue_duration: s.jobsQueueDurationS ?? 0,
    ...notifyStatusFields(s),
    num_input_files: s.uploads.length,
    expected_tus_uploads: s.expectedTusUploads,
    started_tus_uploads: s.startedTusUploads,
    finished_tus_uploads: s.finishedTusUploads,
    tus_uploads: s.tusUploads.map(({ localPath: _l, uploadId: _i, ...t }) => t),
    fields: s.fields,
    params: typeof s.params === 'string' ? publicParams(s, s.params) : s.params,
    template: s.templateContent ?? null,
    ...(s.mergedParams ? { merged_params: publicParams(s, s.mergedParams) } : {}),
    last_job_completed: s.executionDurationS !== null && s.executionStartMs ? statusDate(s.executionStartMs + s.executionDurationS * 1000) : null,
    uploads: s.uploads.map((_, i) => uploadRecord(u, s, i)),
    results: Object.fromEntries(Object.entries(s.results).map(([step, files]) => [step, files.map((f) => publicFileRecord(u, 'results', s.id, f))])),
    ...(s.emitExecutionProgress ? { progress_combined: s.progressCombined } : {}),
  };
}
