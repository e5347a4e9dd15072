import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type AccountRow, type ServiceDatabase } from '../store/database';
import { isFullScope, pickOwnKey, restoreFullAccess } from './own-key';

const key = (authKey: string, over: Partial<AccountRow> = {}): AccountRow => ({ authKey, authSecret: `${authKey}-secret`, requireSignature: false, ...over });

describe('pickOwnKey: the key the service reports as its own', () => {
  it('takes the oldest active full-access key, even when a narrower active key is older', () => {
    const chosen = pickOwnKey([key('narrow', { scope: 'templates:read' }), key('full-off', { scope: null, isActive: false }), key('full', { scope: 'read,write,smart_cdn:sign' })]);
    expect(chosen).toEqual({ account: expect.objectContaining({ authKey: 'full' }), problem: null });
  });

  it('never a narrower key in silence: an inactive full-access key comes with the reason', () => {
    const chosen = pickOwnKey([key('own', { isActive: false }), key('narrow', { scope: 'assemblies:write' })]);
    expect(chosen.account?.authKey).toBe('own');
    expect(chosen.problem).toMatch(/full-access key own… is inactive/);
  });

  it('with no full-access key at all, names the narrower one it falls back to and what it holds', () => {
    const chosen = pickOwnKey([key('narrow', { scope: 'assemblies:write,templates:read' })]);
    expect(chosen.account?.authKey).toBe('narrow');
    expect(chosen.problem).toMatch(/no key with every scope.*assemblies:write,templates:read/);
    expect(pickOwnKey([])).toEqual({ account: null, problem: null });
  });

  it('full scope means every allowed scope (null, or read + write + smart_cdn:sign)', () => {
    expect(isFullScope(null)).toBe(true);
    expect(isFullScope(undefined)).toBe(true);
    expect(isFullScope('read,write,smart_cdn:sign')).toBe(true);
    expect(isFullScope('read,write')).toBe(false);
    expect(isFullScope('')).toBe(false);
  });
});

describe('restoreFullAccess (only through the process that owns the data dir)', () => {
  let dir = '';
  let db: ServiceDatabase | null = null;
  afterEach(async () => {
    db?.close();
    await rm(dir, { recursive: true, force: true });
  });
  const open = async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'al-own-key-'));
    db = openDatabase(dir);
    return db;
  };

  it('leaves an active full-access key as it is, reactivates the preferred inactive one, or creates one', async () => {
    const d = await open();
    d.upsertAccount(key('a'.repeat(32), { isActive: false }));
    d.upsertAccount(key('b'.repeat(32), { isActive: false }));
    d.upsertAccount(key('c'.repeat(32), { scope: 'templates:read' }));
    const reactivated = restoreFullAccess(d, 'b'.repeat(32));
    expect([reactivated.action, reactivated.account.authKey, reactivated.account.isActive]).toEqual(['reactivated', 'b'.repeat(32), true]);
    expect(restoreFullAccess(d, null).action).toBe('unchanged');

    d.deleteAccount('a'.repeat(32));
    d.deleteAccount('b'.repeat(32));
    const created = restoreFullAccess(d, 'b'.repeat(32));
    expect(created.action).toBe('created');
    expect(created.account).toMatchObject({ isActive: true, scope: null, signatureAlgo: 'sha384' });
    expect(d.allAccounts()).toHaveLength(2);
  });
});
