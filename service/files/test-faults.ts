// Test-only faults of the service's upload path (docs/local-service.md "Test-only faults"). A test that
// checks end-to-end checksums needs a service that stores a wrong byte once; one that checks the app's
// "every file, exactly once" invariant needs a service that completes an Assembly without one of its files.
// Nothing else may ever turn these on. Honoured only when the environment asks for it AND the process runs
// tests (NODE_ENV=test, as Vitest sets) or was started with --test-faults; otherwise refused with a warning.

/** The file name whose first upload (tus or multipart) is stored with one byte flipped. */
export const CORRUPT_FAULT_ENV = 'ASSEMBLYLINE_TEST_FAULT_CORRUPT';
/** The file name whose uploads are left out of their Assembly (it completes without them). */
export const DROP_FAULT_ENV = 'ASSEMBLYLINE_TEST_FAULT_DROP';
/** How many uploads of that name are left out (default: every one). */
export const DROP_TIMES_ENV = 'ASSEMBLYLINE_TEST_FAULT_DROP_TIMES';
export const TEST_FAULTS_FLAG = '--test-faults';

export interface FaultNames {
  corruptName: string | null;
  dropName: string | null;
  /** null: every upload of `dropName`. */
  dropTimes: number | null;
}

export type FaultConfig = FaultNames | { refused: string } | null;

/** What the environment asks for, and whether it may be honoured. Pure. */
export function faultConfig(env: Record<string, string | undefined>, argv: readonly string[]): FaultConfig {
  const corruptName = env[CORRUPT_FAULT_ENV] || null;
  const dropName = env[DROP_FAULT_ENV] || null;
  if (!corruptName && !dropName) return null;
  if (env.NODE_ENV === 'test' || argv.includes(TEST_FAULTS_FLAG)) {
    const times = Number(env[DROP_TIMES_ENV]);
    return { corruptName, dropName, dropTimes: Number.isInteger(times) && times > 0 ? times : null };
  }
  const names = [corruptName ? CORRUPT_FAULT_ENV : null, dropName ? DROP_FAULT_ENV : null].filter(Boolean).join(' and ');
  return { refused: `${names} ${corruptName && dropName ? 'are' : 'is'} set but ignored: test faults need NODE_ENV=test or ${TEST_FAULTS_FLAG}.` };
}

export interface TestFaults {
  /** True for the first upload named `filename` when that name is to be corrupted; false ever after. */
  takeCorrupt(filename: string | null): boolean;
  /** True when this upload of `filename` is to be left out of its Assembly's uploads. */
  takeDrop(filename: string | null): boolean;
}

export const NO_FAULTS: TestFaults = { takeCorrupt: () => false, takeDrop: () => false };

export function testFaults(names: FaultConfig): TestFaults {
  if (names === null || 'refused' in names) return NO_FAULTS;
  let corrupted = false;
  let dropped = 0;
  return {
    takeCorrupt: (filename) => {
      if (corrupted || names.corruptName === null || filename !== names.corruptName) return false;
      corrupted = true;
      return true;
    },
    takeDrop: (filename) => {
      if (names.dropName === null || filename !== names.dropName) return false;
      if (names.dropTimes !== null && dropped >= names.dropTimes) return false;
      dropped++;
      return true;
    },
  };
}
