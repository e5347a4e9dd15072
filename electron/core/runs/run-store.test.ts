import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRunStore } from './run-store';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-runstore-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('run store (real SQLite)', () => {
  it('keeps runs, file progress and upload URLs across reopening', () => {
    const d = path.join(dir, 'a');
    const store = openRunStore(d);
    store.insert({
      runId: 'r1',
      workspaceId: 'local',
      createdAt: '2026-01-01T00:00:00.000Z',
      instructions: { steps: { ':original': { robot: '/upload/handle' } } },
      state: 'CREATING',
      error: null,
      assemblyId: null,
      status: null,
      finished: false,
      files: [
        { fileId: 'f0', path: '/x/a.jpg', relativePath: 'x/a.jpg', name: 'a.jpg', size: 10, mime: 'image/jpeg', state: 'queued', bytesUploaded: 0, uploadUrl: null, error: null },
        { fileId: 'f1', path: '/x/b.jpg', relativePath: 'x/b.jpg', name: 'b.jpg', size: 20, mime: null, state: 'queued', bytesUploaded: 0, uploadUrl: null, error: null },
      ],
    });
    store.updateRun('r1', { state: 'ASSEMBLY_UPLOADING', error: null, assemblyId: 'abc', status: { ok: 'ASSEMBLY_UPLOADING', assembly_id: 'abc' }, finished: false });
    store.updateFiles('r1', [{ fileId: 'f1', state: 'uploading', bytesUploaded: 7 }]);
    store.setUploadUrl('r1', 'f1', 'http://127.0.0.1:1/resumable/files/u1');
    store.close();

    const [run] = openRunStore(d).load();
    expect(run).toMatchObject({ runId: 'r1', state: 'ASSEMBLY_UPLOADING', assemblyId: 'abc', finished: false, status: { assembly_id: 'abc' } });
    expect(run!.instructions.steps?.[':original']?.robot).toBe('/upload/handle');
    expect(run!.files.map((f) => [f.fileId, f.state, f.bytesUploaded, f.uploadUrl])).toEqual([
      ['f0', 'queued', 0, null],
      ['f1', 'uploading', 7, 'http://127.0.0.1:1/resumable/files/u1'],
    ]);
  });

  it('loads a finished run with its status header only, and reads the whole status on demand', () => {
    const d = path.join(dir, 'c');
    const store = openRunStore(d);
    const uploads = Array.from({ length: 3 }, (_, i) => ({ id: `u${i}`, name: `f${i}.jpg`, ssl_url: `http://127.0.0.1:1/f${i}.jpg` }));
    const base = { workspaceId: 'local', createdAt: '2026-01-01T00:00:00.000Z', instructions: { steps: {} }, error: null, files: [] };
    store.insert({ ...base, runId: 'done', state: 'CREATING', assemblyId: null, status: null, finished: false });
    store.insert({ ...base, runId: 'live', state: 'CREATING', assemblyId: null, status: null, finished: false });
    const status = { ok: 'ASSEMBLY_COMPLETED', assembly_id: 'a1', assembly_ssl_url: 'http://127.0.0.1:1/assemblies/a1', uploads, results: { ':original': uploads } };
    store.updateRun('done', { state: 'ASSEMBLY_COMPLETED', error: null, assemblyId: 'a1', status, finished: true });
    store.updateRun('live', { state: 'ASSEMBLY_UPLOADING', error: null, assemblyId: 'a2', status: { ok: 'ASSEMBLY_UPLOADING', uploads }, finished: false });
    store.close();

    const reopened = openRunStore(d);
    const byId = new Map(reopened.load().map((r) => [r.runId, r]));
    // The run list needs the header (state, URL); the uploads and results stay on disk until the Assembly view asks.
    expect(byId.get('done')!.status).toEqual({ ok: 'ASSEMBLY_COMPLETED', assembly_id: 'a1', assembly_ssl_url: 'http://127.0.0.1:1/assemblies/a1' });
    expect(byId.get('live')!.status?.uploads).toHaveLength(3);
    expect(reopened.statusOf('done')).toEqual(status);
    expect(reopened.statusOf('nope')).toBeNull();
    reopened.close();
  });

  it('sets an unreadable database aside and starts empty', async () => {
    const d = path.join(dir, 'b');
    await mkdir(d, { recursive: true });
    await writeFile(path.join(d, 'core.sqlite'), 'this is not a database '.repeat(100));
    const store = openRunStore(d);
    expect(store.load()).toEqual([]);
    store.close();
    expect((await readdir(d)).some((f) => f.startsWith('core.sqlite.corrupt-'))).toBe(true);
  });
});
