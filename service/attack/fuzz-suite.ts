// Test-side wiring of the fuzzers: one service per test file, each fuzzer one test, strict invariants.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tinyJpeg, type Fuzzer } from './fuzz-properties';
import { FuzzTarget, fuzzRuns } from './fuzz-target';

/** Generous: the machine is shared; shrinking a hang costs a deadline and a restart per step. */
const TEST_TIMEOUT_MS = 600_000;

export function fuzzSuite(title: string, fuzzers: readonly Fuzzer[]): void {
  describe(title, () => {
    let t: FuzzTarget;
    let img: Buffer;
    beforeAll(async () => {
      t = await FuzzTarget.start({ strict: true });
      img = await tinyJpeg();
    }, 60_000);
    afterAll(async () => {
      const problems = await t.close();
      expect(problems, 'sandbox after the last case').toEqual([]);
    }, 60_000);

    for (const f of fuzzers) {
      it(`${f.name}: every answer < 500, every 4xx a JSON error code, no hang, nothing written outside the data dir`, async () => {
        await fc.assert(f.property(t, img), { numRuns: fuzzRuns(), interruptAfterTimeLimit: TEST_TIMEOUT_MS - 60_000, markInterruptAsFailure: false });
        expect(t.stats.cases).toBeGreaterThan(0);
      }, TEST_TIMEOUT_MS);
    }
  });
}
