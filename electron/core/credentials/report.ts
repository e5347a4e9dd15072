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

export { describeNetworkError } from '../security/probe-words';
