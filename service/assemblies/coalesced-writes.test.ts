// An uploading Assembly is written whole at most every PERSIST_INTERVAL_MS; what a client was told in
// between (an upload created, an upload complete) is journaled first. After a kill -9 the Assembly knows
// every upload it acknowledged, takes the rest, and completes with every file's md5.
import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Upload } from 'tus-js-client';
import { afterAll, describe, expect, it } from 'vitest';
import { buildForm, getJson, postAssembly, tempDir, waitForEnd } from '../testing/service-fixture';
import { spawnService } from '../testing/service-process';
import { applyEvent, replayJournal } from './assembly-journal';
import type { AssemblyState, TusUploadEntry } from './assembly-state';

const md5 = (data: Buffer): string => createHash('md5').update(data).digest('hex');
const KEY = 'journal-key';

function tusUpload(data: Buffer, endpoint: string, metadata: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    new Upload(data, { endpoint, metadata, retryDelays: [], onError: reject, onSuccess: () => resolve() }).start();
  });
}

const entry = (uploadId: string, size: number): TusUploadEntry => ({
  uploadId,
  filename: `${uploadId}.bin`,
  fieldname: 'file',
  size,
  offset: 0,
  finished: false,
  upload_url: `http://x/resumable/files/${uploadId}`,
  localPath: `/data/tus/${uploadId}`,
});

const emptyState = (): AssemblyState =>
  ({ tusUploads: [], startedTusUploads: 0, finishedTusUploads: 0, bytesExpected: 0, bytesReceived: 0 }) as unknown as AssemblyState;

describe('the Assembly journal (pure)', () => {
  it('replays created and finished uploads onto the stored Assembly, once however often it is replayed', () => {
    const events = [
      JSON.stringify({ kind: 'tus_created', entry: entry('a', 10) }),
      JSON.stringify({ kind: 'tus_created', entry: entry('b', 20) }),
      JSON.stringify({ kind: 'tus_finished', uploadId: 'a', size: 10 }),
      'not json',
    ];
    const once = replayJournal(emptyState(), events);
    const twice = replayJournal(replayJournal(emptyState(), events), events);
    for (const s of [once, twice]) {
      expect(s.tusUploads.map((t) => [t.uploadId, t.finished, t.offset])).toEqual([
        ['a', true, 10],
        ['b', false, 0],
      ]);
      expect([s.startedTusUploads, s.finishedTusUploads, s.bytesExpected, s.bytesReceived]).toEqual([2, 1, 30, 10]);
    }
  });

  it('ignores a finish for an unknown upload', () => {
    const s = emptyState();
    expect(applyEvent(s, { kind: 'tus_finished', uploadId: 'nope', size: 5 })).toBe(false);
    expect(s.finishedTusUploads).toBe(0);
  });
});

describe('kill -9 while uploads arrive', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('keeps every upload the client was told is complete, and completes once the rest arrive', async () => {
    const dataDir = await tempDir('svc-journal-');
    dirs.push(dataDir);
    const args = ['--port', '0', '--data-dir', dataDir, '--auth-key', KEY];
    const first = await spawnService(args);
    const files = Array.from({ length: 6 }, (_, i) => randomBytes(5_000 + i));
    const created = await postAssembly(first.url, buildForm({ params: { auth: { key: KEY }, steps: { ':original': { robot: '/upload/handle' } } }, fields: { num_expected_upload_files: String(files.length) } }));
    const id = String(created.body.assembly_id);
    const meta = (i: number) => ({ assembly_url: String(created.body.assembly_url), fieldname: 'file', filename: `f${String(i)}.bin` });
    // Four at once, then the kill at once: well inside the interval between whole writes.
    await Promise.all([0, 1, 2, 3].map((i) => tusUpload(files[i]!, String(created.body.tus_url), meta(i))));
    await first.kill();

    const second = await spawnService(args);
    try {
      const waiting = (await getJson(`${second.url}/assemblies/${id}`)).body;
      expect(waiting.ok).toBe('ASSEMBLY_UPLOADING');
      expect(waiting.finished_tus_uploads).toBe(4);
      expect((waiting.tus_uploads as { finished: boolean }[]).filter((t) => t.finished)).toHaveLength(4);
      for (const i of [4, 5]) await tusUpload(files[i]!, String(waiting.tus_url), { ...meta(i), assembly_url: String(waiting.assembly_url) });
      const done = await waitForEnd(`${second.url}/assemblies/${id}`);
      expect(done.ok).toBe('ASSEMBLY_COMPLETED');
      const uploads = (done.uploads as { name: string; md5hash: string }[]).map((u) => [u.name, u.md5hash]).sort();
      expect(uploads).toEqual(files.map((d, i) => [`f${String(i)}.bin`, md5(d)]));
    } finally {
      await second.kill();
    }
  });
});
