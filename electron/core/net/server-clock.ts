// The deployment's time as core sees it: this computer's clock plus the offset its answers' `Date` headers
// show. A signed request carries `auth.expires` and a client assertion its `iat`/`exp`; both are judged by
// the service's clock, so a computer whose clock is off by hours had every signed request refused
// (AUTH_EXPIRED, or INVALID_AUTH_EXPIRES when ahead). AWS's SDKs correct the same way (a clock offset
// learned from the server's Date, the request retried once).

/** Below this, this computer's clock is taken as it is (a signature is valid for an hour; Date has 1 s steps). */
export const SKEW_TOLERANCE_MS = 30_000;

/** Codes a deployment answers when a signed request's expiry is judged wrong by its clock. */
export const CLOCK_CODES: ReadonlySet<string> = new Set(['AUTH_EXPIRED', 'INVALID_AUTH_EXPIRES_PARAMETER', 'INVALID_AUTH_EXPIRES']);

export interface ServerClock {
  /** The deployment's time, as far as its answers told (ms since the epoch). */
  now(): number;
  /** Deployment minus this computer, 0 while within SKEW_TOLERANCE_MS. */
  offsetMs(): number;
  /** An answer's `Date` (sent at `sentAt`, read at `receivedAt`, both by this computer's clock); true when the offset moved. */
  observe(date: string | null, sentAt: number, receivedAt: number): boolean;
  /** This computer's clock (what `sentAt` and `receivedAt` are read from). */
  local(): number;
}

/**
 * Deployment minus this computer in ms, from a `Date` header: HTTP dates count whole seconds, so the
 * deployment's time was within [Date, Date + 1 s) when it answered, taken as its middle, against the
 * middle of the round trip. Null when there is no readable date. Pure.
 */
export function skewOf(date: string | null, sentAt: number, receivedAt: number): number | null {
  if (!date) return null;
  const serverMs = Date.parse(date);
  if (!Number.isFinite(serverMs)) return null;
  return serverMs + 500 - (sentAt + receivedAt) / 2;
}

export function createServerClock(local: () => number = Date.now): ServerClock {
  let offset = 0;
  return {
    now: () => local() + offset,
    offsetMs: () => offset,
    local,
    observe(date, sentAt, receivedAt) {
      const skew = skewOf(date, sentAt, receivedAt);
      if (skew === null || Math.abs(skew - offset) < SKEW_TOLERANCE_MS) return false;
      offset = Math.abs(skew) < SKEW_TOLERANCE_MS ? 0 : Math.round(skew);
      return true;
    },
  };
}

/** "3 hours behind" / "2 minutes ahead of", for messages. Pure. */
export function describeOffset(offsetMs: number): string {
  const s = Math.abs(offsetMs) / 1000;
  const amount = s >= 2 * 3600 ? `${Math.round(s / 3600)} hours` : s >= 120 ? `${Math.round(s / 60)} minutes` : `${Math.round(s)} seconds`;
  return `${amount} ${offsetMs > 0 ? 'behind' : 'ahead of'}`;
}

/** The message of a request refused for its expiry: what the clock has to do with it, and what to do. */
export function clockRefusalMessage(serviceMessage: string, offsetMs: number | null): string {
  const clock =
    offsetMs !== null && offsetMs !== 0
      ? `this computer's clock is ${describeOffset(offsetMs)} the service's, and the service refused the request's expiry time even when signed by its own time`
      : "signed requests carry an expiry time taken from this computer's clock, and the service judged it wrong (it sent no time of its own to correct by)";
  return `${serviceMessage.replace(/\.?\s*$/, '.')} ${clock[0]!.toUpperCase()}${clock.slice(1)}: set the clock automatically in the system settings.`;
}
