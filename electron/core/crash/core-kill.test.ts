// Crash suite, app side: kill -9 the app's core (its whole process group) at random points of a batch,
// reopen a core on the same data dir, and check the run: against a service that outlived the core it
// resumes and completes, each file once and intact; against the embedded service (gone with the core) it
// ends in a clear state. See core-crash-round.ts. ASSEMBLYLINE_CRASH_ROUNDS sets the kills per mode.
import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { coreCrashRound } from './core-crash-round';

const ROUNDS = Number(process.env.ASSEMBLYLINE_CRASH_ROUNDS) || 2;
let root = '';
let remote: LocalService;

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'al-core-crash-'));
  remote = await startLocalService({ dataDir: path.join(root, 'remote-service'), port: 0 });
});
afterAll(async () => {
  await remote?.close();
  await rm(root, { recursive: true, force: true });
});

/** Kill points spread over the batch, each nudged at random. */
const killPoints = (): number[] => Array.from({ length: ROUNDS }, (_, i) => Math.min(0.95, (i + 0.3) / ROUNDS + randomInt(0, 100) / 1000));

describe('kill -9 of the core mid-batch', () => {
  for (const killAt of killPoints()) {
    it(`remote workspace, killed at ${Math.round(killAt * 100)} % of the bytes: the reopened core resumes and completes, each file once, intact`, async () => {
      const dir = await mkdtemp(path.join(root, 'remote-'));
      const r = await coreCrashRound({ dir, remote: { url: remote.url, authKey: remote.authKey, authSecret: remote.authSecret }, files: 4, killAt });
      console.log(`core crash round: ${JSON.stringify({ ...r, problems: r.problems.length })}`);
      expect(r.problems).toEqual([]);
      expect(r.state).toBe('ASSEMBLY_COMPLETED');
    }, 300_000);
  }

  it('embedded service, killed mid-batch: the reopened core shows the run in a clear end state that agrees with its files', async () => {
    const dir = await mkdtemp(path.join(root, 'local-'));
    const r = await coreCrashRound({ dir, files: 4, killAt: 0.3 + randomInt(0, 400) / 1000 });
    console.log(`core crash round: ${JSON.stringify({ ...r, problems: r.problems.length })}`);
    expect(r.problems).toEqual([]);
    expect(r.state).toMatch(/^(ASSEMBLY_COMPLETED|ASSEMBLY_CRASHED)$/);
  }, 300_000);
});
