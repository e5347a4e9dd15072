import { createHmac, timingSafeEqual } from 'node:crypto';

export type SignatureAlgo = 'sha1' | 'sha256' | 'sha384';

/** `<algo>:<hex>` for sha1/sha256/sha384, or a bare 40-hex legacy SHA-1 (service-facts.md §1). */
export function parseSignature(signature: string): { algo: SignatureAlgo; hex: string } | null {
  const s = signature.trim();
  const prefixed = /^(sha1|sha256|sha384):([0-9a-fA-F]+)$/i.exec(s);
  if (prefixed?.[1] && prefixed[2]) return { algo: prefixed[1].toLowerCase() as SignatureAlgo, hex: prefixed[2].toLowerCase() };
  if (/^[0-9a-fA-F]{40}$/.test(s)) return { algo: 'sha1', hex: s.toLowerCase() };
  return null;
}

export function signParams(rawParams: string, secret: string, algo: SignatureAlgo = 'sha384'): string {
  return `${algo}:${createHmac(algo, Buffer.from(secret, 'utf8')).update(Buffer.from(rawParams, 'utf8')).digest('hex')}`;
}

/** Verifies against the RAW params string: SDKs serialize differently, so never re-serialize. */
export function verifySignature(rawParams: string, signature: string, secret: string): boolean {
  const parsed = parseSignature(signature);
  if (!parsed) return false;
  const expected = Buffer.from(signParams(rawParams, secret, parsed.algo).slice(parsed.algo.length + 1), 'hex');
  const given = Buffer.from(parsed.hex, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * `auth.expires` as epoch ms. Accepts ISO-8601 and `YYYY/MM/DD HH:MM:SS+00:00`, leniently
 * (TransloaditKit sends unpadded seconds), so null only for values no SDK would produce.
 */
export function parseExpires(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const v = value.trim();
  const slash = /^(\d{4})[/-](\d{1,2})[/-](\d{1,2})[ T]+(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?\s*(?:\+00:?00|Z|GMT|UTC)?$/i.exec(v);
  if (slash && v.includes('/')) {
    const [y = NaN, mo = NaN, d = NaN, h = NaN, mi = NaN, se = NaN] = slash.slice(1, 7).map(Number);
    const ms = Date.UTC(y, mo - 1, d, h, mi, se);
    return Number.isFinite(ms) ? ms : null;
  }
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v)) {
    const ms = Date.parse(v);
    return Number.isFinite(ms) ? ms : null;
  }
  return null;
}
