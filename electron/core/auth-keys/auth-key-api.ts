import { cdnUrlBase } from '../../../shared/api/cdn-url-base';
import { z } from 'zod';
import type { AuthKey, AuthKeyChange } from '../../../shared/ipc/template-models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import { signCdnUrl } from '../cdn/sign-cdn-url';
import { cdnScopeProblem, scopesAllowCdnSigning } from '../../../shared/api/scopes';

const recordSchema = z.looseObject({
  id: z.string(),
  auth_key: z.string().nullable(),
  description: z.string().nullable().optional(),
  is_active: z.boolean(),
  is_allowed_for_smartcdn: z.boolean(),
  scope: z.string().nullable().optional(),
  signature_algo: z.enum(['sha1', 'sha256', 'sha384']).nullable().optional(),
  can_show_auth_secret: z.boolean().optional(),
  created: z.string().nullable().optional(),
  modified: z.string().nullable().optional(),
  last_used: z.string().nullable().optional(),
});

/** Service record → renderer model. The record holds no secret; nothing else is copied. */
export const toAuthKey = (r: z.infer<typeof recordSchema>): AuthKey => ({
  id: r.id,
  authKey: r.auth_key ?? '',
  description: r.description ?? '',
  isActive: r.is_active,
  smartCdn: r.is_allowed_for_smartcdn,
  scopes: r.scope === null || r.scope === undefined ? null : r.scope.split(',').filter(Boolean),
  signatureAlgo: r.signature_algo ?? null,
  canShowSecret: r.can_show_auth_secret !== false,
  created: r.created ?? null,
  modified: r.modified ?? null,
  lastUsed: r.last_used ?? null,
});

const bad = (what: string): Result<never> => err(AppErrorCode.invalidResponse, `The service sent an unexpected ${what}.`);

/** The params of a create or update (spec "Create and update request fields"). */
const changeParams = (c: AuthKeyChange): Record<string, unknown> => ({
  ...(c.description !== undefined ? { description: c.description } : {}),
  ...(c.scopes !== undefined && c.scopes !== null ? { scope: c.scopes.join(',') } : {}),
  ...(c.smartCdn !== undefined ? { is_allowed_for_smartcdn: c.smartCdn ? 1 : 0 } : {}),
  ...(c.signatureAlgo !== undefined ? { signature_algo: c.signatureAlgo } : {}),
  ...(c.isActive !== undefined ? { is_active: c.isActive ? 1 : 0 } : {}),
});

const one = (body: Record<string, unknown>): Result<AuthKey> => {
  const parsed = recordSchema.safeParse(body.auth_key);
  return parsed.success ? ok(toAuthKey(parsed.data)) : bad('Auth Key record');
};

export async function listAuthKeys(api: ApiClient): Promise<Result<AuthKey[]>> {
  const res = await api.request('GET', '/auth_keys');
  if (!res.ok) return res;
  const parsed = z.array(recordSchema).safeParse(res.value.auth_keys);
  return parsed.success ? ok(parsed.data.map(toAuthKey)) : bad('Auth Key list');
}

export async function listScopes(api: ApiClient): Promise<Result<string[]>> {
  const res = await api.request('GET', '/auth_keys/scopes');
  if (!res.ok) return res;
  const parsed = z.array(z.string()).safeParse(res.value.scopes);
  return parsed.success ? ok(parsed.data) : bad('scope list');
}

/** Creates a key. Its secret comes back once; core drops it (copy or rotation reads it again when needed). */
export async function createAuthKey(api: ApiClient, change: AuthKeyChange): Promise<Result<AuthKey>> {
  const res = await api.request('POST', '/auth_keys', changeParams(change));
  return res.ok ? one(res.value) : res;
}

export async function updateAuthKey(api: ApiClient, id: string, change: AuthKeyChange): Promise<Result<AuthKey>> {
  const res = await api.request('PUT', `/auth_keys/${encodeURIComponent(id)}`, changeParams(change));
  return res.ok ? one(res.value) : res;
}

export async function deleteAuthKey(api: ApiClient, id: string): Promise<Result<Record<string, never>>> {
  const res = await api.request('DELETE', `/auth_keys/${encodeURIComponent(id)}`);
  return res.ok ? ok({}) : res;
}

/** The secret of a key, for core's own use only (signing); never returned over the bridge. */
export async function secretOfKey(api: ApiClient, id: string): Promise<Result<{ authKey: string; secret: string }>> {
  const res = await api.request('POST', `/auth_keys/${encodeURIComponent(id)}/show_secret`);
  if (!res.ok) return res;
  const parsed = z.object({ auth_key: z.string(), auth_secret: z.string() }).safeParse(res.value);
  return parsed.success ? ok({ authKey: parsed.data.auth_key, secret: parsed.data.auth_secret }) : bad('secret answer');
}

/**
 * A signed content-delivery URL with a key allowed for it. Against the local service the URL points at
 * its `/file/{workspace}` endpoint; elsewhere at `https://{workspace}.tlcdn.com`.
 */
export async function signCdnUrlWithKey(
  api: ApiClient,
  o: { keyId: string; workspaceSlug: string; template: string; input: string; params: Record<string, string>; expiresAtMs: number; local: boolean },
): Promise<Result<{ url: string }>> {
  const keys = await listAuthKeys(api);
  if (!keys.ok) return keys;
  const key = keys.value.find((k) => k.id === o.keyId);
  if (!key) return err('AUTH_KEYS_NOT_FOUND', `No Auth Key with id ${o.keyId}.`);
  if (!key.smartCdn) return err('CDN_AUTH_KEY_NOT_ALLOWED', `The key ${key.authKey} is not allowed for content delivery: turn on "Smart CDN" for it first.`);
  if (!key.isActive) return err('AUTH_KEY_INACTIVE', `The key ${key.authKey} is inactive.`);
  // The service would refuse every URL it signs (403 CDN_AUTH_KEY_NOT_ALLOWED): say so before signing.
  if (!scopesAllowCdnSigning(key.scopes)) return err('CDN_AUTH_KEY_NOT_ALLOWED', cdnScopeProblem(key.authKey, key.scopes ?? []));
  const secret = await secretOfKey(api, o.keyId);
  if (!secret.ok) return secret;
  const { url } = signCdnUrl({
    workspace: o.workspaceSlug,
    template: o.template,
    input: o.input,
    authKey: secret.value.authKey,
    authSecret: secret.value.secret,
    expiresAtMs: o.expiresAtMs,
    params: o.params,
    // The local service serves them itself: the Local workspace, or any endpoint on this computer.
    baseUrl: cdnUrlBase({ endpoint: api.endpoint, slug: o.workspaceSlug, local: o.local }),
  });
  return ok({ url });
}
