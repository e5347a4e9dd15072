// A signed request to an account endpoint as the SDKs send it: params (auth.key, auth.expires) and a
// sha384 signature, in the query for GET and as a urlencoded body otherwise. Tests only.
import { signParams } from '../auth/signature';
import type { LocalService } from '../index';
import { inOneHourIso } from './service-fixture';

export async function signedCall(
  service: Pick<LocalService, 'url' | 'authKey' | 'authSecret'>,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  params: Record<string, unknown> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const raw = JSON.stringify({ ...params, auth: { key: service.authKey, expires: inOneHourIso() } });
  const signature = signParams(raw, service.authSecret);
  const res =
    method === 'GET'
      ? await fetch(`${service.url}${path}?${new URLSearchParams({ params: raw, signature })}`)
      : await fetch(`${service.url}${path}`, { method, body: new URLSearchParams({ params: raw, signature }) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}
