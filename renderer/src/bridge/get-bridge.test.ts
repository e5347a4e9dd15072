import { afterEach, describe, expect, it } from 'vitest';
import { BRIDGE_GLOBAL } from '../../../shared/ipc/bridge';
import { findBridge, waitForBridge } from './get-bridge';
import { createFakeBridge } from './test/fake-bridge';

const slot = window as unknown as Record<string, unknown>;

describe('waitForBridge', () => {
  afterEach(() => {
    delete slot[BRIDGE_GLOBAL];
  });

  it('finds a bridge the host installs a moment after the page starts', async () => {
    const bridge = createFakeBridge();
    setTimeout(() => (slot[BRIDGE_GLOBAL] = bridge), 60);
    expect(findBridge()).toBeNull();
    await expect(waitForBridge(2_000, 10)).resolves.toBe(bridge);
  });

  it('gives up with null when no host is there, and ignores things that are not a bridge', async () => {
    slot[BRIDGE_GLOBAL] = { hello: true };
    await expect(waitForBridge(80, 10)).resolves.toBeNull();
  });
});
