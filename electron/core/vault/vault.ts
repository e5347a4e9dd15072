import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { VaultStatus } from '../../../shared/ipc/models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { SecretStore } from '../ports/secret-store';
import { createFileSecretStore } from './file-secret-store';
import { ensurePrivateDir, restrictDirIfPresent, restrictIfPresent, writePrivateFile } from './private-files';

export interface VaultOptions {
  /** The host's secure backend (safeStorage in Electron, the OS keyring in the browser host). */
  secure: SecretStore;
  /** Where the vault keeps its own settings and, if accepted, the unprotected secrets file. */
  dir: string;
}

export interface Vault {
  status(): Promise<VaultStatus>;
  /** The user explicitly accepts an unprotected store because no secure backend exists. */
  acceptUnprotected(): Promise<VaultStatus>;
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<Result<void>>;
  delete(account: string): Promise<Result<void>>;
}

interface VaultSettings {
  unprotectedAccepted?: boolean;
}

/**
 * Holds Auth Secrets. Uses the secure backend when its probe proves it works; otherwise refuses to store
 * a secret unless the user accepted the unprotected file store, which is then reported as insecure.
 */
export async function createVault(options: VaultOptions): Promise<Vault> {
  const settingsFile = path.join(options.dir, 'vault.json');
  restrictDirIfPresent(options.dir);
  restrictIfPresent(settingsFile);
  const unprotected = createFileSecretStore(path.join(options.dir, 'unprotected-secrets.json'));
  let settings: VaultSettings = await readSettings(settingsFile);
  const secureStatus = await options.secure.probe();

  const active = (): SecretStore | null =>
    secureStatus.secure ? options.secure : settings.unprotectedAccepted ? unprotected : null;

  const status = async (): Promise<VaultStatus> => {
    if (secureStatus.secure) return secureStatus;
    if (settings.unprotectedAccepted) return unprotected.probe();
    return secureStatus;
  };

  return {
    status,
    async acceptUnprotected() {
      if (!secureStatus.secure) {
        settings = { ...settings, unprotectedAccepted: true };
        ensurePrivateDir(options.dir);
        await writePrivateFile(settingsFile, JSON.stringify(settings, null, 2));
      }
      return status();
    },
    async get(account) {
      const store = active();
      if (!store) return null;
      try {
        return await store.get(account);
      } catch {
        return null;
      }
    },
    async set(account, secret) {
      const store = active();
      if (!store) {
        return err(
          AppErrorCode.vaultUnavailable,
          `${secureStatus.detail} The secret was not stored. Accept an unprotected store to keep it anyway.`,
        );
      }
      try {
        await store.set(account, secret);
        return ok(undefined);
      } catch (cause) {
        return err(AppErrorCode.vaultUnavailable, `The secret could not be stored: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
    },
    async delete(account) {
      const store = active();
      if (!store) return ok(undefined);
      try {
        await store.delete(account);
        return ok(undefined);
      } catch (cause) {
        return err(AppErrorCode.vaultUnavailable, `The secret could not be removed: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
    },
  };
}

async function readSettings(file: string): Promise<VaultSettings> {
  try {
    const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as VaultSettings) : {};
  } catch {
    return {};
  }
}
