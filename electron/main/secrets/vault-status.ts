import type { VaultStatus } from '../../../shared/ipc/models';

export type SafeStorageBackend = 'basic_text' | 'gnome_libsecret' | 'kwallet' | 'kwallet5' | 'kwallet6' | 'unknown';

/**
 * What safeStorage really offers. On Linux `basic_text` encrypts with a hard-coded password — plaintext in
 * all but name — so it counts as NOT secure even though `isAsyncEncryptionAvailable()` says true.
 */
export function safeStorageStatus(input: {
  available: boolean;
  platform: string;
  backend: SafeStorageBackend | null;
}): VaultStatus {
  if (!input.available) {
    return { backend: 'none', secure: false, detail: 'Electron safeStorage cannot encrypt on this system (no OS keyring).' };
  }
  if (input.platform === 'linux' && (input.backend === 'basic_text' || input.backend === 'unknown')) {
    return {
      backend: 'none',
      secure: false,
      detail: `No OS keyring was found (safeStorage backend "${input.backend}"): secrets would be stored with a fixed, public key.`,
    };
  }
  return { backend: 'safe-storage', secure: true, detail: 'Secrets are encrypted with Electron safeStorage (OS keyring).' };
}
