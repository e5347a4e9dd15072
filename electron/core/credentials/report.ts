import type { CredentialCheck, CredentialTestReport } from '../../../shared/ipc/template-models';

export const LABELS: Readonly<Record<CredentialCheck['id'], string>> = {
  settings: 'Settings',
  reach: 'Reach the server',
  authenticate: 'Authenticate',
  read: 'Path readable',
  write: 'Path writable',
  support: 'Test from this app',
};

export const check = (id: CredentialCheck['id'], status: CredentialCheck['status'], message: string, code?: string): CredentialCheck => ({
  id,
  label: LABELS[id],
  status,
  message,
  ...(code ? { code } : {}),
});

/** The checks after a failure, marked as not tried so the list keeps its shape and says why. Pure. */
export const skipped = (ids: readonly CredentialCheck['id'][], because: string): CredentialCheck[] => ids.map((id) => check(id, 'skipped', `Not tried: ${because}.`));

export const report = (target: string, checks: CredentialCheck[], tested = true): CredentialTestReport => ({
  ok: checks.every((c) => c.status !== 'fail'),
  tested,
  target,
  checks,
});

/** A network error in words a user can act on (refused, unknown host, timeout…). Pure. */
export function describeNetworkError(error: unknown, where: string, timeoutMs: number): { message: string; code: string } {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } } | null;
  const code = e?.code ?? e?.cause?.code ?? (e && /timed? ?out/i.test(e.message ?? '') ? 'ETIMEDOUT' : undefined) ?? 'NETWORK_ERROR';
  const reason: Record<string, string> = {
    ECONNREFUSED: `nothing accepts connections on ${where} (connection refused): check the host and port`,
    ENOTFOUND: `the host name in ${where} does not resolve: check it for typos`,
    EAI_AGAIN: `the host name in ${where} could not be looked up (no DNS answer): check your network`,
    ETIMEDOUT: `${where} did not answer within ${Math.round(timeoutMs / 1000)} s: a firewall, or the wrong host or port`,
    EHOSTUNREACH: `${where} is unreachable from this computer (no route)`,
    ENETUNREACH: `the network of ${where} is unreachable from this computer`,
    ECONNRESET: `${where} closed the connection at once`,
  };
  return { message: `${reason[code] ?? `cannot connect to ${where}: ${e?.cause?.message ?? e?.message ?? String(error)}`}.`, code };
}
