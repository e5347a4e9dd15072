import { describe, expect, it } from 'vitest';
import type { Workspace } from '../../../../shared/ipc/models';
import { canManageKeys, keyChangeLabel, workspacesUsingKey } from './key-usage';

const ws = (id: string, endpoint: string, authKey: string): Workspace => ({
  id,
  name: id,
  kind: id === 'local' ? 'local' : 'remote',
  endpoint,
  authKey,
  hasSecret: true,
  slug: '',
  authMode: 'signature',
  signatureAlgo: 'sha384',
  tokenScopes: null,
  accessProblem: null,
});

describe('workspacesUsingKey', () => {
  const local = ws('local', 'http://127.0.0.1:4000', 'k1');
  const sameAccount = ws('alias', 'http://127.0.0.1:4000/', 'k1');
  const otherKey = ws('other', 'http://127.0.0.1:4000', 'k2');
  const otherDeployment = ws('prod', 'https://api2.example.com', 'k1');

  it('names every workspace signing with the key at the same endpoint, the current one first', () => {
    expect(workspacesUsingKey('k1', [sameAccount, otherKey, otherDeployment, local], local).map((w) => w.id)).toEqual(['local', 'alias']);
  });

  it('a key nobody here signs with has no users; nothing is listed before the workspaces are known', () => {
    expect(workspacesUsingKey('k3', [local, otherKey], local)).toEqual([]);
    expect(workspacesUsingKey('k1', [local], undefined)).toEqual([]);
  });

  it('says plainly when the current workspace loses access', () => {
    expect(keyChangeLabel('deactivate', true)).toBe('Deactivate — this workspace will lose access');
    expect(keyChangeLabel('delete', false)).toBe('Delete key');
  });
});

describe('canManageKeys', () => {
  it('needs reading and writing keys (auth_keys:* or read/write); every scope will do', () => {
    expect(canManageKeys(null)).toBe(true);
    expect(canManageKeys(['read', 'write'])).toBe(true);
    expect(canManageKeys(['auth_keys:read', 'auth_keys:write'])).toBe(true);
    expect(canManageKeys(['auth_keys:read'])).toBe(false);
    expect(canManageKeys(['assemblies:write', 'templates:read'])).toBe(false);
  });
});
