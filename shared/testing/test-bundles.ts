/**
 * The child processes tests start, bundled once per Vitest run by scripts/vitest-global-setup.ts (with the
 * build Electron ships) instead of run through tsx, which costs ~2 s of CPU per start. The folder comes as
 * ASSEMBLYLINE_TEST_BUNDLES and counts only in a process that runs tests (NODE_ENV=test, set by Vitest and
 * inherited by the children tests start): the app never sets either, and a bench or script without them
 * runs the sources through tsx.
 */
export const TEST_BUNDLES_ENV = 'ASSEMBLYLINE_TEST_BUNDLES';

/** Bundle file → its source entry (from the repository's root). */
export const TEST_BUNDLES = {
  'service-child.cjs': 'service/child-entry.ts',
  'service-cli.cjs': 'service/cli.ts',
  'core-child.cjs': 'electron/core/crash/core-child.ts',
} as const;

export type TestBundle = keyof typeof TEST_BUNDLES;

/** The bundle's path when this process runs tests and the bundles were built; otherwise null. Pure. */
export function testBundle(env: Readonly<Record<string, string | undefined>>, file: TestBundle): string | null {
  const dir = env[TEST_BUNDLES_ENV];
  return dir && env.NODE_ENV === 'test' ? `${dir}/${file}` : null;
}
