// Where an S3-compatible robot (/s3/*, /minio/*, /wasabi/*, /digitalocean/*, /backblaze/*, /cloudflare/*,
// /tigris/*) connects: the bucket, endpoint, region and keys, from Template credentials or from the step's
// own (dynamic) parameters. One family of robots, one resolver; each provider only differs in its
// parameter names and default endpoint. Pure.

import type { CredentialLookup } from '../robot-types';
import { connectionSource } from './connection-source';

export interface S3Target {
  bucket: string;
  region: string;
  /** `https://host[:port]` or `http://…`; undefined: the AWS SDK's own endpoint for the region. */
  endpoint: string | undefined;
  /** Path-style URLs (`host/bucket/key`) instead of virtual hosts (`bucket.host/key`). */
  pathStyle: boolean;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
  /** How result URLs start: `<prefix><path>`. */
  urlPrefix: string;
}

export const S3_PROVIDERS = ['s3', 'minio', 'wasabi', 'digitalocean', 'backblaze', 'cloudflare', 'tigris'] as const;
export type S3Provider = (typeof S3_PROVIDERS)[number];

/** `/wasabi/store` -> `wasabi`; null for a robot outside the family. */
export function s3ProviderOf(robot: string): S3Provider | null {
  const m = /^\/([a-z0-9]+)\/(store|import)$/.exec(robot);
  return m && (S3_PROVIDERS as readonly string[]).includes(m[1]!) ? (m[1] as S3Provider) : null;
}

const AWS_HOST = 's3.amazonaws.com';

interface ProviderRule {
  /** The step/credential keys that hold bucket, region, key and secret (the vendor's names per provider). */
  bucket: string;
  region?: string;
  key: string;
  secret: string;
  defaultRegion: string;
  /** The endpoint host when none is given; null: `host` is required. */
  defaultHost(region: string): string | null;
  pathStyle: boolean;
}

const PROVIDERS: Record<S3Provider, ProviderRule> = {
  s3: { bucket: 'bucket', region: 'bucket_region', key: 'key', secret: 'secret', defaultRegion: 'us-east-1', defaultHost: () => AWS_HOST, pathStyle: false },
  minio: { bucket: 'bucket', key: 'key', secret: 'secret', defaultRegion: 'us-east-1', defaultHost: () => null, pathStyle: true },
  wasabi: { bucket: 'bucket', region: 'bucket_region', key: 'key', secret: 'secret', defaultRegion: 'us-east-1', defaultHost: (r) => `s3.${r}.wasabisys.com`, pathStyle: false },
  digitalocean: { bucket: 'space', region: 'region', key: 'key', secret: 'secret', defaultRegion: 'nyc3', defaultHost: (r) => `${r}.digitaloceanspaces.com`, pathStyle: false },
  // B2's S3-compatible endpoint is per region (s3.<region>.backblazeb2.com); the vendor finds it with B2's own
  // API, the local service needs it named: `host`, or `bucket_region`.
  backblaze: { bucket: 'bucket', region: 'bucket_region', key: 'app_key_id', secret: 'app_key', defaultRegion: '', defaultHost: (r) => (r ? `s3.${r}.backblazeb2.com` : null), pathStyle: false },
  cloudflare: { bucket: 'bucket', key: 'key', secret: 'secret', defaultRegion: 'auto', defaultHost: () => null, pathStyle: true },
  tigris: { bucket: 'bucket', region: 'bucket_region', key: 'key', secret: 'secret', defaultRegion: 'auto', defaultHost: () => 'fly.storage.tigris.dev', pathStyle: false },
};

/** The parameter names of a provider's connection (for validation and for the editors). */
export function connectionKeys(provider: S3Provider): string[] {
  const p = PROVIDERS[provider];
  return [p.bucket, ...(p.region ? [p.region] : []), p.key, p.secret, 'host', 'no_vhost', 'session_token'];
}

/** The credential type a provider's robots take (`/digitalocean/store` → digitalocean). */
export const credentialTypeOf = (provider: S3Provider): string => provider;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** Keys that say where the keys go: with `credentials`, only the credentials set them. */
const DESTINATION_KEYS = ['host', 'no_vhost', 'bucket_region', 'region'];

/**
 * `host` as the vendor takes it: a bare host (HTTP, the vendor's default for custom hosts), or with
 * `https://` / `s3://` (HTTPS). Returns the endpoint URL, or a problem.
 */
export function endpointOf(host: string): { endpoint: string } | { problem: string } {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(host) ? host.replace(/^s3:\/\//i, 'https://') : `http://${host}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return { problem: `host "${host}" is not a host name` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `host "${host}" must be a host name, or start with https:// or s3://` };
  if (url.pathname !== '/' || url.search || url.hash || url.username || url.password) return { problem: `host "${host}" must be a host name (and port), without a path` };
  return { endpoint: `${url.protocol}//${url.host}` };
}

/** The connection an S3-family step uses, or the problem (a sentence without the robot's name). */
export function s3Target(robot: string, params: Record<string, unknown>, lookup: CredentialLookup): S3Target | string {
  const provider = s3ProviderOf(robot);
  if (!provider) return `${robot} is not an S3-compatible robot`;
  const rule = PROVIDERS[provider];
  const source = connectionSource(params, lookup, {
    type: credentialTypeOf(provider),
    destinationKeys: DESTINATION_KEYS,
    // The step may still choose the bucket (one credential often serves several) but not where its keys go.
    stepKeys: [rule.bucket],
    needs: `${rule.bucket}, ${rule.key}, ${rule.secret}`,
  });
  if (typeof source === 'string') return source;
  const bucket = str(source[rule.bucket]);
  const key = str(source[rule.key]);
  const secret = str(source[rule.secret]);
  if (!bucket || !key || !secret) {
    const missing = [!bucket && rule.bucket, !key && rule.key, !secret && rule.secret].filter(Boolean).join(', ');
    return `give "credentials" (a Template credentials name) or ${rule.bucket}, ${rule.key} and ${rule.secret} (missing: ${missing})`;
  }
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket)) return `${rule.bucket} "${bucket}" is not a valid bucket name (3–63 lowercase letters, digits, dots and hyphens)`;
  const region = (rule.region ? str(source[rule.region]) : undefined) ?? rule.defaultRegion;
  const host = str(source.host) ?? rule.defaultHost(region);
  if (!host) return `give "host" (the ${provider} endpoint${provider === 'backblaze' ? ', or bucket_region' : ''}), in the credentials or the step`;
  let endpoint: string | undefined;
  if (host !== AWS_HOST) {
    const e = endpointOf(host);
    if ('problem' in e) return e.problem;
    endpoint = e.endpoint;
  }
  const pathStyle = rule.pathStyle || source.no_vhost === true || (endpoint !== undefined && /^https?:\/\/(\d+\.\d+\.\d+\.\d+|\[[^\]]+\]|localhost)(:\d+)?$/i.test(endpoint));
  const base = endpoint ?? `https://${AWS_HOST}`;
  const urlPrefix = pathStyle ? `${base}/${bucket}/` : base.replace('://', `://${bucket}.`) + '/';
  const sessionToken = str(source.session_token);
  return { bucket, region: region || 'us-east-1', endpoint, pathStyle, accessKeyId: key, secretAccessKey: secret, ...(sessionToken ? { sessionToken } : {}), urlPrefix };
}

/** An object key's URL below a prefix: each path segment percent-encoded, slashes kept. */
export const objectUrl = (prefix: string, key: string): string =>
  prefix.replace(/\/?$/, '/') + key.split('/').map(encodeURIComponent).join('/');
