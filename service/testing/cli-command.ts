// How a test runs the service's CLI (`npm run service`) in a child process. Not used by production code.
import { testBundle } from '../../shared/testing/test-bundles';

/**
 * Node's arguments before the CLI's own: the CLI bundle Vitest's global setup built (shared/testing/
 * test-bundles.ts), else service/cli.ts through tsx's loader (bench/, scripts). Run from the repository's root.
 */
export function serviceCliArgs(): string[] {
  const bundle = testBundle(process.env, 'service-cli.cjs');
  return bundle ? [bundle] : ['--import', 'tsx', 'service/cli.ts'];
}
