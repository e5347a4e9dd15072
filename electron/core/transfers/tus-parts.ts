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

/** A piece is about this big: the file is cut into more pieces than lanes, sent in order (tus-parallel.ts). */
export const PIECE_BYTES = 16 * 1024 * 1024;
/** Pieces per file at most (the service takes (files + 8) × 32 partial uploads per Assembly). */
const MAX_PIECES = 32;
/** The first this many pieces grow from a quarter of a piece to a whole one, so the lanes finish one after another. */
const STAGGER = 4;

/** How many pieces a file of `size` bytes sent over `lanes` connections is cut into: at least one per lane. Pure. */
export const plannedPieces = (size: number, lanes: number): number => Math.max(lanes, Math.min(MAX_PIECES, Math.round(size / PIECE_BYTES), Math.max(1, size)));

/**
 * `pieces` contiguous ranges covering [0, size): the first STAGGER grow (¼, ½, ¾, 1 of the others), so lanes
 * that start together finish one after another and the service, and the md5 here, can follow the file in
 * order while it is sent instead of after the last byte. A function of (size, pieces) only: a resume cuts
 * the same ranges. Pure.
 */
export function staggeredRanges(size: number, pieces: number): { start: number; end: number }[] {
  const n = Math.max(1, Math.min(pieces, Math.max(1, size)));
  const weights = Array.from({ length: n }, (_, i) => (i < STAGGER ? i + 1 : STAGGER));
  const total = weights.reduce((a, b) => a + b, 0);
  const out: { start: number; end: number }[] = [];
  let start = 0;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    sum += weights[i]!;
    // Never an empty piece: each ends at least a byte after it starts (n ≤ size).
    const end = i === n - 1 ? size : Math.max(start + 1, Math.min(size - (n - 1 - i), Math.floor((size * sum) / total)));
    out.push({ start, end });
    start = end;
  }
  return out;
}

const PARTS_PREFIX = 'tus-parts:';
/** Pieces cut by staggeredRanges; `tus-parts:` values (equal parts, partRanges) are resumed as they were cut. */
const PIECES_PREFIX = 'tus-pieces:';

/** The parts' upload URLs (null: not created yet) as the one stored `uploadUrl` value. Pure. */
export const encodeParts = (urls: readonly (string | null)[], staggered = false): string => `${staggered ? PIECES_PREFIX : PARTS_PREFIX}${JSON.stringify(urls)}`;

/** Whether a stored `uploadUrl` holds pieces cut by staggeredRanges. Pure. */
export const isStaggered = (stored: string | null): boolean => stored?.startsWith(PIECES_PREFIX) ?? false;

/** The parts' URLs of a stored `uploadUrl`, or null when it is a single upload's URL (or none). Pure. */
export function decodeParts(stored: string | null): (string | null)[] | null {
  const prefix = stored?.startsWith(PIECES_PREFIX) ? PIECES_PREFIX : PARTS_PREFIX;
  if (!stored?.startsWith(prefix)) return null;
  try {
    const v = JSON.parse(stored.slice(prefix.length)) as unknown;
    if (!Array.isArray(v) || v.length < 2 || !v.every((u) => u === null || typeof u === 'string')) return null;
    return v as (string | null)[];
  } catch {
    return null;
  }
}

/** A stored `uploadUrl` with every URL in it mapped (a loopback service that came back on another port). Pure. */
export function mapUploadUrls(stored: string, map: (url: string) => string): string {
  const parts = decodeParts(stored);
  return parts ? encodeParts(parts.map((u) => (u === null ? null : map(u))), isStaggered(stored)) : map(stored);
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
