import { createHmac } from 'node:crypto';

/** `notification_payload` values (service-facts.md §3): parts of the status left out of the notification. */
export const PAYLOAD_OPTIONS = ['without_result_meta_data', 'without_results', 'without_upload_meta_data', 'without_uploads'] as const;
export type PayloadOption = (typeof PAYLOAD_OPTIONS)[number];

export type NotifySignatureAlgo = 'sha1' | 'sha256' | 'sha384';

/** The list from params or a Template; undefined/null/[] = the full status; a string is the problem. Pure. */
export function parseNotificationPayload(v: unknown): PayloadOption[] | string {
  if (v === undefined || v === null || v === '') return [];
  const list = typeof v === 'string' ? [v] : v;
  if (!Array.isArray(list) || !list.every((x) => typeof x === 'string' && (PAYLOAD_OPTIONS as readonly string[]).includes(x))) {
    return `notification_payload must be an array of ${PAYLOAD_OPTIONS.join(', ')} (got ${JSON.stringify(v)})`;
  }
  return [...new Set(list as PayloadOption[])];
}

const withoutMeta = (files: unknown): unknown =>
  Array.isArray(files) ? files.map((f) => (typeof f === 'object' && f !== null ? { ...(f as Record<string, unknown>), meta: {} } : f)) : files;

/** The status as the notification carries it: the full record minus what `notification_payload` leaves out. Pure. */
export function filterPayload(status: Record<string, unknown>, options: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...status };
  if (options.includes('without_uploads')) delete out.uploads;
  else if (options.includes('without_upload_meta_data')) out.uploads = withoutMeta(out.uploads);
  if (options.includes('without_results')) delete out.results;
  else if (options.includes('without_result_meta_data') && typeof out.results === 'object' && out.results !== null) {
    out.results = Object.fromEntries(Object.entries(out.results as Record<string, unknown>).map(([step, files]) => [step, withoutMeta(files)]));
  }
  return out;
}

/**
 * The `signature` field: HMAC of the exact `transloadit` string with the Auth Secret. sha1 (the spec's
 * webhook algorithm) is sent as **bare hex**: that is what both the vendor's `verifyWebhookSignature`
 * (no prefix = sha1) and the simple receivers in the wild (`hex(HMAC-SHA1) == signature`) accept.
 * sha256/sha384 (an operator's choice) are sent prefixed, `sha384:<hex>`, as the NS notify relay does.
 */
export function signNotification(transloadit: string, secret: string, algo: NotifySignatureAlgo = 'sha1'): string {
  const hex = createHmac(algo, Buffer.from(secret, 'utf8')).update(Buffer.from(transloadit, 'utf8')).digest('hex');
  return algo === 'sha1' ? hex : `${algo}:${hex}`;
}

/** The POST body: `application/x-www-form-urlencoded` with `transloadit` and `signature` (see docs/local-service.md). */
export function notificationBody(transloadit: string, signature: string): string {
  return new URLSearchParams({ transloadit, signature }).toString();
}
