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
