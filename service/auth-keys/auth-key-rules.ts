import type { SignatureAlgo } from '../auth/signature';

// Scopes an Auth Key may hold (spec "Auth Key", "Allowed scopes"): one list for service and app.
import { ALLOWED_SCOPES, scopesCover } from '../../shared/api/scopes';

export { ALLOWED_SCOPES };

const MAX_SCOPE = 512;
const MAX_DESCRIPTION = 255;
const ALGOS: readonly SignatureAlgo[] = ['sha1', 'sha256', 'sha384'];

/**
 * A scope string (comma- or space-separated) checked against the allowed list, duplicates dropped, in
 * the order given; a string is the problem. Empty means "no scopes".
 */
export function normalizeScope(raw: unknown): { scope: string } | string {
  if (typeof raw !== 'string') return 'scope must be a string of comma-separated scopes.';
  if (raw.length > MAX_SCOPE) return `scope is at most ${MAX_SCOPE} characters (got ${raw.length}).`;
  const parts = raw.split(/[\s,]+/).filter(Boolean);
  const unknown = parts.filter((p) => !(ALLOWED_SCOPES as readonly string[]).includes(p));
  if (unknown.length > 0) return `Unknown scope${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Allowed: ${ALLOWED_SCOPES.join(', ')}.`;
  return { scope: [...new Set(parts)].join(',') };
}

/** Max 255 characters, all in the Basic Multilingual Plane (no emoji and other astral characters). */
export function checkDescription(raw: unknown): string | null {
  if (typeof raw !== 'string') return 'description must be a string.';
  if (raw.length > MAX_DESCRIPTION) return `description is at most ${MAX_DESCRIPTION} characters.`;
  if (/[\uD800-\uDFFF]/.test(raw)) return 'description may only hold characters of the Basic Multilingual Plane (no emoji).';
  return null;
}

/** 0/1/true/false/"0"/"1" → boolean; undefined when absent; a string is the problem. */
export function flag(raw: unknown, name: string): boolean | undefined | string {
  if (raw === undefined) return undefined;
  if (raw === true || raw === 1 || raw === '1' || raw === 'true') return true;
  if (raw === false || raw === 0 || raw === '0' || raw === 'false') return false;
  return `${name} must be true or false (or 1 or 0).`;
}

/**
 * `signature_algo` on create and update (spec defaults): ordinary keys default to sha384; Smart CDN keys
 * accept only sha256 or null and default to null; on update, omitted keeps the current value, except that
 * enabling Smart CDN resets an incompatible value to null.
 */
export function resolveAlgo(
  raw: unknown,
  smartCdn: boolean,
  current: { algo: SignatureAlgo | null; smartCdn: boolean } | null,
): { algo: SignatureAlgo | null } | string {
  if (raw !== undefined) {
    if (raw === null || raw === '') {
      return { algo: null };
    }
    if (typeof raw !== 'string' || !(ALGOS as readonly string[]).includes(raw)) return 'signature_algo must be sha1, sha256 or sha384.';
    if (smartCdn && raw !== 'sha256') return 'A key allowed for Smart CDN signs with sha256 (or null).';
    return { algo: raw as SignatureAlgo };
  }
  if (!current) return { algo: smartCdn ? null : 'sha384' };
  if (smartCdn && current.algo !== null && current.algo !== 'sha256') return { algo: null };
  return { algo: current.algo };
}

/** Whether a key's scopes (null = every scope) cover what an endpoint needs. `read`/`write` cover all reads/writes. */
export const scopeAllows = (keyScope: string | null, needed: string): boolean => scopesCover(keyScope, needed);
