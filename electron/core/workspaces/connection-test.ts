import type { ConnectionCheck, ConnectionReport } from '../../../shared/ipc/workspace-models';
import type { AppError } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import { mintClientCredentials } from '../auth/client-credentials';
import { describeHttpStatus } from '../security/probe-words';
import { tlsProblem, transportFor } from '../net/transport';
import { createWorkspaceClient } from './workspace-client';
import type { StoredWorkspace } from './workspace-store';

/** The read each screen needs, probed to tell the user which screens a key's scopes leave dark. */
export const SCREEN_PROBES = [
  { scope: 'templates:read', screen: 'Templates', path: '/templates?pagesize=1' },
  { scope: 'template_credentials:read', screen: 'Credentials', path: '/template_credentials' },
  { scope: 'auth_keys:read', screen: 'Auth Keys', path: '/auth_keys' },
  { scope: 'assemblies:read', screen: 'Activity, Statistics', path: '/assemblies?pagesize=1' },
  // Any month proves the scope; this one exists on every deployment.
  { scope: 'billing:read', screen: 'Usage', path: `/bill/${new Date().toISOString().slice(0, 7)}` },
] as const;

const SKEW_WARN_S = 30;

export interface ConnectionTestInput {
  workspace: StoredWorkspace;
  secret: string | null;
  getRefreshToken?: () => Promise<string | null>;
  setRefreshToken?: (token: string) => Promise<void>;
  fetch?: typeof fetch;
  clock?: () => number;
  /**
   * The app's own client of a saved browser sign-in: a second token broker refreshing the same refresh
   * token at the same time would look like token theft to the service and end the sign-in.
   */
  api?: ApiClient;
}

const describeSkew = (s: number): string => {
  const amount = Math.abs(s) >= 120 ? `${Math.round(Math.abs(s) / 60)} minutes` : `${Math.round(Math.abs(s))} seconds`;
  return `This computer's clock is ${amount} ${s > 0 ? 'behind' : 'ahead of'} the service`;
};

/**
 * "Test connection": reach, key, secret, clock, token and scopes, each told apart so the user learns
 * exactly what is wrong. Nothing is written on the service.
 */
