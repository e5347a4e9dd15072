// Crash suite, service side: kill -9 the local service (its own process) at random points of a tus batch,
// restart it on the same data dir, and check that every Assembly ends clearly, every acknowledged byte is
// intact, and every file is processed exactly once or goes through when sent again. See crash-round.ts.
// ASSEMBLYLINE_CRASH_ROUNDS sets the number of kills; bench/crash-loop.ts runs many more.
import { randomInt } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { crashRound } from './crash-round';

const ROUNDS = Number(process.env.ASSEMBLYLINE_CRASH_ROUNDS) || 3;
const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('kill -9 of the service mid-batch', () => {
  // Spread the kills over the batch: early (uploads starting), middle, late (processing or done).
  const killPoints = Array.from({ length: ROUNDS }, (_, i) => Math.round(((i + 0.5) / ROUNDS) * 1500) + randomInt(0, 200));
  for (const killAfterMs of killPoints) {
    it(`killed after ${killAfterMs} ms: clear end states, nothing acknowledged lost, each file processed once or resent`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'al-crash-'));
      dirs.push(dir);
      const r = await crashRound({ dir, assemblies: 3, filesPerAssembly: 3, killAfterMs });
      console.log(`crash round: ${JSON.stringify({ ...r, problems: r.problems.length })}`);
      expect(r.problems).toEqual([]);
      expect(r.completedAssemblies + r.crashedAssemblies).toBe(r.assemblies);
    }, 180_000);
  }
});
