import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { VaultStatus } from '../../../shared/ipc/models';
import type { SecretStore } from '../ports/secret-store';
import { ensurePrivateDir, restrictIfPresent, writePrivateFile } from './private-files';

/**
 * Secrets in a plain JSON file readable only by this user (0600). NOT encrypted: used only when no
 * secure backend exists and the user explicitly accepted that, and reported as insecure everywhere.
 */
export function createFileSecretStore(file: string): SecretStore {
  async function load(): Promise<Record<string, string>> {
    try {
      const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string>) : {};
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw cause;
    }
  }
  async function save(data: Record<string, string>): Promise<void> {
    ensurePrivateDir(path.dirname(file));
    await writePrivateFile(file, JSON.stringify(data, null, 2));
  }
  // A file an older version (or the user) left readable by others is tightened before it is read.
  restrictIfPresent(file);
  // Serialize writes so two quick `set`s never lose one another.
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };

  return {
    async probe(): Promise<VaultStatus> {
      return {
        backend: 'unprotected-file',
        secure: false,
        detail: `Secrets are stored UNENCRYPTED in ${file} (readable by anyone with access to this user account).`,
      };
    },
    async get(account) {
      return (await load())[account] ?? null;
    },
    set: (account, secret) =>
      exclusive(async () => {
        const data = await load();
        data[account] = secret;
        await save(data);
      }),
    delete: (account) =>
      exclusive(async () => {
        const data = await load();
        if (!(account in data)) return;
        delete data[account];
        await save(data);
      }),
  };
}
