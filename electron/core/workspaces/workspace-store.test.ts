import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWorkspaceStore, LOCAL_WORKSPACE_ID } from './workspace-store';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-ws-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('workspace store', () => {
  it('always has the Local workspace, persists remote ones without secrets, and survives a restart', async () => {
    const d = path.join(dir, 'a');
    const store = await createWorkspaceStore(d);
    await store.ensureLocal('http://127.0.0.1:1234', 'localkey');
    expect(store.list()).toEqual([
      { id: 'local', name: 'Local (this computer)', kind: 'local', endpoint: 'http://127.0.0.1:1234', authKey: 'localkey', signatureAlgo: 'sha384', slug: 'local', authMode: 'signature', tokenScopes: null },
    ]);
    // The user's choice of Bearer tokens for Local survives the next start (endpoint and key do not).
    await store.setLocalAuth('bearer', ['templates:read']);
    const added = await store.upsert({ id: 'w2', name: 'Prod', kind: 'remote', endpoint: 'https://api2.transloadit.com', authKey: 'k2' });
    expect(added.ok).toBe(true);
    expect(await store.setActive('w2')).toEqual({ ok: true, value: undefined });

    const reopened = await createWorkspaceStore(d);
    await reopened.ensureLocal('http://127.0.0.1:999', 'localkey');
    expect(reopened.list().map((w) => w.id)).toEqual(['local', 'w2']);
    expect(reopened.get(LOCAL_WORKSPACE_ID)).toMatchObject({ endpoint: 'http://127.0.0.1:999', authMode: 'bearer', tokenScopes: ['templates:read'] });
    // A workspace saved before auth modes existed reads with the defaults.
    expect(reopened.get('w2')).toMatchObject({ slug: '', authMode: 'signature', tokenScopes: null });
    expect(reopened.activeId()).toBe('w2');
    expect(await readFile(path.join(d, 'workspaces.json'), 'utf8')).not.toMatch(/secret/i);
  });

  it('refuses to remove or overwrite the Local workspace and falls back to it when the active one goes', async () => {
    const store = await createWorkspaceStore(path.join(dir, 'b'));
    await store.ensureLocal('http://x', 'k');
    expect((await store.remove('local')).ok).toBe(false);
    expect((await store.upsert({ id: 'local', name: 'x', kind: 'remote', endpoint: 'e', authKey: 'k' })).ok).toBe(false);
    await store.upsert({ id: 'r', name: 'R', kind: 'remote', endpoint: 'e', authKey: 'k' });
    await store.setActive('r');
    await store.remove('r');
    expect(store.activeId()).toBe('local');
    expect((await store.setActive('nope')).ok).toBe(false);
  });

  it('sets a corrupt file aside instead of crashing or silently overwriting it', async () => {
    const d = path.join(dir, 'c');
    const store = await createWorkspaceStore(d);
    await store.ensureLocal('http://x', 'k');
    await writeFile(path.join(d, 'workspaces.json'), '{"version": 7');
    const reopened = await createWorkspaceStore(d);
    expect(reopened.list()).toEqual([]);
    expect((await readdir(d)).some((f) => f.startsWith('workspaces.json.corrupt-'))).toBe(true);
  });
});
