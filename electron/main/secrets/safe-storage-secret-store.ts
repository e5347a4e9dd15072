import type { SafeStorage } from 'electron';
import type { VaultStatus } from '../../../shared/ipc/models';
import type { SecretStore } from '../../core/ports/secret-store';
import { safeStorageStatus, type SafeStorageBackend } from './vault-status';

/** Where the ciphertexts live (electron-store in the app; any key-value map in tests). Base64 strings. */
export interface BlobStore {
  get(key: string): string | undefined;
  set(key: string, value: string): void;
  delete(key: string): void;
}

export type SafeStorageLike = Pick<
  SafeStorage,
  'isAsyncEncryptionAvailable' | 'encryptStringAsync' | 'decryptStringAsync' | 'getSelectedStorageBackend'
>;

const keyFor = (account: string) => `secrets.${Buffer.from(account).toString('base64url')}`;

/**
 * Secrets encrypted with safeStorage's async API (the sync one is going away), ciphertext kept by a
 * BlobStore. Call only after `app.whenReady()`. Re-encrypts when Electron asks (`shouldReEncrypt`).
 */
export function createSafeStorageSecretStore(safeStorage: SafeStorageLike, blobs: BlobStore, platform: string): SecretStore {
  const status = async (): Promise<VaultStatus> => {
    const available = await safeStorage.isAsyncEncryptionAvailable().catch(() => false);
    const backend = platform === 'linux' ? (safeStorage.getSelectedStorageBackend() as SafeStorageBackend) : null;
    return safeStorageStatus({ available, platform, backend });
  };
  const requireSecure = async () => {
    const current = await status();
    if (!current.secure) throw new Error(current.detail);
  };
  return {
    probe: status,
    async get(account) {
      const blob = blobs.get(keyFor(account));
      if (blob === undefined) return null;
      const { result, shouldReEncrypt } = await safeStorage.decryptStringAsync(Buffer.from(blob, 'base64'));
      if (shouldReEncrypt) blobs.set(keyFor(account), (await safeStorage.encryptStringAsync(result)).toString('base64'));
      return result;
    },
    async set(account, secret) {
      await requireSecure();
      blobs.set(keyFor(account), (await safeStorage.encryptStringAsync(secret)).toString('base64'));
    },
    async delete(account) {
      blobs.delete(keyFor(account));
    },
  };
}
