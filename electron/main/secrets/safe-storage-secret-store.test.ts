import { describe, expect, it } from 'vitest';
import { createSafeStorageSecretStore, type BlobStore, type SafeStorageLike } from './safe-storage-secret-store';

/**
 * Electron's safeStorage cannot run without the Electron binary, so this stand-in implements its async
 * contract (reversible encryption, a backend name, `shouldReEncrypt`). What is under test is our policy.
 */
function standIn(backend: ReturnType<SafeStorageLike['getSelectedStorageBackend']>, reEncrypt = false) {
  let encryptions = 0;
  const safeStorage: SafeStorageLike = {
    isAsyncEncryptionAvailable: async () => true,
    getSelectedStorageBackend: () => backend,
    encryptStringAsync: async (plain) => {
      encryptions += 1;
      return Buffer.from(`enc:${[...plain].reverse().join('')}`);
    },
    decryptStringAsync: async (blob) => ({ result: [...blob.toString().slice(4)].reverse().join(''), shouldReEncrypt: reEncrypt }),
  };
  const map = new Map<string, string>();
  const blobs: BlobStore = { get: (k) => map.get(k), set: (k, v) => void map.set(k, v), delete: (k) => void map.delete(k) };
  return { safeStorage, blobs, map, encryptions: () => encryptions };
}

describe('safeStorage secret store', () => {
  it('stores only ciphertext and reads the secret back', async () => {
    const { safeStorage, blobs, map } = standIn('gnome_libsecret');
    const store = createSafeStorageSecretStore(safeStorage, blobs, 'linux');
    expect(await store.probe()).toMatchObject({ secure: true, backend: 'safe-storage' });
    await store.set('local', 's3cret-value');
    expect([...map.values()].join()).not.toContain('s3cret-value');
    expect(await store.get('local')).toBe('s3cret-value');
    await store.delete('local');
    expect(await store.get('local')).toBeNull();
  });

  it('refuses to store a secret when Linux only offers basic_text', async () => {
    const { safeStorage, blobs, map } = standIn('basic_text');
    const store = createSafeStorageSecretStore(safeStorage, blobs, 'linux');
    expect(await store.probe()).toMatchObject({ secure: false });
    await expect(store.set('local', 'x')).rejects.toThrow(/fixed, public key/);
    expect(map.size).toBe(0);
  });

  it('re-encrypts when Electron says the key rotated', async () => {
    const { safeStorage, blobs, encryptions } = standIn('kwallet5', true);
    const store = createSafeStorageSecretStore(safeStorage, blobs, 'linux');
    await store.set('a', 'v');
    expect(await store.get('a')).toBe('v');
    expect(encryptions()).toBe(2);
  });
});
