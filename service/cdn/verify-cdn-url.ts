import { createHmac, timingSafeEqual } from 'node:crypto';

export interface CdnRequest {
  workspace: string;
  template: string;
  input: string;
  /** The query without `sig`. */
  params: URLSearchParams;
  sig: string | null;
  authKey: string | null;
  expMs: number | null;
}

/** `/file/{workspace}/{template}/{input}?…` → its parts (segments decoded), or null for another path. */
export function parseCdnUrl(pathname: string, search: string): CdnRequest | null {
  const m = /^\/file\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(pathname);
  if (!m) return null;
  let segments: string[];
  try {
    segments = [m[1]!, m[2]!, m[3]!].map((s) => decodeURIComponent(s));
  } catch {
    return null;
  }
  const params = new URLSearchParams(search);
  const sig = params.get('sig');
  params.delete('sig');
  const exp = params.get('exp');
  return {
    workspace: segments[0]!,
    template: segments[1]!,
    input: segments[2]!,
    params,
    sig,
    authKey: params.get('auth_key'),
    expMs: exp !== null && /^\d+$/.test(exp) ? Number(exp) : exp === null ? null : NaN,
  };
}

/**
 * The string the signer signed (spec rule 5, service-facts.md §2): segments re-encoded, the query sorted
 * (stable, ascending by key), no `sig`; the `?` is left out when there are no parameters.
 */
export function cdnStringToSign(r: Pick<CdnRequest, 'workspace' | 'template' | 'input' | 'params'>): string {
  const q = new URLSearchParams(r.params);
  q.sort();
  const query = q.toString();
  const path = `${encodeURIComponent(r.workspace)}/${encodeURIComponent(r.template)}/${encodeURIComponent(r.input)}`;
  return query === '' ? path : `${path}?${query}`;
}

export function cdnSignatureMatches(r: CdnRequest, secret: string): boolean {
  const m = /^sha256:([0-9a-f]{64})$/i.exec(r.sig ?? '');
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(cdnStringToSign(r)).digest();
  const given = Buffer.from(m[1]!, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
