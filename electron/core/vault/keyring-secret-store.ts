import { randomBytes } from 'node:crypto';
import { AsyncEntry } from '@napi-rs/keyring';
import type { VaultStatus } from '../../../shared/ipc/models';
import type { SecretStore } from '../ports/secret-store';

export const KEYRING_SERVICE = 'assemblyline';
const PROBE_TIMEOUT_MS = 5000;

/**
 * Secrets in the OS keyring (Secret Service on Linux, Keychain, Credential Manager). Used by the browser
 * host; Electron uses safeStorage instead.
 */
export function createKeyringSecretStore(service = KEYRING_SERVICE): SecretStore {
  const entry = (account: string) => new AsyncEntry(service, account);
  return {
    async probe(): Promise<VaultStatus> {
      // Without a keyring daemon some backends "succeed" and read back null: only a round trip proves it works.
      const account = `probe-${randomBytes(6).toString('hex')}`;
      const value = randomBytes(16).toString('hex');
      const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
      try {
        const e = entry(account);
        await e.setPassword(value, signal);
        const readBack = await e.getPassword(signal);
        await e.deletePassword(signal).catch(() => false);
        if (readBack === value) {
          return { backend: 'os-keyring', secure: true, detail: 'Secrets are kept in the OS keyring.' };
        }
        return { backend: 'none', secure: false, detail: 'No OS keyring is available (a test secret could not be read back).' };
      } catch (cause) {
        const reason = cause instanceof Error ? cause.message : String(cause);
        return { backend: 'none', secure: false, detail: `No OS keyring is available (${reason}).` };
      }
    },
    async get(account) {
      return entry(account).getPassword();
    },
    async set(account, secret) {
      await entry(account).setPassword(secret);
    },
    async delete(account) {
      await entry(account).deletePassword();
    },
  };
}