export async function testConnection(input: ConnectionTestInput): Promise<ConnectionReport> {
  const { workspace: w } = input;
  // The workspace's CA file counts here as in every request of it.
  const doFetch = input.fetch ?? transportFor(w.caPem).fetch;
  const fetchDep = { fetch: doFetch };
  const clock = input.clock ?? Date.now;
  const checks: ConnectionCheck[] = [];
  const add = (c: ConnectionCheck) => checks.push(c);
  const report = (skewSeconds: number | null): ConnectionReport => ({ ok: checks.every((c) => c.status !== 'fail'), checks, skewSeconds });

  // 1. Reach: any HTTP answer will do; its Date header gives the clock check for free.
  let skewSeconds: number | null = null;
  try {
    const before = clock();
    const response = await doFetch(`${w.endpoint.replace(/\/+$/, '')}/`, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    await response.body?.cancel();
    const date = response.headers.get('date');
    const serverMs = date ? Date.parse(date) : NaN;
    if (Number.isFinite(serverMs)) skewSeconds = Math.round((serverMs - (before + clock()) / 2) / 1000);
    add({ id: 'reach', label: 'Reach the service', status: 'ok', message: `${w.endpoint} answered (HTTP ${response.status}).` });
  } catch (cause) {
    const tls = tlsProblem(cause, w.endpoint);
    if (tls) {
      add({ id: 'reach', label: 'Reach the service', status: 'fail', message: tls.message, code: tls.code });
      return report(null);
    }
    // The error's code, not its text: that may quote the other side (a certificate's names).
    const reason = (cause as { cause?: { code?: string } } | null)?.cause?.code ?? ((cause as Error | null)?.name === 'TimeoutError' ? 'timed out' : 'NETWORK_ERROR');
    add({ id: 'reach', label: 'Reach the service', status: 'fail', message: `Cannot reach ${w.endpoint}: ${reason}. Check the address and your network.`, code: 'NETWORK_ERROR' });
    return report(null);
  }
  if (skewSeconds !== null && Math.abs(skewSeconds) > SKEW_WARN_S) {
    // The app signs by the service's time (net/server-clock.ts), so a skew alone refuses nothing of its
    // own; the signed probe below turns this into a failure if the service still refuses the expiry.
    add({
      id: 'clock',
      label: 'Clock',
      status: 'warn',
      message: `${describeSkew(skewSeconds)}. Signed requests carry an expiry time: the app signs them by the service's time, but other programs and sign-ins use this clock, so set it automatically in the system settings.`,
    });
  } else {
    add({ id: 'clock', label: 'Clock', status: 'ok', message: skewSeconds === null ? 'The service sent no time to compare with.' : 'In step with the service.' });
  }

  const api = input.api ?? createWorkspaceClient(w, {
    getSecret: async () => input.secret,
    ...(input.getRefreshToken ? { getRefreshToken: input.getRefreshToken } : {}),
    ...(input.setRefreshToken ? { setRefreshToken: input.setRefreshToken } : {}),
    ...fetchDep,
    clock,
    maxRetries: 0,
    timeoutMs: 15_000,
  }).api;

  // 2. Key and secret, with one signed read (or, for a browser sign-in, the refresh grant).
  if (w.authMode !== 'browser') {
    if (!input.secret) {
      add({ id: 'secret', label: 'Auth Secret', status: 'fail', message: 'No Auth Secret is stored for this workspace: type it in.' });
      return report(skewSeconds);
    }
    const signedApi = createWorkspaceClient({ ...w, authMode: 'signature' }, { getSecret: async () => input.secret, clock, maxRetries: 0, ...fetchDep }).api;
    const probe = await signedApi.request('GET', SCREEN_PROBES[0].path);
    const code = probe.ok ? null : probe.error.code;
    if (probe.ok || code === 'INSUFFICIENT_AUTH_SCOPE') {
      add({ id: 'key', label: 'Auth Key', status: 'ok', message: `The service knows ${w.authKey} and it is active.` });
      add({ id: 'secret', label: 'Auth Secret', status: 'ok', message: 'Signed requests are accepted.' });
    } else if (code === 'GET_ACCOUNT_UNKNOWN_AUTH_KEY') {
      add({ id: 'key', label: 'Auth Key', status: 'fail', message: `The service does not know the Auth Key ${w.authKey}: check it for typos, or pick the right deployment.`, code });
      return report(skewSeconds);
    } else if (code === 'AUTH_KEY_INACTIVE') {
      add({ id: 'key', label: 'Auth Key', status: 'fail', message: `The Auth Key ${w.authKey} is inactive: reactivate it on the Auth Keys screen of a workspace that can, or use another key.`, code });
      return report(skewSeconds);
    } else if (code === 'INVALID_SIGNATURE') {
      add({ id: 'key', label: 'Auth Key', status: 'ok', message: `The service knows ${w.authKey}.` });
      add({ id: 'secret', label: 'Auth Secret', status: 'fail', message: `The Auth Secret does not belong to ${w.authKey}, or the key signs with another algorithm: the signature was refused (${probe.ok ? '' : probe.error.message}).`, code });
      return report(skewSeconds);
    } else if (code === 'AUTH_EXPIRED') {
      add({ id: 'key', label: 'Auth Key', status: 'ok', message: `The service knows ${w.authKey}.` });
      add({ id: 'secret', label: 'Auth Secret', status: 'ok', message: 'The signature matched.' });
      const clockCheck = checks.find((c) => c.id === 'clock')!;
      Object.assign(clockCheck, { status: 'fail', code, message: `The service refused the request as expired: ${skewSeconds !== null ? describeSkew(skewSeconds) : "this computer's clock is wrong"}. Set the clock automatically in the system settings.` });
      return report(skewSeconds);
    } else {
      add(failure('key', 'Auth Key', probe.ok ? null : probe.error));
      return report(skewSeconds);
    }
  }

  // 3. Tokens, when the workspace uses them.
  if (w.authMode === 'bearer') {
    const minted = await mintClientCredentials({ endpoint: w.endpoint, authKey: w.authKey, authSecret: input.secret!, scopes: w.tokenScopes, now: clock, ...fetchDep });
    add(
      minted.ok
        ? { id: 'token', label: 'Bearer token', status: 'ok', message: `Minted a token with ${minted.value.scopes.join(', ') || 'every scope of the key'}, valid ${Math.round((minted.value.expiresAtMs - clock()) / 60_000)} minutes.` }
        : { id: 'token', label: 'Bearer token', status: 'fail', message: `POST /token refused: ${minted.error.message}`, code: minted.error.code },
    );
  }

  // 4. Scopes: which screens the key (or the token limit) leaves without data.
  const missing: string[] = [];
  for (const probe of SCREEN_PROBES) {
    const answer = await api.request('GET', probe.path);
    if (answer.ok) continue;
    if (answer.error.code === 'INSUFFICIENT_AUTH_SCOPE') missing.push(`${probe.scope} (${probe.screen})`);
    else if (w.authMode === 'browser' || probe === SCREEN_PROBES[0]) {
      add(failure(w.authMode === 'browser' ? 'token' : 'scopes', w.authMode === 'browser' ? 'Browser sign-in' : 'Scopes', answer.error));
      return report(skewSeconds);
    }
  }
  add(
    missing.length === 0
      ? { id: 'scopes', label: 'Scopes', status: 'ok', message: 'Every screen can load its data.' }
      : { id: 'scopes', label: 'Scopes', status: 'warn', code: 'INSUFFICIENT_AUTH_SCOPE', message: `Missing scope${missing.length > 1 ? 's' : ''} ${missing.join(', ')}: ${missing.length > 1 ? 'those screens' : 'that screen'} will not load.` },
  );
  return report(skewSeconds);
}

function failure(id: ConnectionCheck['id'], label: string, error: AppError | null): ConnectionCheck {
  return { id, label, status: 'fail', message: error ? ownWords(error) : 'Unexpected answer.', ...(error ? { code: error.code } : {}) };
}

/**
 * The page names the endpoint it tests: an answer that is not the API's (an HTML page, any text) is
 * described, never repeated, so the test cannot read internal hosts (security/probe-words.ts).
 */
function ownWords(error: AppError): string {
  if (!/with a body that is not JSON/.test(error.message)) return error.message;
  const status = error.httpCode ?? 0;
  return `The address answered ${describeHttpStatus(status)}, but not as the Media Processing API (no JSON): check the endpoint.`;
}
