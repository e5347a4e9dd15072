import { describe, expect, it } from 'vitest';
import { TEST_BUNDLES_ENV, testBundle } from './test-bundles';

describe('testBundle', () => {
  it('names a bundle only in a process that runs tests, so the app never runs a file the environment names', () => {
    expect(testBundle({ [TEST_BUNDLES_ENV]: '/b', NODE_ENV: 'test' }, 'service-child.cjs')).toBe('/b/service-child.cjs');
    expect(testBundle({ [TEST_BUNDLES_ENV]: '/b', NODE_ENV: 'production' }, 'service-child.cjs')).toBeNull();
    expect(testBundle({ [TEST_BUNDLES_ENV]: '/b' }, 'core-child.cjs')).toBeNull();
    expect(testBundle({ NODE_ENV: 'test' }, 'service-cli.cjs')).toBeNull();
  });
});
