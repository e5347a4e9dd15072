import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FileStore } from '@tus/file-store';
import { Server as TusServer } from '@tus/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../uploads/clock';
import { createTokenBucket } from './token-bucket';
import { uploadTus, type TusJob } from './tus-worker';
import { concatenationProbe } from './tus-parts';

// A real tus server (@tus/server with a file store) on loopback. A counter makes the next PATCHes hang
// without an answer, as a dead proxy would, to exercise the stall detector; a window cuts every
// connection, as a service that is restarting does.
let dir = '';
let storeDir = '';
let http: Server;
let tusUrl = '';
let hangPatches = 0;
let unreachableUntil = 0;
const patchOffsets: number[] = [];
const finished: Array<{ metadata: Record<string, string | null>; id: string }> = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-tus-'));
  storeDir = path.join(dir, 'store');
  const tus = new TusServer({
    path: '/files',
    datastore: new FileStore({ directory: storeDir }),
    respectForwardedHeaders: false,
    onUploadFinish: async (_req, upload) => {
      finished.push({ metadata: (upload.metadata ?? {}) as Record<string, string | null>, id: upload.id });
      return {};
    },
  });
  http = createServer((req, res) => {
    if (Date.now() < unreachableUntil) return void req.socket.destroy();
    if (req.method === 'PATCH') {
      patchOffsets.push(Number(req.headers['upload-offset']));
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

async function makeFile(name: string, size: number) {
  const bytes = randomBytes(size);
  const file = path.join(dir, name.replaceAll('/', '_'));
  await writeFile(file, bytes);
  return { path: file, bytes, md5: createHash('md5').update(bytes).digest('hex') };
}

function job(file: { path: string }, name: string, size: number, extra: Partial<TusJob> = {}): TusJob & { urls: string[]; progress: number[] } {
  const urls: string[] = [];
  const progress: number[] = [];
  return {
    path: file.path,
    name: path.basename(name),
    size,
    relativePath: name,
    tusUrl,
    assemblyUrl: 'http://127.0.0.1/assemblies/a',
    uploadUrl: null,
    chunkSize: 64 * 1024,
    stallMs: 30_000,
    bucket: null,
    clock: systemClock,
    onUploadUrl: (u) => urls.push(u),
    onProgress: (b) => progress.push(b),
    urls,
    progress,
    ...extra,
  };
}

describe('one file by tus, hashed while read', () => {
  it('sends one stream where the deployment does not offer concatenation, however large the file and the part count asked', async () => {
    const f = await makeFile('whole.bin', 3 * 1024 * 1024);
    const posts: number[] = [];
    const j = job(f, 'whole.bin', f.bytes.length, {
      parallel: { policy: { parts: 4, minBytes: 0, loopback: true }, supportsConcatenation: async (url) => concatenationProbe(url).finally(() => posts.push(1)) },
    });
    const outcome = await uploadTus(j).done;
    expect(outcome).toEqual({ kind: 'uploaded', md5: f.md5 });
    // The endpoint was asked once; @tus/server without concatenation said no, so one upload holds the file.
    expect(posts).toHaveLength(1);
    expect(j.urls).toHaveLength(1);
    const done = finished.find((x) => x.metadata.filename === 'whole.bin')!;
    expect((await readFile(path.join(storeDir, done.id))).equals(f.bytes)).toBe(true);
  });

  it('uploads by path with the Assembly metadata, and its md5 is that of the file', async () => {
    const f = await makeFile('photos/a.jpg', 300_000);
    const j = job(f, 'photos/a.jpg', 300_000);
    const outcome = await uploadTus(j).done;
    expect(outcome).toEqual({ kind: 'uploaded', md5: f.md5 });
    const done = finished.find((x) => x.metadata.filename === 'a.jpg')!;
    expect(done.metadata).toMatchObject({ assembly_url: 'http://127.0.0.1/assemblies/a', fieldname: 'file', relative_path: 'photos/a.jpg' });
    expect((await readFile(path.join(storeDir, done.id))).equals(f.bytes)).toBe(true);
    expect(j.urls).toHaveLength(1);
  });

  it('a stalled request is aborted and reported; resumed from its URL, it finishes from the offset with the right md5', async () => {
    const f = await makeFile('stall.bin', 400_000);
    hangPatches = 0;
    // Long enough that a PATCH on a loaded machine is not taken for the stall; the hung one is.
    const first = job(f, 'stall.bin', 400_000, { stallMs: 1_500 });
    // Let the first chunks through, then hang.
    const run = uploadTus({ ...first, onProgress: (b) => void (b >= 128 * 1024 && (hangPatches = 1)) });
    const outcome = await run.done;
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'transient', error: expect.stringMatching(/No upload progress/) });
    patchOffsets.length = 0;
    const second = await uploadTus(job(f, 'stall.bin', 400_000, { uploadUrl: first.urls[0]! })).done;
    expect(second).toEqual({ kind: 'uploaded', md5: f.md5 });
    expect(Math.min(...patchOffsets)).toBeGreaterThan(0);
  });

  it('an unreachable server is a transient failure; the resume continues from the offset', async () => {
    const f = await makeFile('outage.bin', 1024 * 1024);
    const first = job(f, 'outage.bin', 1024 * 1024);
    let cut = false;
    const outcome = await uploadTus({
      ...first,
      onProgress: (b) => {
        if (!cut && b >= 256 * 1024) {
          cut = true;
          unreachableUntil = Date.now() + 300;
        }
      },
    }).done;
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'transient' });
    await new Promise((resolve) => setTimeout(resolve, 350));
    patchOffsets.length = 0;
    expect(await uploadTus(job(f, 'outage.bin', 1024 * 1024, { uploadUrl: first.urls[0]! })).done).toEqual({ kind: 'uploaded', md5: f.md5 });
    expect(patchOffsets.filter((o) => o === 0)).toHaveLength(0);
  });

  it('a missing file fails with the reason, for the user to act on', async () => {
    const outcome = await uploadTus(job({ path: path.join(dir, 'gone.bin') }, 'gone.bin', 10)).done;
    expect(outcome).toMatchObject({ kind: 'failed', failure: 'fatal', error: expect.stringMatching(/ENOENT|no such file/) });
  });

  it('abort stops at once; a bandwidth limit slows the reads', async () => {
    const f = await makeFile('slow.bin', 512 * 1024);
    const bucket = createTokenBucket(1024 * 1024, systemClock);
    const started = Date.now();
    const j = job(f, 'slow.bin', 512 * 1024, { bucket });
    const run = uploadTus(j);
    expect(await run.done).toEqual({ kind: 'uploaded', md5: f.md5 });
    // 512 KiB at 1 MiB/s (with a quarter-second burst): not before ~0.25 s.
    expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    const g = await makeFile('aborted.bin', 4 * 1024 * 1024);
    bucket.setRate(256 * 1024);
    const slow = uploadTus(job(g, 'aborted.bin', 4 * 1024 * 1024, { bucket }));
    slow.abort();
    expect(await slow.done).toEqual({ kind: 'aborted' });
  });
});
