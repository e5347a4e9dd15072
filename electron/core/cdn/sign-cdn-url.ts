import { createHmac } from 'node:crypto';

export type CdnParamValue = string | number | boolean | null | undefined | ReadonlyArray<string | number | boolean>;

export interface CdnUrlInput {
  workspace: string;
  template: string;
  /** The file path inside the Template's storage, e.g. `photos/sunset 2.jpg`. */
  input: string;
  authKey: string;
  authSecret: string;
  /** Milliseconds since the epoch (service-facts.md §2). */
  expiresAtMs: number;
  params?: Readonly<Record<string, CdnParamValue>>;
  /** `https://{workspace}.tlcdn.com` by default; a deployment's own CDN or `<endpoint>/file/{workspace}` otherwise. */
  baseUrl?: string;
}

/**
 * A signed content-delivery URL, byte for byte as the vendor's Node SDK (`getSignedSmartCdnUrl`) makes it:
 * path segments with encodeURIComponent; params appended in order (arrays one pair per element, null and
 * undefined left out), `auth_key` and `exp` set, a stable ascending sort by key, HMAC-SHA256 over
 * `{workspace}/{template}/{input}?{query}`, and `sig` appended last. Runs in core only: it needs the secret.
 */
export function signCdnUrl(o: CdnUrlInput): { url: string; stringToSign: string } {
  const workspace = encodeURIComponent(o.workspace);
  const template = encodeURIComponent(o.template);
  const input = encodeURIComponent(o.input);
  const q = new URLSearchParams();
  for (const [key, value] of Object.entries(o.params ?? {})) {
    if (value === null || value === undefined) continue;
    if (Array.isArray(value)) for (const v of value as ReadonlyArray<string | number | boolean>) q.append(key, `${v}`);
    else q.append(key, `${value as string | number | boolean}`);
  }
  q.set('auth_key', o.authKey);
  q.set('exp', String(o.expiresAtMs));
  q.sort();
  const stringToSign = `${workspace}/${template}/${input}?${q.toString()}`;
  const sig = `sha256:${createHmac('sha256', o.authSecret).update(stringToSign).digest('hex')}`;
  q.set('sig', sig);
  const base = (o.baseUrl ?? `https://${workspace}.tlcdn.com`).replace(/\/+$/, '');
  return { url: `${base}/${template}/${input}?${q.toString()}`, stringToSign };
}
