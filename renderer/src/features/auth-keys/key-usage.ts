import type { Workspace } from '../../../../shared/ipc/models';

const sameEndpoint = (a: string, b: string) => a.replace(/\/+$/, '').toLowerCase() === b.replace(/\/+$/, '').toLowerCase();

/**
 * The workspaces of this app that sign with a key of the account the Auth Keys screen shows (the one
 * `listedFor` reaches): same endpoint, same Auth Key. The current workspace first.
 */
export function workspacesUsingKey(authKey: string, workspaces: readonly Workspace[], listedFor: Workspace | undefined): Workspace[] {
  if (!listedFor) return [];
  return workspaces
    .filter((w) => w.authKey === authKey && sameEndpoint(w.endpoint, listedFor.endpoint))
    .sort((a, b) => Number(b.id === listedFor.id) - Number(a.id === listedFor.id));
}

export type KeyChange = 'deactivate' | 'delete';

/** The confirm button's words: plain about what the current workspace loses. */
export function keyChangeLabel(change: KeyChange, currentLosesAccess: boolean): string {
  const verb = change === 'deactivate' ? 'Deactivate' : 'Delete';
  return currentLosesAccess ? `${verb} — this workspace will lose access` : `${verb} key`;
}

/** Whether a key's scopes (null = all) let this screen list and change keys. */
export const canManageKeys = (scopes: readonly string[] | null): boolean =>
  scopes === null || ((scopes.includes('auth_keys:read') || scopes.includes('read')) && (scopes.includes('auth_keys:write') || scopes.includes('write')));
