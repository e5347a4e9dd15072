import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKeyringSecretStore } from './keyring-secret-store';
import { createUnavailableSecretStore } from './unavailable-secret-store';
import { createVault } from './vault';

// Run inside `scripts/with-keyring.sh` (dbus-run-session + unlocked gnome-keyring) the OS keyring is
// real and must work; run plain, there is no session bus and the probe must say so, never "fine".
const keyringExpected = Boolean(process.env.DBUS_SESSION_BUS_ADDRESS);
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-vault-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('keyring secret store (real OS keyring)', () => {
  it(keyringExpected ? 'proves the keyring works with a round trip' : 'reports that no keyring is available', async () => {
    const store = createKeyringSecretStore('assemblyline-test');
    const status = await store.probe();
    if (keyringExpected) {
      expect(status).toEqual({ backend: 'os-keyring', secure: true, detail: expect.any(String) });
      const account = `acct-${Date.now()}`;
      await store.set(account, 's3cret-ü');
      expect(await store.get(account)).toBe('s3cret-ü');
      await store.delete(account);
      expect(await store.get(account)).toBeNull();
    } else {
      expect(status.backend).toBe('none');
      expect(status.secure).toBe(false);
      expect(status.detail).toMatch(/^No OS keyring is available \(.+\)\.$/);
    }
  });

  it('keeps secrets through the vault when the keyring is secure, and refuses otherwise', async () => {
    const vault = await createVault({ secure: createKeyringSecretStore('assemblyline-test'), dir: path.join(dir, 'k') });
    const result = await vault.set('ws-1', 'abc');
    if (keyringExpected) {
      expect(result).toEqual({ ok: true, value: undefined });
      expect(await vault.get('ws-1')).toBe('abc');
      expect((await vault.status()).secure).toBe(true);
      expect(await vault.delete('ws-1')).toEqual({ ok: true, value: undefined });
    } else {
      expect(result.ok).toBe(false);
      expect(await vault.get('ws-1')).toBeNull();
    }
  });
});

describe('vault without a secure backend', () => {
  it('refuses to store a secret until the user accepts an unprotected store', async () => {
    const vaultDir = path.join(dir, 'v1');
    const vault = await createVault({ secure: createUnavailableSecretStore('No OS keyring is available (test).'), dir: vaultDir });
    expect(await vault.status()).toEqual({ backend: 'none', secure: false, detail: 'No OS keyring is available (test).' });
    const refused = await vault.set('ws-1', 'abc');
    expect(refused.ok).toBe(false);
    if (!refused.ok) {
      expect(refused.error.code).toBe('VAULT_UNAVAILABLE');
      expect(refused.error.message).toContain('was not stored');
    }
    expect(await vault.get('ws-1')).toBeNull();

    const status = await vault.acceptUnprotected();
    expect(status).toMatchObject({ backend: 'unprotected-file', secure: false });
    expect(status.detail).toMatch(/UNENCRYPTED/);
    expect(await vault.set('ws-1', 'abc')).toEqual({ ok: true, value: undefined });
    expect(await vault.get('ws-1')).toBe('abc');

    const file = path.join(vaultDir, 'unprotected-secrets.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ 'ws-1': 'abc' });

    // The choice and the secret survive a restart.
    const again = await createVault({ secure: createUnavailableSecretStore('none'), dir: vaultDir });
    expect((await again.status()).backend).toBe('unprotected-file');
    expect(await again.get('ws-1')).toBe('abc');
    expect(await again.delete('ws-1')).toEqual({ ok: true, value: undefined });
    expect(await again.get('ws-1')).toBeNull();
  });

  it('never loses one of two quick writes', async () => {
    const vault = await createVault({ secure: createUnavailableSecretStore('none'), dir: path.join(dir, 'v2') });
    await vault.acceptUnprotected();
    await Promise.all([vault.set('a', '1'), vault.set('b', '2'), vault.set('c', '3')]);
    expect([await vault.get('a'), await vault.get('b'), await vault.get('c')]).toEqual(['1', '2', '3']);
  });
});
