import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_TRANSFER_SETTINGS } from '../../../shared/ipc/transfer-models';
import { emptyState } from './transfer-model';
import { pump, reduce } from './transfer-state';
import { openTransferStore } from './transfer-store';
import { queryRows } from './transfer-views';

let dir = '';
beforeAll(async () => void (dir = await mkdtemp(path.join(tmpdir(), 'al-transfer-store-'))));
afterAll(async () => rm(dir, { recursive: true, force: true }));

function sampleQueue(n: number) {
  const s = emptyState(DEFAULT_TRANSFER_SETTINGS);
  reduce(s, { kind: 'transfer-started', transfer: { id: 't', workspaceId: 'w', createdAt: '2026-01-01T00:00:00.000Z', label: 'Drop', instructions: { steps: { ':original': { robot: '/upload/handle' } } }, limits: { maxNumberOfFiles: null, maxSize: null }, batching: { mode: 'every-n', batchMaxFiles: 1000, batchMaxBytes: 1e12 }, multipartMaxFileBytes: null, runId: null } }, 0);
  reduce(s, { kind: 'files-added', transferId: 't', files: Array.from({ length: n }, (_, i) => ({ path: `/in/${i}`, relativePath: `d/${String(n - i).padStart(6, '0')}.jpg`, name: `${i}.jpg`, size: 10, mime: 'image/jpeg', mtimeMs: 1 })) }, 0);
  reduce(s, { kind: 'scan-ended', transferId: 't' }, 0);
  return s;
}

describe('transfer store (real SQLite)', () => {
  it('keeps transfers, batches and every file (state, offset, method, tus URL) and the settings across reopening', async () => {
    const dataDir = path.join(dir, 'a');
    const s = sampleQueue(2_500);
    pump(s, 0);
    const f = s.files.get('t:7')!;
    Object.assign(f, { state: 'uploading', bytesSent: 5, method: 'tus', uploadUrl: 'http://127.0.0.1:1/resumable/files/x' });
    const store = openTransferStore(dataDir);
    store.write({ files: s.files.values(), batches: s.batches.values(), transfers: s.transfers.values() });
    store.saveSettings({ ...DEFAULT_TRANSFER_SETTINGS, concurrency: 9 });
    store.ledgerPut({ path: '/in/1', size: 10, mtimeMs: 1, md5: 'abc' });
    store.close();

    const again = openTransferStore(dataDir);
    const loaded = again.load();
    expect(loaded.settings.concurrency).toBe(9);
    expect(loaded.files).toHaveLength(2_500);
    expect(loaded.files[7]).toMatchObject({ id: 't:7', state: 'uploading', bytesSent: 5, method: 'tus', uploadUrl: 'http://127.0.0.1:1/resumable/files/x' });
    expect(loaded.batches.map((b) => [b.label, b.fileIds.length, b.state])).toEqual([
      ['Files 1–1,000', 1000, 'creating'],
      ['Files 1,001–2,000', 1000, 'creating'],
      ['Files 2,001–2,500', 500, 'creating'],
    ]);
    expect(loaded.transfers[0]).toMatchObject({ id: 't', label: 'Drop', scanning: false });
    expect(again.ledgerGet('/in/1')).toEqual({ path: '/in/1', size: 10, mtimeMs: 1, md5: 'abc' });
    expect(again.ledgerGet('/in/2')).toBeNull();
    again.close();
  });

  it('remembers a verified upload at once and writes it with the next write of the queue, in its transaction', () => {
    const dataDir = path.join(dir, 'ledger');
    const store = openTransferStore(dataDir);
    store.ledgerPut({ path: '/in/1', size: 10, mtimeMs: 1, md5: 'old' });
    store.ledgerPut({ path: '/in/1', size: 11, mtimeMs: 2, md5: 'new' });
    expect(store.ledgerGet('/in/1')).toEqual({ path: '/in/1', size: 11, mtimeMs: 2, md5: 'new' });
    const onDisk = () => {
      const db = new Database(path.join(dataDir, 'transfers.sqlite'), { readonly: true });
      try {
        return db.prepare('SELECT path, md5 FROM ledger').all();
      } finally {
        db.close();
      }
    };
    expect(onDisk()).toEqual([]);
    store.write({ files: [], batches: [], transfers: [] });
    expect(onDisk()).toEqual([{ path: '/in/1', md5: 'new' }]);
    store.close();
  });

  it('sets an unreadable database aside and starts empty', async () => {
    const dataDir = path.join(dir, 'b');
    await rm(dataDir, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(dataDir, { recursive: true }));
    await writeFile(path.join(dataDir, 'transfers.sqlite'), 'not a database at all, just text that is long enough to look like a header');
    const store = openTransferStore(dataDir);
    expect(store.load().files).toEqual([]);
    store.close();
  });
});

describe('rows by page', () => {
  it('orders by batch then path, filters and searches, and says where each batch starts', () => {
    const s = sampleQueue(2_500);
    const cache = new Map();
    const page = queryRows(s, { offset: 995, limit: 10 }, cache, () => 0);
    expect(page.total).toBe(2_500);
    expect(page.groups).toEqual([
      { batchId: 't:b0', offset: 0, count: 1000 },
      { batchId: 't:b1', offset: 1000, count: 1000 },
      { batchId: 't:b2', offset: 2000, count: 500 },
    ]);
    expect(page.rows.map((r) => r.relativePath).slice(4, 6)).toEqual(['d/002500.jpg', 'd/000501.jpg']);
    const search = queryRows(s, { offset: 0, limit: 5, search: '0012', states: ['queued'] }, cache, () => 0);
    expect(search.rows.map((r) => r.relativePath)).toEqual(['d/001200.jpg', 'd/001201.jpg', 'd/001202.jpg', 'd/001203.jpg', 'd/001204.jpg']);
    expect(queryRows(s, { offset: 0, limit: 5, states: ['failed'] }, cache, () => 0)).toEqual({ total: 0, groups: [], rows: [] });
  });
});
