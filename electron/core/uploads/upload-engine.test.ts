import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FileUploadState } from '../../../shared/ipc/models';
import { startUploads, type UploadItem } from './upload-engine';

// A real tus server (@tus/server with a file store) on loopback. A counter makes the next PATCHes hang
// without an answer, as a dead proxy would, to exercise the stall detector.
let dir = '';
let storeDir = '';
let http: Server;
let tusUrl = '';
let hangPatches = 0;
let patches = 0;
/** While set, every request's connection is cut without an answer, as a service that is restarting does. */
let unreachableUntil = 0;
/** Upload-Offset of every PATCH, to tell a resume from a restart at 0. */
const patchOffsets: number[] = [];
const finished: Array<{ metadata: Record<string, string | null>; size: number; id: string }> = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-up-'));
  storeDir = path.join(dir, 'store');
  const tus = new TusServer({
    path: '/files',
    datastore: new FileStore({ directory: storeDir }),
    respectForwardedHeaders: false,
    onUploadFinish: async (_req, upload) => {
      finished.push({ metadata: (upload.metadata ?? {}) as Record<string, string | null>, size: upload.size ?? -1, id: upload.id });
      return {};
    },
  });
  http = createServer((req, res) => {
    if (Date.now() < unreachableUntil) return void req.socket.destroy();
    if (req.method === 'PATCH') patchOffsets.push(Number(req.headers['upload-offset']));
    if (req.method === 'PATCH') {
      patches++;
      if (hangPatches > 0) {
        hangPatches--;
        req.resume(); // swallow the bytes, never answer
        return;
      }
    }
    void tus.handle(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  tusUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}/files/`;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise<void>((resolve) => http.close(() => resolve()));
  await rm(dir, { recursive: true, force: true });
});

async function makeFile(name: string, size: number): Promise<UploadItem & { bytes: Buffer }> {
  const bytes = randomBytes(size);
  const file = path.join(dir, name.replaceAll('/', '_'));
  await writeFile(file, bytes);
  return { fileId: name, path: file, name: path.basename(name), size, relativePath: name, bytes };
}

describe('startUploads against a real tus server', () => {
  it('uploads files by path, several at once, with Assembly metadata, and reports progress', async () => {
    finished.length = 0;
    const items = await Promise.all([
      makeFile('photos/a.bin', 3 * 1024 * 1024 + 17),
      makeFile('b.bin', 1024),
      makeFile('photos/sub/c.bin', 200_000),
      makeFile('empty.bin', 0),
      makeFile('d.bin', 5000),
    ]);
    const states: Array<[string, FileUploadState]> = [];
    let uploading = 0;
    let peak = 0;
    const progress = new Map<string, number>();
    const batch = startUploads(items, {
      tusUrl,
      assemblyUrl: 'http://127.0.0.1/assemblies/abc',
      concurrency: 2,
      chunkSize: 1024 * 1024,
      onProgress: (id, bytes) => progress.set(id, bytes),
      onState: (id, state) => {
        states.push([id, state]);
        if (state === 'uploading') peak = Math.max(peak, ++uploading);
        else uploading--;
      },
    });
    expect(await batch.done).toEqual({ uploaded: 5, failed: 0, canceled: 0 });
    expect(peak).toBe(2);
    for (const item of items) expect(progress.get(item.fileId)).toBe(item.size);
    expect(finished).toHaveLength(5);
    const byName = new Map(finished.map((f) => [f.metadata.filename, f]));
    expect(byName.get('c.bin')?.metadata).toEqual({
      assembly_url: 'http://127.0.0.1/assemblies/abc',
      fieldname: 'file',
      filename: 'c.bin',
      relative_path: 'photos/sub/c.bin',
    });
    expect(byName.get('b.bin')?.metadata.relative_path).toBeUndefined();
    // The bytes on the server are exactly the bytes on disk.
    const a = byName.get('a.bin')!;
    expect((await readFile(path.join(storeDir, a.id))).equals(items[0]!.bytes)).toBe(true);
    expect(byName.get('empty.bin')?.size).toBe(0);
  });

  it('aborts a stalled request and resumes it, then finishes', async () => {
    finished.length = 0;
    const item = await makeFile('stall.bin', 300_000);
    hangPatches = 1;
    const patchesBefore = patches;
    const states: FileUploadState[] = [];
    const batch = startUploads([item], {
      tusUrl,
      assemblyUrl: 'http://127.0.0.1/assemblies/s',
      stallTimeoutMs: 400,
      onState: (_id, state) => states.push(state),
    });
    expect(await batch.done).toEqual({ uploaded: 1, failed: 0, canceled: 0 });
    expect(patches - patchesBefore).toBe(2);
    expect(states).toEqual(['uploading', 'uploaded']);
    expect((await readFile(path.join(storeDir, finished[0]!.id))).equals(item.bytes)).toBe(true);
  });

  it('fails a file that keeps stalling, with a readable reason', async () => {
    const item = await makeFile('dead.bin', 1000);
    const errors: string[] = [];
    hangPatches = 2;
    const patchesBefore = patches;
    const batch = startUploads([item], {
      tusUrl,
      assemblyUrl: 'x',
      stallTimeoutMs: 200,
      maxStallRetries: 1,
      onState: (_id, _state, error) => error && errors.push(error),
    });
    const summary = await batch.done;
    expect(patches - patchesBefore).toBe(2);
    hangPatches = 0;
    expect(summary).toEqual({ uploaded: 0, failed: 1, canceled: 0 });
    expect(errors[0]).toMatch(/No upload progress for 0.2 s, 2 times in a row/);
  });

  it('waits out a server that cannot be reached for longer than its retries, then resumes from the offset', async () => {
    finished.length = 0;
    patchOffsets.length = 0;
    const size = 4 * 1024 * 1024;
    const item = await makeFile('outage.bin', size);
    const states: FileUploadState[] = [];
    let cut = false;
    const batch = startUploads([item], {
      tusUrl,
      assemblyUrl: 'x',
      chunkSize: 512 * 1024,
      // No retries of tus-js-client's own: the outage outlasts them, as a service restart can.
      retryDelays: [],
      onProgress: (_id, bytes) => {
        if (!cut && bytes >= 1024 * 1024) {
          cut = true;
          unreachableUntil = Date.now() + 2_500;
        }
      },
      onState: (_id, state) => states.push(state),
    });
    expect(await batch.done).toEqual({ uploaded: 1, failed: 0, canceled: 0 });
    expect(states).toEqual(['uploading', 'uploaded']);
    const done = finished.find((f) => f.metadata.filename === 'outage.bin')!;
    expect((await readFile(path.join(storeDir, done.id))).equals(item.bytes)).toBe(true);
    // Resumed where the server stood, not sent again from byte 0.
    expect(patchOffsets.filter((offset) => offset === 0)).toHaveLength(1);
    expect(Math.max(...patchOffsets)).toBeGreaterThan(1024 * 1024);
  });

  it('reports a missing file as failed without stopping the others', async () => {
    const good = await makeFile('good.bin', 100);
    const gone: UploadItem = { fileId: 'gone', path: path.join(dir, 'gone.bin'), name: 'gone.bin', size: 10, relativePath: 'gone.bin' };
    const errors = new Map<string, string>();
    const batch = startUploads([gone, good], {
      tusUrl,
      assemblyUrl: 'x',
      retryDelays: [],
      onState: (id, _s, error) => error && errors.set(id, error),
    });
    expect(await batch.done).toEqual({ uploaded: 1, failed: 1, canceled: 0 });
    expect(errors.get('gone')).toMatch(/ENOENT|no such file/);
  });

  it('cancels running and queued uploads', async () => {
    const items = await Promise.all([1, 2, 3, 4].map((i) => makeFile(`big${i}.bin`, 8 * 1024 * 1024)));
    const states = new Map<string, FileUploadState>();
    const batch = startUploads(items, {
      tusUrl,
      assemblyUrl: 'x',
      concurrency: 1,
      chunkSize: 256 * 1024,
      onProgress: () => batch.cancel(),
      onState: (id, state) => states.set(id, state),
    });
    const summary = await batch.done;
    expect(summary.canceled).toBe(4);
    expect([...states.values()]).toEqual(['canceled', 'canceled', 'canceled', 'canceled']);
    expect((await readdir(storeDir)).length).toBeGreaterThan(0);
  });
});
