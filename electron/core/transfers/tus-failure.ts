// What a failed tus request means for the queue (wait, back off, or needs the user), and how it reads.
import type { DetailedError } from 'tus-js-client';
import type { FailureKind } from './transfer-model';

export type TusFailure = { kind: 'failed'; error: string; failure: FailureKind; retryInMs?: number };

/** 413 RATE_LIMIT_REACHED waits as asked; 429, 5xx and no answer back off; other refusals need the user. */
export function classifyTusError(error: Error | DetailedError): TusFailure {
  const detailed = error as DetailedError;
  const res = detailed.originalResponse;
  const message = describeTusError(error);
  // A file system error (it carries the path) is the file's, not the network's: retrying will not help.
  const fsError = typeof (detailed.causingError as NodeJS.ErrnoException | undefined)?.path === 'string';
  if (!res) return { kind: 'failed', error: message, failure: isUnreachable(error) && !fsError ? 'transient' : 'fatal' };
  const status = res.getStatus();
  const body = (res.getBody() ?? '').toString();
  if (status === 413 && body.includes('RATE_LIMIT_REACHED')) {
    let retryIn: number | undefined;
    try {
      const n = (JSON.parse(body) as { info?: { retryIn?: unknown } }).info?.retryIn;
      if (typeof n === 'number') retryIn = n * 1000;
    } catch {
      // no JSON: wait the default
    }
    return { kind: 'failed', error: message, failure: 'rate-limit', ...(retryIn !== undefined ? { retryInMs: retryIn } : {}) };
  }
  if (status === 429 || status >= 500 || status === 409 || status === 423) return { kind: 'failed', error: message, failure: 'transient' };
  return { kind: 'failed', error: message, failure: 'fatal' };
}

/** A request was sent and no response came back at all (not a file read error, not an HTTP error). */
export function isUnreachable(error: Error | DetailedError): boolean {
  const detailed = error as DetailedError;
  return Boolean(detailed.originalRequest) && !detailed.originalResponse;
}

/** tus errors carry the HTTP exchange; keep what a user can act on (status and the server's body). */
export function describeTusError(error: Error | DetailedError): string {
  const detailed = error as DetailedError;
  const res = detailed.originalResponse;
  if (res) {
    const status = res.getStatus();
    const body = (res.getBody() ?? '').toString().slice(0, 200).trim();
    return `Upload failed: the server answered HTTP ${status}${body ? ` (${body})` : ''}.`;
  }
  const cause = detailed.causingError?.message;
  if (cause) return `Upload failed: ${cause}`;
  return `Upload failed: ${error.message}`;
}
