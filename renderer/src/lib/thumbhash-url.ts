import { thumbHashToAverageRGBA, thumbHashToDataURL } from 'thumbhash';

// Thumbhash placeholders (a ~25-byte hash → a blurred PNG data: URL), decoded once per hash: a row
// scrolled back into view reuses its URL instead of decoding again.

const cache = new Map<string, string | null>();
const LIMIT = 5000;

/** The service's thumbhash (standard or URL-safe Base64) as bytes; null when it is not Base64. */
export function thumbhashBytes(hash: string): Uint8Array | null {
  try {
    const binary = atob(hash.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** A data: URL of the placeholder; null for a missing or undecodable hash (the row keeps its icon). */
export function thumbhashUrl(hash: string | null): string | null {
  if (!hash) return null;
  const hit = cache.get(hash);
  if (hit !== undefined) return hit;
  let url: string | null = null;
  const bytes = thumbhashBytes(hash);
  if (bytes && bytes.length >= 5) {
    try {
      url = thumbHashToDataURL(bytes);
    } catch {
      url = null;
    }
  }
  cache.set(hash, url);
  if (cache.size > LIMIT) cache.delete(cache.keys().next().value as string);
  return url;
}

const averages = new Map<string, string | null>();

/** The hash's average colour as a CSS colour: what a row shows at once, before even the placeholder image. */
export function thumbhashColour(hash: string | null): string | null {
  if (!hash) return null;
  const hit = averages.get(hash);
  if (hit !== undefined) return hit;
  let colour: string | null = null;
  const bytes = thumbhashBytes(hash);
  if (bytes && bytes.length >= 5) {
    try {
      const { r, g, b } = thumbHashToAverageRGBA(bytes);
      colour = `rgb(${Math.round(r * 255)} ${Math.round(g * 255)} ${Math.round(b * 255)})`;
    } catch {
      colour = null;
    }
  }
  averages.set(hash, colour);
  if (averages.size > LIMIT) averages.delete(averages.keys().next().value as string);
  return colour;
}
