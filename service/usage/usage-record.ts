import type { AssemblyState } from '../assemblies/assembly-state';

/** The four outcomes statistics count (spec "States and transitions"). */
export type UsageOutcome = 'successful' | 'cancelled' | 'erroneous' | 'request-aborted';

/** What one ended Assembly used: one row of the usage table (usage-store.ts), written once. */
export interface UsageRecord {
  assemblyId: string;
  authKey: string;
  region: string;
  createdMs: number;
  endedMs: number;
  outcome: UsageOutcome;
  errorCode: string | null;
  /** Seconds, as the status record says them. */
  uploadDurationS: number;
  queueDurationS: number;
  executionDurationS: number;
  filesUploaded: number;
  bytesUploaded: number;
  outputFiles: number;
  outputBytes: number;
  /** Sum of `robots`: input bytes the robots processed. */
  processedBytes: number;
  /** Per robot (e.g. "/image/resize"), the input bytes of the jobs it ran successfully. */
  robots: Record<string, number>;
}

/** Upload bytes are billed under this key (service-facts.md §7), not as a robot. */
export const UPLOAD_KEY = '/assemblies';
/** The `:original` step's robot: its "input" is the upload itself, already counted under UPLOAD_KEY. */
const UPLOAD_ROBOT = '/upload/handle';

export function outcomeOf(s: Pick<AssemblyState, 'ok' | 'error'>): UsageOutcome {
  if (s.error) return 'erroneous';
  if (s.ok === 'ASSEMBLY_CANCELED') return 'cancelled';
  if (s.ok === 'REQUEST_ABORTED') return 'request-aborted';
  return 'successful';
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

/**
 * The usage of an Assembly that just ended, from its state and the durations its status record shows
 * (so statistics agree with what clients read). Bytes uploaded = the described uploads plus what arrived
 * of tus uploads that never finished (a cancel mid-upload still moved those bytes). Pure.
 */
export function usageOf(
  s: AssemblyState,
  status: { upload_duration?: unknown; queue_duration?: unknown; execution_duration?: unknown },
  endedMs: number,
  region: string,
): UsageRecord {
  const described = new Set(s.uploads.map((u) => u.tusUploadUrl).filter((u): u is string => u !== null));
  const partialTus = s.tusUploads.filter((t) => !described.has(t.upload_url)).reduce((n, t) => n + t.offset, 0);
  const uploadedFiles = s.uploads.reduce((n, u) => n + u.file.size, 0);
  // A request aborted mid-body keeps no upload records, only the count of bytes that came.
  const bytesUploaded = s.ok === 'REQUEST_ABORTED' && s.uploads.length === 0 ? s.bytesReceived : uploadedFiles + partialTus;
  const results = Object.values(s.results).flat();
  const robots = Object.fromEntries(Object.entries(s.robotBytes ?? {}).filter(([robot, bytes]) => robot !== UPLOAD_ROBOT && bytes > 0));
  return {
    assemblyId: s.id,
    authKey: s.authKey,
    region,
    createdMs: s.createdAtMs,
    endedMs,
    outcome: outcomeOf(s),
    errorCode: s.error,
    uploadDurationS: num(status.upload_duration),
    queueDurationS: num(status.queue_duration),
    executionDurationS: num(status.execution_duration),
    filesUploaded: s.uploads.length,
    bytesUploaded,
    outputFiles: results.length,
    outputBytes: results.reduce((n, f) => n + f.size, 0),
    processedBytes: Object.values(robots).reduce((n, b) => n + b, 0),
    robots,
  };
}
