import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESETS } from '../../../shared/api/presets';
import type { Run } from '../../../shared/ipc/models';
import { createCore, type Core } from '../create-core';
import { dispatch } from '../ipc/dispatch';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';
import { pruneStaging, removeFinishedBatches, stagingBatchOf } from './staging-janitor';
import { createRecordingDesktop } from '../ports/recording-desktop';

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-staging-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function stage(stagingDir: string, batch: string, rel: string, bytes = 'x'): Promise<string> {
  const file = path.join(stagingDir, batch, ...rel.split('/'));
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes);
  return file;
}

describe('staging janitor', () => {
  it('finds the batch of a staged file and ignores files elsewhere', () => {
    const staging = path.join(dir, 'data', 'staging');
    expect(stagingBatchOf(staging, path.join(staging, 'b1', 'photos', 'a.jpg'))).toBe(path.join(staging, 'b1'));
    expect(stagingBatchOf(staging, path.join(dir, 'photos', 'a.jpg'))).toBeNull();
    expect(stagingBatchOf(staging, path.join(staging, '..', 'staging-other', 'a.jpg'))).toBeNull();
    expect(stagingBatchOf(staging, staging)).toBeNull();
  });

  it('removes a finished batch but keeps one an unfinished run still reads, and never touches files outside', async () => {
    const staging = path.join(dir, 'unit-staging');
    const done = await stage(staging, 'done', 'photos/a.jpg');
    const shared = await stage(staging, 'shared', 'b.jpg');
    const outside = path.join(dir, 'mine.jpg');
    await writeFile(outside, 'keep');
    const removed = await removeFinishedBatches(staging, [done, shared, outside], [shared]);
    expect(removed).toEqual([path.join(staging, 'done')]);
    expect(existsSync(path.join(staging, 'done'))).toBe(false);
    expect(existsSync(shared)).toBe(true);
    expect(existsSync(outside)).toBe(true);

    const left = await stage(staging, 'left-over', 'c.jpg');
    expect(await pruneStaging(staging, [shared])).toEqual([path.join(staging, 'left-over')]);
    expect(existsSync(left)).toBe(false);
    expect(existsSync(shared)).toBe(true);
  });

  it('in core: a staged drop is deleted once its run completes, and left-overs are pruned at the next start', async () => {
    const dataDir = path.join(dir, 'core-data');
    const ports = {
      dataDir,
      downloadsDir: path.join(dir, 'downloads'),
      secretStore: createKeyringSecretStore('assemblyline-staging-test'),
      desktop: createRecordingDesktop(),
      host: 'browser' as const,
      version: '0.0.0',
    };
    let core: Core = await createCore(ports);
    try {
      await stage(core.stagingDir, 'batch1', 'photos/a.txt', 'hello');
      await stage(core.stagingDir, 'batch1', 'photos/sub/b.txt', 'world');
      const handle = core.files.register(path.join(core.stagingDir, 'batch1', 'photos'));
      const scan = await dispatch(core.handlers, 'files:scan', { handles: [handle] });
      if (!scan.ok) throw new Error(scan.error.message);
      const files = (scan.value as { files: unknown[] }).files;
      const steps = PRESETS.find((p) => p.id === 'store-originals')!.steps;
      const start = await dispatch(core.handlers, 'runs:start', { files, instructions: { steps } });
      if (!start.ok) throw new Error(start.error.message);
      const final = await core.runs.settled((start.value as Run).runId);
      expect(final.ok && final.value.state).toBe('ASSEMBLY_COMPLETED');
      await expect.poll(() => existsSync(path.join(core.stagingDir, 'batch1')), { timeout: 5000 }).toBe(false);

      // Dropped but never started: still there while the app runs, gone after a restart.
      await stage(core.stagingDir, 'batch2', 'never-started.txt');
      await core.close();
      core = await createCore(ports);
      expect(existsSync(path.join(core.stagingDir, 'batch2'))).toBe(false);
    } finally {
      await core.close();
    }
  }, 60_000);
});
