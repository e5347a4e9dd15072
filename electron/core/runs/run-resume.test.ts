import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { PRESETS } from '../../../shared/api/presets';
import type { RunProgress } from '../../../shared/ipc/models';
import { createCore, type Core, type CorePorts } from '../create-core';
import { createUnavailableSecretStore } from '../vault/unavailable-secret-store';
import { createRecordingDesktop } from '../ports/recording-desktop';

// A restart of the app: core A is closed mid-upload, core B opens the same data dir. Against a service
// that keeps running (a standalone local service standing in for a remote deployment) the upload resumes
// from the server's offset; against the embedded service, which restarted too, the run shows its crash.
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
    await mkdir(dataDir, { recursive: true });
    await writeFile(
      path.join(dataDir, 'workspaces.json'),
      JSON.stringify({
        version: 1,
        activeWorkspaceId: 'remote',
        workspaces: [{ id: 'remote', name: 'Remote', kind: 'remote', endpoint: remote.url, authKey: remote.authKey }],
      }),
    );
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

  it('lists earlier runs after a restart, and shows the crash when the embedded service restarted too', async () => {
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
    const crashed = await b.runs.settled(start.value.runId);
    expect(crashed.ok).toBe(true);
    if (!crashed.ok) return;
    expect(crashed.value.error?.code).toBe('ASSEMBLY_CRASHED');
    expect(crashed.value.state).toBe('ASSEMBLY_CRASHED');
    // Whether the upload itself had finished when the app stopped depends on disk and CPU speed (96 MiB
    // go in well under a second here); either way the file's state agrees with its bytes.
    const file = crashed.value.files[0]!;
    if (file.state === 'uploaded') expect(file.bytesUploaded).toBe(bigSize);
    else expect(file).toMatchObject({ state: 'canceled' });
    expect(crashed.value.totals.bytesUploaded).toBeGreaterThan(0);
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
