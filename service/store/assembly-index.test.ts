// The list's summary table over a real SQLite file: kept with every write, and rebuilt for a database
// made before it existed.
import Database from 'better-sqlite3';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssemblyState } from '../assemblies/assembly-state';
import { tempDir } from '../testing/service-fixture';
import { openDatabase } from './database';

const state = (i: number, over: Partial<AssemblyState> = {}): AssemblyState =>
  ({
    id: i.toString(16).padStart(32, '0'),
    authKey: 'key',
    ok: 'ASSEMBLY_COMPLETED',
    error: null,
    message: 'done',
    params: '{}',
    steps: {},
    fields: { n: `item-${i}` },
    uploads: [],
    warnings: [],
    createdAtMs: 1_000_000 + i,
    executionStart: null,
    executionDurationS: null,
    uploadFinishedAtMs: null,
    bytesReceived: 0,
    bytesExpected: 0,
    ...over,
  }) as AssemblyState;

const query = { authKey: 'key', page: 1, pagesize: 5000, kind: null, fromMs: null, toMs: null, keywords: [], assemblyId: null };

describe('assembly_index', () => {
  let dir = '';
  afterEach(async () => rm(dir, { recursive: true, force: true }));

  it('follows every save, and summarizes rows written before it existed', async () => {
    dir = await tempDir('index-');
    const db = openDatabase(dir);
    for (let i = 1; i <= 1200; i++) db.insertAssembly({ id: state(i).id, state: 'ASSEMBLY_COMPLETED', data: JSON.stringify(state(i)) });
    const failed = state(7, { ok: null, error: 'INVALID_INPUT_ERROR', message: 'Unreadable' });
    db.saveAssembly({ id: failed.id, state: 'INVALID_INPUT_ERROR', data: JSON.stringify(failed) });
    expect(db.assemblyIndex.query({ ...query, kind: 'failed' }).count).toBe(1);
    expect(db.assemblyIndex.query({ ...query, keywords: ['unreadable'] }).count).toBe(1);
    db.close();
    // A database from before this table: no summaries at all.
    const raw = new Database(join(dir, 'service.sqlite'));
    raw.exec('DROP TABLE assembly_index');
    raw.close();
    const reopened = openDatabase(dir);
    const all = reopened.assemblyIndex.query(query);
    expect(all.count).toBe(1200);
    expect((JSON.parse(all.items[0]!) as { id: string }).id).toBe(state(1200).id); // newest first
    expect(reopened.assemblyIndex.query({ ...query, kind: 'failed' }).count).toBe(1);
    expect(reopened.assemblyIndex.query({ ...query, keywords: ['item-1199'] }).count).toBe(1);
    reopened.close();
  });
});
