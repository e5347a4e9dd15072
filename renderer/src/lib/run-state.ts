import { AssemblyOk, BUSY_OK_CODES } from '../../../shared/api/codes';
import type { Run } from '../../../shared/ipc/models';

export type StateTone = 'neutral' | 'info' | 'success' | 'warning' | 'danger';

export interface StateView {
  readonly label: string;
  readonly tone: StateTone;
  /** Still moving: show progress and the Cancel button. */
  readonly busy: boolean;
  readonly failed: boolean;
}

const KNOWN: Record<string, StateView> = {
  CREATING: { label: 'Creating', tone: 'info', busy: true, failed: false },
  [AssemblyOk.uploading]: { label: 'Uploading', tone: 'info', busy: true, failed: false },
  // The user's files are all in and the service works on them: "Processing", whatever the code says.
  [AssemblyOk.executing]: { label: 'Processing', tone: 'info', busy: true, failed: false },
  [AssemblyOk.replaying]: { label: 'Replaying', tone: 'info', busy: true, failed: false },
  [AssemblyOk.completed]: { label: 'Completed', tone: 'success', busy: false, failed: false },
  [AssemblyOk.canceled]: { label: 'Canceled', tone: 'neutral', busy: false, failed: false },
  [AssemblyOk.requestAborted]: { label: 'Aborted', tone: 'danger', busy: false, failed: true },
};

const FAILED: StateView = { label: 'Failed', tone: 'danger', busy: false, failed: true };

/** "ASSEMBLY_NOTIFICATION_REPLAYED" → "Notification replayed": unknown codes are shown, never dropped. */
export const humanizeCode = (code: string): string => {
  const words = code.replace(/^ASSEMBLY_/, '').toLowerCase().split('_').filter(Boolean);
  const text = words.join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

const PROCESSING = KNOWN[AssemblyOk.executing] as StateView;

/** Every byte is up (by the app's count, or the service's). */
export const uploadsDone = (totals: Run['totals']): boolean =>
  totals.bytesTotal > 0 ? totals.bytesUploaded >= totals.bytesTotal : totals.filesTotal > 0 && totals.filesUploaded >= totals.filesTotal;

/**
 * Map a run (its `state` code, its error, the service's status) to what the badge shows. An Assembly
 * still `UPLOADING` by its code but with every byte delivered is processing: the badge says so, not
 * "Uploading" beside a full bar.
 */
export const describeRunState = (run: Pick<Run, 'state' | 'error' | 'status'> & { readonly totals?: Run['totals'] }): StateView => {
  if (run.error || run.status?.error) return FAILED;
  if (run.state === AssemblyOk.uploading && run.totals && uploadsDone(run.totals)) return PROCESSING;
  const known = KNOWN[run.state];
  if (known) return known;
  const busy = BUSY_OK_CODES.includes(run.state);
  return { label: humanizeCode(run.state), tone: busy ? 'info' : 'neutral', busy, failed: false };
};

/** A failed run as the Assembly view shows it: the service's code and message, and where and why when it says. */
export interface RunFailure {
  readonly code: string;
  readonly message: string;
  /** Only an HTTP error status: a failed Assembly's status record comes with HTTP 200, which says nothing. */
  readonly httpCode?: number;
  readonly step?: string;
  readonly parameter?: string;
  readonly reason?: string;
}

const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const httpError = (v: unknown): { httpCode?: number } => (typeof v === 'number' && v >= 400 ? { httpCode: v } : {});

const withWhere = (base: { code: string; message: string }, http: unknown, source: Record<string, unknown>): RunFailure => {
  const step = text(source.step);
  const parameter = text(source.parameter);
  // A reason that only repeats the message adds nothing.
  const reason = text(source.reason);
  return {
    ...base,
    ...httpError(http),
    ...(step ? { step } : {}),
    ...(parameter ? { parameter } : {}),
    ...(reason && reason !== base.message ? { reason } : {}),
  };
};

/** The error to show for a failed run: the app's error first, else the service's status error. */
export const runErrorOf = (run: Pick<Run, 'error' | 'status' | 'state'>): RunFailure | null => {
  const status = run.status;
  if (run.error) {
    // Details of the run's error first; the status record fills in what they lack (older stored runs).
    const source = { ...(status?.error === run.error.code ? status : {}), ...(run.error.details ?? {}) } as Record<string, unknown>;
    return withWhere({ code: run.error.code, message: run.error.message }, run.error.httpCode, source);
  }
  if (status?.error) {
    return withWhere({ code: status.error, message: status.message ?? status.reason ?? 'The Assembly failed.' }, status.http_code, status as Record<string, unknown>);
  }
  if (run.state === AssemblyOk.requestAborted) {
    return { code: run.state, message: status?.message ?? 'The upload connection was closed before all data arrived.' };
  }
  return null;
};

/** Robots that only take in or store files: the time on the service is storing, not processing. */
const STORE_ROBOT = /^\/(upload\/handle|file\/filter|[a-z0-9_-]+\/store|[a-z0-9_-]+\/import)$/;

/** True when the Assembly's steps (from its status record's `params`) only store the uploads. */
export const isStoreOnly = (status: Run['status']): boolean => {
  if (!status?.params) return false;
  try {
    const params = JSON.parse(status.params) as { steps?: Record<string, { robot?: unknown }> };
    const steps = Object.values(params.steps ?? {});
    return steps.length > 0 && steps.every((s) => typeof s.robot === 'string' && STORE_ROBOT.test(s.robot));
  } catch {
    return false;
  }
};
