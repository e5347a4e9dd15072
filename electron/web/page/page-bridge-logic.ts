/** Pure helpers of the page bridge (no DOM), tested in Node. */

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
