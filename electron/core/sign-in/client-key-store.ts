import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { err, ok, type Result } from '../../../shared/result';
import type { Vault } from '../vault/vault';
import { writePrivateFile } from '../vault/private-files';
import type { WorkspaceStore } from '../workspaces/workspace-store';
import { clientKeyAccount } from './client-key';

/**
 * Sign-in keys core generated, so one that no saved workspace uses can be deleted from the vault: a form
 * canceled after "Generate key pair", a key replaced by generating again. The vault cannot list its
 * accounts (the OS keyring and safeStorage have no portable listing), so core keeps the kids it generated
 * in `<dataDir>/client-keys.json` (key ids are public-key thumbprints: nothing secret).
 */
export interface ClientKeyStore {
  /** Note a kid before its private key goes to the vault (a crash in between leaves only a harmless id). */
  remember(kid: string): Promise<void>;
  /** Delete a key no workspace refers to; a key in use is refused. */
  discard(kid: string): Promise<Result<void>>;
  /** Delete every remembered key no workspace refers to (core start: forms of the last session are gone). */
  prune(): Promise<string[]>;
}

/** workspaces:clientKeyDiscard of a key a saved workspace signs in with. */
export const CLIENT_KEY_IN_USE = 'CLIENT_KEY_IN_USE';

/** The remembered kids that no workspace uses. */
export const orphanKids = (remembered: readonly string[], inUse: readonly string[]): string[] => {
  const used = new Set(inUse);
  return remembered.filter((kid) => !used.has(kid));
};

export function createClientKeyStore(o: { dataDir: string; vault: Vault; workspaces: WorkspaceStore }): ClientKeyStore {
  const file = path.join(o.dataDir, 'client-keys.json');
  const inUse = () => o.workspaces.list().flatMap((w) => (w.clientKey ? [w.clientKey.kid] : []));
  // One read-modify-write at a time, so two quick generations never lose one another.
  let queue: Promise<unknown> = Promise.resolve();
  const exclusive = <T>(task: () => Promise<T>): Promise<T> => {
    const run = queue.then(task, task);
    queue = run.catch(() => undefined);
    return run;
  };
  const load = async (): Promise<string[]> => {
    try {
      const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
      const kids = (parsed as { kids?: unknown } | null)?.kids;
      return Array.isArray(kids) ? kids.filter((k): k is string => typeof k === 'string') : [];
    } catch {
      return [];
    }
  };
  const save = (kids: string[]) => writePrivateFile(file, JSON.stringify({ kids }, null, 2));
  // Deleted from the vault first: the id is forgotten only once its private key is gone.
  const drop = async (kids: string[]): Promise<string[]> => {
    const gone: string[] = [];
    for (const kid of kids) if ((await o.vault.delete(clientKeyAccount(kid))).ok) gone.push(kid);
    if (gone.length) await save((await load()).filter((k) => !gone.includes(k)));
    return gone;
  };

  return {
    remember: (kid) =>
      exclusive(async () => {
        const kids = await load();
        if (!kids.includes(kid)) await save([...kids, kid]);
      }),
    discard: (kid) =>
      exclusive(async () => {
        if (inUse().includes(kid)) return err(CLIENT_KEY_IN_USE, 'This sign-in key belongs to a saved workspace: remove the workspace to delete it.');
        const deleted = await o.vault.delete(clientKeyAccount(kid));
        if (!deleted.ok) return deleted;
        await save((await load()).filter((k) => k !== kid));
        return ok(undefined);
      }),
    prune: () => exclusive(async () => drop(orphanKids(await load(), inUse()))),
  };
}
