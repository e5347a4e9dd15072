import type { VaultStatus } from '../../../shared/ipc/models';

/**
 * Where Auth Secrets live. Electron: safeStorage-encrypted blobs in electron-store. Browser host: the OS
 * keyring. A store must prove it works (write, read back, delete) in `probe` — some backends answer
 * "no secret" instead of failing when no keyring daemon runs, and that must never read as "fine".
 */
export interface SecretStore {
  probe(): Promise<VaultStatus>;
  get(account: string): Promise<string | null>;
  set(account: string, secret: string): Promise<void>;
  delete(account: string): Promise<void>;
}
