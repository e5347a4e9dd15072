import type { StoredFile } from '../robots/file-record';

export interface TusUploadEntry {
  uploadId: string;
  filename: string;
  fieldname: string;
  user_meta?: Record<string, unknown>;
  size: number;
  offset: number;
  finished: boolean;
  upload_url: string;
  /** Where @tus/file-store keeps the bytes. */
  localPath: string;
}

export interface UploadEntry {
  file: StoredFile;
  isTus: boolean;
  tusUploadUrl: string | null;
}

/**
 * A warning of the status record. The real service sends `{level, msg}`; this one adds, for a file a step
 * skipped, the step, the upload it came from (`original_id`, `name`), the error code and the reason alone.
 */
export interface AssemblyWarning {
  level: 'notice' | 'warning';
  msg: string;
  step?: string;
  original_id?: string;
  name?: string;
  code?: string;
  reason?: string;
}

/** Everything the service keeps about one Assembly; persisted as JSON, the status record is derived from it. */
export interface AssemblyState {
  id: string;
  authKey: string;
  ok: string | null;
  error: string | null;
  message: string;
  errorExtra?: Record<string, unknown>;
  /** The params string as received, secrets masked. */
  params: string;
  steps: Record<string, { robot: string; use?: unknown; [k: string]: unknown }>;
  fields: Record<string, unknown>;
  emitExecutionProgress: boolean;
  maxSize: number | null;
  maxNumberOfFiles: number | null;
  startDate: string;
  createdAtMs: number;
  uploadFinishedAtMs: number | null;
  executionStart: string | null;
  executionStartMs: number | null;
  executionDurationS: number | null;
  /**
   * Job slots (service/queue/): when the Assembly became ready to execute, how long it then waited for its
   * first slot (null while it still waits; `execution_start` moves to that first slot), and the waits of
   * all its jobs together. Absent on records written before job slots existed.
   */
  queuedAtMs?: number | null;
  queueDurationS?: number | null;
  jobsQueueDurationS?: number;
  bytesReceived: number;
  bytesExpected: number;
  expectedTusUploads: number;
  startedTusUploads: number;
  finishedTusUploads: number;
  tusUploads: TusUploadEntry[];
  uploads: UploadEntry[];
  results: Record<string, StoredFile[]>;
  /** `{level, msg}` as the real service sends them; a file's warning also says where (see AssemblyWarning). */
  warnings: AssemblyWarning[];
  client: { transloadit_client: string | null; client_agent: string | null; client_ip: string | null; client_referer: string | null };
  progressCombined: number;
  /** Set when the Assembly ran a Template (`template_id`). */
  templateId?: string;
  templateName?: string;
  /** The Template's content as JSON, and the params after merging the request over it (secrets masked). */
  templateContent?: string;
  mergedParams?: string;
  /** Set on an Assembly made by a replay: the Assembly it replays. */
  parentId?: string;
  /** The request's own params (before any Template), unmasked, kept for replays with `reparse_template: 1`; never shown. */
  requestParams?: Record<string, unknown>;
  /** Where notifications go (params or Template); validated at creation. */
  notifyUrl?: string | null;
  /** `notification_payload` (service-facts §3): parts left out of the notification. */
  notificationPayload?: string[];
  /** Notification deliveries: the one at the end, and replays. Pending ones survive a restart. */
  deliveries?: NotifyDelivery[];
  /** Every delivery attempt, oldest first (capped, see notifications/notify-state.ts). */
  notifyAttempts?: NotifyAttempt[];
  /** Metering: per robot, the input bytes of the jobs it ran successfully (usage/usage-record.ts). */
  robotBytes?: Record<string, number>;
}

export interface NotifyDelivery {
  /** 32 hex; the `notification_id` a replay answers with. */
  id: string;
  url: string;
  replay: boolean;
  /** Attempts made so far. */
  attempts: number;
  /** When the next attempt is due; null once it succeeded or gave up. */
  dueAtMs: number | null;
  status: 'pending' | 'successful' | 'failed';
}

export interface NotifyAttempt {
  notification_id: string;
  url: string;
  replay: boolean;
  /** 1-based, per delivery. */
  attempt: number;
  started: string;
  startedMs: number;
  /** Seconds. */
  duration: number;
  response_code: number | null;
  /** The first characters of the receiver's answer. */
  response_data: string | null;
  error: string | null;
  successful: boolean;
}

export const OK_MESSAGES = {
  ASSEMBLY_UPLOADING: 'The Assembly is still in the process of being uploaded.',
  ASSEMBLY_EXECUTING: 'The Assembly is currently being executed.',
  ASSEMBLY_COMPLETED: 'The Assembly was successfully completed.',
  ASSEMBLY_CANCELED: 'The Assembly was canceled.',
  REQUEST_ABORTED: 'The upload connection was closed or timed out before receiving all data.',
} as const satisfies Record<string, string>;

export const okMessage = (ok: string): string => (OK_MESSAGES as Record<string, string>)[ok] ?? ok;

/** "2023/12/20 16:36:27 GMT", the date format of the status record. */
export function statusDate(ms: number): string {
  const d = new Date(ms);
  const p = (n: number): string => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}/${p(d.getUTCMonth() + 1)}/${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} GMT`;
}

/** Masks secrets inside the raw params string without re-serializing the rest. */
export function maskSecrets(rawParams: string): string {
  return rawParams.replace(/("(?:secret|password|auth_secret)"\s*:\s*)"(?:[^"\\]|\\.)*"/g, '$1"****"');
}

export const isRunning = (s: Pick<AssemblyState, 'ok' | 'error'>): boolean =>
  s.error === null && (s.ok === 'ASSEMBLY_UPLOADING' || s.ok === 'ASSEMBLY_EXECUTING');
