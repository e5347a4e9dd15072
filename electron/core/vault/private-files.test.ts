// Finding 5 of issue 10: the core's data folder (workspaces, runs, rotation log, the vault's settings and
// an accepted unprotected secrets file) was world-readable. Each store, opened for real on a fresh folder
// and on one an older version left at 0755/0644, ends up private: folders 0700, files 0600.
import { chmod, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Rotation } from '../../../shared/ipc/workspace-models';
import { openRotationLog } from '../rotation/rotation-log';
import { openRunStore } from '../runs/run-store';
import { openTrialStore } from '../templates/trial-store';
import { createWorkspaceStore } from '../workspaces/workspace-store';
import { createUnavailableSecretStore } from './unavailable-secret-store';
import { createVault } from './vault';

let root = '';
let dataDir = '';
beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'al-modes-'));
  dataDir = path.join(root, 'data');
});
afterEach(() => rm(root, { recursive: true, force: true }));

const rotation: Rotation = {
  id: 'r1', workspaceId: 'w1', workspaceName: 'W', oldKey: 'old', oldKeyId: null, newKey: null, newKeyId: null, completed: [],
  state: 'done', error: null, oldKeyDeleted: false, startedAt: '2026-01-01T00:00:00.000Z', updatedAt: '2026-01-01T00:00:00.000Z', log: [],
};

/** Opens every store of the core's data folder as createCore does, writing something into each. */
async function openAll(write: boolean): Promise<void> {
  const workspaces = await createWorkspaceStore(dataDir);
  const runs = openRunStore(dataDir);
  const trials = openTrialStore(dataDir);
  const log = await openRotationLog(dataDir);
  const vault = await createVault({ secure: createUnavailableSecretStore('no keyring in this test'), dir: path.join(dataDir, 'vault') });
  if (write) {
    await workspaces.ensureLocal('http://127.0.0.1:1', 'local-key');
    await log.put(rotation);
    await vault.acceptUnprotected();
    expect((await vault.set('local', 'the-local-secret')).ok).toBe(true);
  }
  runs.close();
  trials.close();
}

/** Mode of every entry, relative path → octal string (the run store is closed, so no -wal/-shm remain). */
async function modes(dir: string, prefix = ''): Promise<Record<string, string>> {
  const out: Record<string, string> = { [prefix || '.']: ((await stat(dir)).mode & 0o777).toString(8) };
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const rel = path.join(prefix, entry.name);
    if (entry.isDirectory()) Object.assign(out, await modes(path.join(dir, entry.name), rel));
    else out[rel] = ((await stat(path.join(dir, entry.name))).mode & 0o777).toString(8);
  }
  return out;
}

const PRIVATE = {
  '.': '700',
  'workspaces.json': '600',
  'core.sqlite': '600',
  'template-trials.sqlite': '600',
  'rotations.json': '600',
  vault: '700',
  'vault/vault.json': '600',
  'vault/unprotected-secrets.json': '600',
};

describe('file modes of the core data', () => {
  it('creates the data folder, workspaces, runs, rotation log and vault files private', async () => {
    await openAll(true);
    expect(await modes(dataDir)).toEqual(PRIVATE);
  });

  it('tightens what an older version left world-readable as soon as the stores open', async () => {
    await openAll(true);
    for (const [rel, mode] of Object.entries(PRIVATE)) await chmod(path.join(dataDir, rel), mode === '700' ? 0o755 : 0o644);
    await openAll(false);
    expect(await modes(dataDir)).toEqual(PRIVATE);
  });

  it('keeps the SQLite side files of the run store private while it is open', async () => {
    const runs = openRunStore(dataDir);
    try {
      for (const name of ['core.sqlite', 'core.sqlite-wal', 'core.sqlite-shm']) expect(((await stat(path.join(dataDir, name))).mode & 0o777).toString(8), name).toBe('600');
    } finally {
      runs.close();
    }
  });
});
