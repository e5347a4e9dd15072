// Test-only faults of the service's upload path (docs/local-service.md "Test-only faults"). A test that
// checks end-to-end checksums needs a service that stores a wrong byte once; nothing else may ever turn
// this on. Honoured only when the environment asks for it AND the process runs tests (NODE_ENV=test, as
// Vitest sets) or was started with --test-faults; otherwise refused with a warning.

/** The file name whose first upload (tus or multipart) is stored with one byte flipped. */
export const CORRUPT_FAULT_ENV = 'ASSEMBLYLINE_TEST_FAULT_CORRUPT';
export const TEST_FAULTS_FLAG = '--test-faults';

export type FaultConfig = { corruptName: string } | { refused: string } | null;

/** What the environment asks for, and whether it may be honoured. Pure. */
export function faultConfig(env: Record<string, string | undefined>, argv: readonly string[]): FaultConfig {
  const name = env[CORRUPT_FAULT_ENV];
  if (!name) return null;
  if (env.NODE_ENV === 'test' || argv.includes(TEST_FAULTS_FLAG)) return { corruptName: name };
  return { refused: `${CORRUPT_FAULT_ENV} is set but ignored: test faults need NODE_ENV=test or ${TEST_FAULTS_FLAG}.` };
}

export interface TestFaults {
  /** True for the first upload named `filename` when that name is to be corrupted; false ever after. */
  takeCorrupt(filename: string | null): boolean;
}

export const NO_FAULTS: TestFaults = { takeCorrupt: () => false };

export function testFaults(corruptName: string | null): TestFaults {
  if (corruptName === null) return NO_FAULTS;
  let used = false;
  return {
    takeCorrupt: (filename) => {
      if (used || filename !== corruptName) return false;
      used = true;
      return true;
    },
  };
}
