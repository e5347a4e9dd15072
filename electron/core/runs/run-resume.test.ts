import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { PRESETS } from '../../../shared/api/presets';
import type { RunProgress } from '../../../shared/ipc/models';
import { createCore, type Core, type CorePorts } from '../create-core';
import { createUnavailableSecretStore } from '../vault/unavailable-secret-store';
import { createRecordingDesktop } from '../ports/recording-desktop';
import { until } from '../transfers/testing/engine-fixture';

// A restart of the app: core A is closed mid-upload, core B opens the same data dir. Against a service
// that keeps running (a standalone local service standing in for a remote deployment) the upload resumes
// from the server's offset; against the embedded service, which restarted too, it resumes as well (the
// service takes up Assemblies that were still waiting for uploads).
const storeOriginals = PRESETS.find((p) => p.id === 'store-originals')!;
const MiB = 1024 * 1024;
let dir = '';
let remote: LocalService;
let bigFile = '';
let bigMd5 = '';
const bigSize = 96 * MiB;
const open: Core[] = [];

async function writeRandom(file: string, size: number): Promise<string> {
  const out = createWriteStream(file);
  const hash = createHash('md5');
  for (let written = 0; written < size; written += MiB) {
    const chunk = randomBytes(MiB);
    hash.update(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return hash.digest('hex');
}

const ports = (dataDir: string): CorePorts => ({
  dataDir,
  downloadsDir: path.join(dir, 'downloads'),
  secretStore: createUnavailableSecretStore('No OS keyring is available (test).'),
  desktop: createRecordingDesktop(),
  host: 'browser',
  version: 'test',
  upload: { chunkSize: 8 * MiB },
});

async function startCore(dataDir: string): Promise<Core> {
  const core = await createCore(ports(dataDir));
  open.push(core);
  return core;
}

/** A data dir whose active workspace is the standalone service (standing in for a remote deployment). */
async function useRemoteWorkspace(dataDir: string): Promise<void> {
  await mkdir(dataDir, { recursive: true });
  await writeFile(
    path.join(dataDir, 'workspaces.json'),
    JSON.stringify({
      version: 1,
      activeWorkspaceId: 'remote',
      workspaces: [{ id: 'remote', name: 'Remote', kind: 'remote', endpoint: remote.url, authKey: remote.authKey }],
    }),
  );
}

/** Resolves once the run has this many bytes confirmed, then closes the core as an app quit would. */
function closeAfterBytes(core: Core, bytes: number): Promise<void> {
  return new Promise((resolve) => {
    const off = core.onEvent((name, payload) => {
      if (name === 'run:progress' && (payload as RunProgress).totals.bytesUploaded >= bytes) {
        off();
        void core.close().then(resolve);
      }
    });
  });
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-resume-'));
  remote = await startLocalService({ dataDir: path.join(dir, 'remote-service'), port: 0 });
  await mkdir(path.join(dir, 'in'), { recursive: true });
  bigFile = path.join(dir, 'in', 'big.bin');
  bigMd5 = await writeRandom(bigFile, bigSize);
}, 60_000);

afterAll(async () => {
  for (const core of open) await core.close();
  await remote?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('runs across an app restart', () => {
  it('resumes an unfinished upload from the offset the service confirmed, into the same Assembly', async () => {
    const dataDir = path.join(dir, 'data-remote');
    await useRemoteWorkspace(dataDir);
    const a = await startCore(dataDir);
    expect((await a.vault.acceptUnprotected()).backend).toBe('unprotected-file');
    expect((await a.vault.set('remote', remote.authSecret)).ok).toBe(true);
    const closed = closeAfterBytes(a, 16 * MiB);
    const start = await a.handlers['runs:start']({
      files: [{ handle: a.files.register(path.dirname(bigFile)), relativePath: 'in/big.bin', name: 'big.bin', size: bigSize, mime: null }],
      instructions: { steps: storeOriginals.steps },
    });
    expect(start.ok).toBe(true);
    if (!start.ok) return;
    const { runId, assemblyId } = start.value;
    await closed;

    const progress: RunProgress[] = [];
    const b = await startCore(dataDir);
    b.onEvent((name, payload) => name === 'run:progress' && progress.push(payload as RunProgress));
    const listed = await b.handlers['runs:get']({ runId });
    expect(listed.ok && listed.value.assemblyId).toBe(assemblyId);
    const final = await b.runs.settled(runId);
    expect(final.ok).toBe(true);
    if (!final.ok) return;
    expect(final.value.error).toBeNull();
    expect(final.value.state).toBe('ASSEMBLY_COMPLETED');
    expect(final.value.files[0]).toMatchObject({ state: 'uploaded', bytesUploaded: bigSize });
    // Resumed, not restarted: the first bytes B reports are past what A had confirmed.
    expect(progress[0]!.files[0]!.bytesUploaded).toBeGreaterThanOrEqual(8 * MiB);
    // One upload in the Assembly, byte for byte the file on disk.
    const uploads = final.value.status?.uploads ?? [];
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ size: bigSize, md5hash: bigMd5 });
  }, 120_000);

  it('shows a file the service received whole as uploaded, though the app died before saving that', async () => {
    const dataDir = path.join(dir, 'data-lagging');
    await useRemoteWorkspace(dataDir);
    const small = path.join(dir, 'in', 'small.bin');
    await writeFile(small, randomBytes(3 * MiB));
    const a = await startCore(dataDir);
    await a.vault.acceptUnprotected();
    expect((await a.vault.set('remote', remote.authSecret)).ok).toBe(true);
    const start = await a.handlers['runs:start']({
      files: [{ handle: a.files.register(small), relativePath: 'small.bin', name: 'small.bin', size: 3 * MiB, mime: null }],
      instructions: { steps: storeOriginals.steps },
    });
    expect(start.ok).toBe(true);
    if (!start.ok) return;
    expect((await a.runs.settled(start.value.runId)).ok).toBe(true);
    await a.close();
    // A kill -9 between the last PATCH and saving its answer: the store still says "uploading, 2 MiB".
    const db = new Database(path.join(dataDir, 'core.sqlite'));
    db.prepare("UPDATE runs SET finished = 0, state = 'ASSEMBLY_UPLOADING' WHERE run_id = ?").run(start.value.runId);
    db.prepare("UPDATE run_files SET state = 'uploading', bytes_uploaded = ? WHERE run_id = ?").run(2 * MiB, start.value.runId);
    db.close();
    const queue = new Database(path.join(dataDir, 'transfers.sqlite'));
    queue.prepare("UPDATE files SET state = 'uploading', bytes_sent = ?").run(2 * MiB);
    queue.prepare("UPDATE batches SET json = json_set(json, '$.state', 'uploading', '$.assemblyDone', json('false'))").run();
    queue.close();

    const b = await startCore(dataDir);
    // The queue trusts the service (the upload is listed whole) and checks the file's md5 against it.
    await until(() => b.transfers.rows({ offset: 0, limit: 1 }).rows[0]?.state === 'verified');
    const runId = start.value.runId;
    await until(() => {
      const r = b.runs.get(runId);
      return r.ok && r.value.files[0]?.state === 'uploaded';
    });
    const after = await b.runs.settled(start.value.runId);
    expect(after.ok).toBe(true);
    if (!after.ok) return;
    expect(after.value.state).toBe('ASSEMBLY_COMPLETED');
    expect(after.value.files[0]).toMatchObject({ state: 'uploaded', bytesUploaded: 3 * MiB });
    expect(after.value.totals).toMatchObject({ filesUploaded: 1, bytesUploaded: 3 * MiB });
  }, 120_000);

  it('lists earlier runs after a restart, and resumes an upload when the embedded service restarted too', async () => {
    const dataDir = path.join(dir, 'data-local');
    const a = await startCore(dataDir);
    const failed = await a.handlers['runs:start']({ files: [], instructions: { steps: { x: { robot: '/nope' } } } });
    expect(failed.ok && failed.value.error?.code).toBe('ASSEMBLY_STEP_UNKNOWN_ROBOT');
    const closed = closeAfterBytes(a, 8 * MiB);
    const start = await a.handlers['runs:start']({
      files: [{ handle: a.files.register(bigFile), relativePath: 'big.bin', name: 'big.bin', size: bigSize, mime: null }],
      instructions: { steps: storeOriginals.steps },
    });
    expect(start.ok).toBe(true);
    if (!start.ok || !failed.ok) return;
    await closed;

    const b = await startCore(dataDir);
    const list = await b.handlers['runs:list']({});
    expect(list.ok && list.value.map((r) => r.runId).sort()).toEqual([failed.value.runId, start.value.runId].sort());
    const earlier = await b.handlers['runs:get']({ runId: failed.value.runId });
    expect(earlier.ok && earlier.value.error?.code).toBe('ASSEMBLY_STEP_UNKNOWN_ROBOT');
    const after = await b.runs.settled(start.value.runId);
    expect(after.ok).toBe(true);
    if (!after.ok) return;
    // The embedded service restarted with the app. An Assembly still uploading then waits for its upload
    // again, which resumes and completes; only one caught executing (96 MiB may go in well under a second)
    // ends ASSEMBLY_CRASHED. An upload is never lost to the restart.
    if (after.value.error === null) {
      expect(after.value.state).toBe('ASSEMBLY_COMPLETED');
      expect(after.value.files[0]).toMatchObject({ state: 'uploaded', bytesUploaded: bigSize });
      expect(after.value.status?.uploads).toHaveLength(1);
      expect(after.value.status?.uploads?.[0]).toMatchObject({ size: bigSize, md5hash: bigMd5 });
    } else {
      expect(after.value.error).toMatchObject({ code: 'ASSEMBLY_CRASHED', message: expect.stringContaining('while this Assembly was executing') });
    }
  }, 120_000);
});


describe('rebaseLoopback', () => {
  it("moves a loopback URL to today's embedded service port and leaves other URLs alone", async () => {
    const { rebaseLoopback } = await import('./run-manager');
    expect(rebaseLoopback('http://127.0.0.1:4000/resumable/files/abc?x=1', 'http://127.0.0.1:5000')).toBe('http://127.0.0.1:5000/resumable/files/abc?x=1');
    expect(rebaseLoopback('https://api2-x.transloadit.com/assemblies/a', 'http://127.0.0.1:5000')).toBe('https://api2-x.transloadit.com/assemblies/a');
    expect(rebaseLoopback('http://127.0.0.1:4000/a', 'https://api2.transloadit.com')).toBe('http://127.0.0.1:4000/a');
  });
});
