import { randomBytes } from 'node:crypto';
import { statusDate, type AssemblyState, type NotifyAttempt, type NotifyDelivery } from '../assemblies/assembly-state';

/**
 * After a failed attempt, wait this long before the next: 5 retries over 20 minutes, as the real service
 * documents ("retries 5 times over a period of 20 minutes", service-facts.md §3). Tests pass short ones.
 */
export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [30_000, 60_000, 120_000, 300_000, 690_000];
/** How long a receiver may take to answer one attempt. */
export const DEFAULT_NOTIFY_TIMEOUT_MS = 15_000;
/** Attempts and finished deliveries kept per Assembly (the oldest go first). */
export const MAX_ATTEMPTS_KEPT = 100;
/** Characters of the receiver's answer kept per attempt. */
export const RESPONSE_EXCERPT_CHARS = 1000;

export const newNotificationId = (): string => randomBytes(16).toString('hex');

/** Adds a delivery due at `dueAtMs` and returns it. */
export function queueDelivery(s: AssemblyState, url: string, replay: boolean, dueAtMs: number, id = newNotificationId()): NotifyDelivery {
  const d: NotifyDelivery = { id, url, replay, attempts: 0, dueAtMs, status: 'pending' };
  const finished = (s.deliveries ?? []).filter((x) => x.status !== 'pending');
  const pending = (s.deliveries ?? []).filter((x) => x.status === 'pending');
  s.deliveries = [...finished.slice(-MAX_ATTEMPTS_KEPT), ...pending, d];
  return d;
}

export interface AttemptOutcome {
  startedMs: number;
  durationMs: number;
  responseCode: number | null;
  responseData: string | null;
  error: string | null;
}

export const isSuccess = (o: Pick<AttemptOutcome, 'responseCode' | 'error'>): boolean =>
  o.error === null && o.responseCode !== null && o.responseCode >= 200 && o.responseCode < 300;

/**
 * Records one attempt: a 2xx ends the delivery; otherwise the next attempt is due after the next delay,
 * until the delays run out (then it has failed). `final` ends it at once (a receiver that cannot ever
 * work, such as one the operator no longer allows). Pure apart from mutating `s`.
 */
export function recordAttempt(s: AssemblyState, deliveryId: string, o: AttemptOutcome, delaysMs: readonly number[], final = false): NotifyAttempt | null {
  const d = s.deliveries?.find((x) => x.id === deliveryId);
  if (!d) return null;
  d.attempts += 1;
  const successful = isSuccess(o);
  const endMs = o.startedMs + o.durationMs;
  const delay = delaysMs[d.attempts - 1];
  if (successful) Object.assign(d, { status: 'successful', dueAtMs: null });
  else if (!final && delay !== undefined) Object.assign(d, { status: 'pending', dueAtMs: endMs + delay });
  else Object.assign(d, { status: 'failed', dueAtMs: null });
  const attempt: NotifyAttempt = {
    notification_id: d.id,
    url: d.url,
    replay: d.replay,
    attempt: d.attempts,
    started: statusDate(o.startedMs),
    startedMs: o.startedMs,
    duration: o.durationMs / 1000,
    response_code: o.responseCode,
    response_data: o.responseData === null ? null : o.responseData.slice(0, RESPONSE_EXCERPT_CHARS),
    error: o.error,
    successful,
  };
  s.notifyAttempts = [...(s.notifyAttempts ?? []).slice(-(MAX_ATTEMPTS_KEPT - 1)), attempt];
  return attempt;
}

/**
 * The `notify_*` fields of the status record (service-facts.md §3), from the latest attempt. The status
 * record is served to anyone holding the Assembly's URL, so what the receiver answered is not in it
 * (`notify_response_data` stays null): a notify_url aimed at an internal page must not read that page back.
 * The signed GET /assembly_notifications/{id} and the replay answer carry it. Pure.
 */
export function notifyStatusFields(s: AssemblyState): Record<string, unknown> {
  const last = s.notifyAttempts?.at(-1) ?? null;
  const pending = (s.deliveries ?? []).some((d) => d.status === 'pending');
  const status = pending ? 'processing' : last ? (last.successful ? 'successful' : 'failed') : null;
  return {
    notify_url: s.notifyUrl ?? null,
    notify_start: last ? last.started : null,
    notify_status: status,
    notify_response_code: last?.response_code ?? null,
    notify_response_data: null,
    notify_error: last?.error ?? null,
    notify_duration: last ? last.duration : null,
  };
}

/** GET /assembly_notifications/{id}: every attempt and every delivery still pending. Pure. */
export function notificationListing(s: AssemblyState): Record<string, unknown> {
  const items = (s.notifyAttempts ?? []).map(({ startedMs: _ms, ...a }) => a);
  return {
    ok: 'ASSEMBLY_NOTIFICATIONS_FOUND',
    assembly_id: s.id,
    notify_url: s.notifyUrl ?? null,
    items,
    count: items.length,
    pending: (s.deliveries ?? [])
      .filter((d) => d.status === 'pending')
      .map((d) => ({ notification_id: d.id, url: d.url, replay: d.replay, attempts: d.attempts, next_attempt: d.dueAtMs === null ? null : statusDate(d.dueAtMs) })),
  };
}
