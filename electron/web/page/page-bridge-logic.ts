/** Pure helpers of the page bridge (no DOM), tested in Node. */

/** The header staging requests carry the launch token in (electron/web/access-policy.ts reads it). */
export const TOKEN_HEADER = 'x-assemblyline-token';
/** The bridge's WebSocket subprotocol; the token rides as a second one, `assemblyline-token.<t>` (browsers cannot set headers there). */
export const BRIDGE_PROTOCOL = 'assemblyline';
export const TOKEN_PROTOCOL_PREFIX = 'assemblyline-token.';

/** The token of a `#token=<t>` fragment (what the host prints and redirects to), or null. */
export function tokenFromFragment(hash: string): string | null {
  const match = /^#token=([A-Za-z0-9_-]{20,200})$/.exec(hash);
  return match ? (match[1] as string) : null;
}

/** 250 ms, 500 ms, 1 s, ... capped at 5 s, so a restarted host is found quickly without hammering it. */
export function nextBackoffMs(attempt: number): number {
  return Math.min(5_000, 250 * 2 ** Math.max(0, attempt - 1));
}

/** `PUT` target for one file; each segment is percent-encoded so names with `#`, `?` or `%` survive. */
export function encodeStagingUrl(batchId: string, relativePath: string): string {
  const segments = relativePath.split('/').filter((s) => s.length > 0);
  return `/staging/${encodeURIComponent(batchId)}/${segments.map(encodeURIComponent).join('/')}`;
}

/** Run `task` over `items` with at most `limit` running at once; results keep the input order. */
export async function mapLimit<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Run `task` over everything `source` yields, at most `limit` at once, without first collecting the
 * source (a folder walk streams into staging). Stops taking new items once `stopped()` says so.
 */
export async function forEachLimit<T>(
  source: AsyncIterable<T> | Iterable<T>,
  limit: number,
  task: (item: T) => Promise<void>,
  stopped: () => boolean = () => false,
): Promise<void> {
  const iterator = Symbol.asyncIterator in source ? source[Symbol.asyncIterator]() : toAsync(source[Symbol.iterator]());
  const worker = async () => {
    while (!stopped()) {
      const next = await iterator.next();
      if (next.done) return;
      await task(next.value);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker));
}

function toAsync<T>(iterator: Iterator<T>): AsyncIterator<T> {
  return { next: async () => iterator.next() };
}

/**
 * Keeps a busy loop from becoming a long task: `maybeYield()` gives the event loop a turn (a macrotask,
 * not a microtask) once `sliceMs` of work has passed since the last one.
 */
export function createYielder(sliceMs = 8, now: () => number = () => performance.now(), sleep: () => Promise<void> = () => new Promise((r) => setTimeout(r, 0))) {
  let last = now();
  return async function maybeYield(): Promise<void> {
    if (now() - last < sliceMs) return;
    await sleep();
    last = now();
  };
}

/** The top-level item a file belongs to: `photos` for `photos/sub/a.jpg`, the name for a loose file. */
export function rootSegmentOf(relativePath: string): string {
  return relativePath.split('/').find((s) => s.length > 0) ?? relativePath;
}
