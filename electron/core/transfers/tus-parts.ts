// Sending one large file as parallel tus parts (tus concatenation) where a deployment offers it: the part
// count for a file, the parts' byte ranges, how the parts' upload URLs are kept in the queue's one
// `uploadUrl` column (so a restart resumes each part), and whether a tus endpoint offers concatenation.
// Pure apart from `concatenationProbe`.

export interface ParallelPolicy {
  /** Parts per file (1 = never). */
  parts: number;
  /** Files from this size on go in parts. */
  minBytes: number;
  /**
   * Also to a loopback deployment (the embedded service). Off by default: parts fill long fat links, where
   * one TCP stream cannot; on loopback there is no link to fill and the service's join costs a pass over
   * the file (bench:tus-concat), so one stream is faster there.
   */
  loopback: boolean;
}

export const DEFAULT_PARALLEL: ParallelPolicy = { parts: 4, minBytes: 64 * 1024 * 1024, loopback: false };

/** tus-js-client allows parts of any size; a part under this is not worth a request of its own. */
const MIN_PART_BYTES = 1024 * 1024;
const MAX_PARTS = 16;

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const isLoopbackUrl = (url: string): boolean => {
  try {
    const h = new URL(url).hostname;
    return LOOPBACK_HOSTS.has(h) || h.startsWith('127.');
  } catch {
    return false;
  }
};

/** How many parts a file of `size` bytes to `tusUrl` goes in (1: one stream), before asking the deployment. Pure. */
export function plannedParts(size: number, tusUrl: string, policy: ParallelPolicy): number {
  if (policy.parts <= 1 || size < policy.minBytes) return 1;
  if (!policy.loopback && isLoopbackUrl(tusUrl)) return 1;
  return Math.max(1, Math.min(MAX_PARTS, policy.parts, Math.floor(size / MIN_PART_BYTES)));
}

/** `parts` contiguous ranges [start, end) covering [0, size), the first ones one byte longer where it does not divide. Pure. */
export function partRanges(size: number, parts: number): { start: number; end: number }[] {
  const n = Math.max(1, Math.min(parts, Math.max(1, size)));
  const base = Math.floor(size / n);
  const extra = size % n;
  const out: { start: number; end: number }[] = [];
  let start = 0;
  for (let i = 0; i < n; i++) {
    const end = start + base + (i < extra ? 1 : 0);
    out.push({ start, end });
    start = end;
  }
  return out;
}

const PARTS_PREFIX = 'tus-parts:';

/** The parts' upload URLs (null: not created yet) as the one stored `uploadUrl` value. Pure. */
export const encodeParts = (urls: readonly (string | null)[]): string => `${PARTS_PREFIX}${JSON.stringify(urls)}`;

/** The parts' URLs of a stored `uploadUrl`, or null when it is a single upload's URL (or none). Pure. */
export function decodeParts(stored: string | null): (string | null)[] | null {
  if (!stored?.startsWith(PARTS_PREFIX)) return null;
  try {
    const v = JSON.parse(stored.slice(PARTS_PREFIX.length)) as unknown;
    if (!Array.isArray(v) || v.length < 2 || !v.every((u) => u === null || typeof u === 'string')) return null;
    return v as (string | null)[];
  } catch {
    return null;
  }
}

/** A stored `uploadUrl` with every URL in it mapped (a loopback service that came back on another port). Pure. */
export function mapUploadUrls(stored: string, map: (url: string) => string): string {
  const parts = decodeParts(stored);
  return parts ? encodeParts(parts.map((u) => (u === null ? null : map(u)))) : map(stored);
}

/** Whether a tus endpoint lists `concatenation` in its OPTIONS answer; false when it cannot be asked. */
export async function concatenationProbe(tusUrl: string, timeoutMs = 10_000, doFetch: typeof fetch = fetch): Promise<boolean> {
  try {
    const res = await doFetch(tusUrl, { method: 'OPTIONS', headers: { 'Tus-Resumable': '1.0.0' }, signal: AbortSignal.timeout(timeoutMs) });
    const extensions = (res.headers.get('tus-extension') ?? '').split(',').map((e) => e.trim());
    return res.ok && extensions.includes('concatenation');
  } catch {
    return false;
  }
}

/** tus `Upload-Metadata`: comma-joined `key base64(value)` pairs. Pure. */
export const encodeMetadata = (fields: Record<string, string>): string =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v, 'utf8').toString('base64')}`)
    .join(',');
