import type { VaultStatus } from '../../../shared/ipc/models';
import type { SecretStore } from '../ports/secret-store';

/** For hosts with no secure backend at all: stores nothing and says why. */
export function createUnavailableSecretStore(reason: string): SecretStore {
  const fail = async (): Promise<never> => {
    throw new Error(reason);
  };
  return {
    probe: async (): Promise<VaultStatus> => ({ backend: 'none', secure: false, detail: reason }),
    get: async () => null,
    set: fail,
    delete: fail,
  };
}
