import { afterEach, describe, expect, it } from 'vitest';
import { BRIDGE_GLOBAL } from '../../../shared/ipc/bridge';
import { findBridge, waitForBridge } from './get-bridge';
import { createFakeBridge } from './test/fake-bridge';

const slot = window as unknown as Record<string, unknown>;

describe('waitForBridge', () => {
  afterEach(() => {
    delete slot[BRIDGE_GLOBAL];
    delete document.documentElement.dataset.bridge;
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

  it('stops waiting at once when the browser host says no bridge comes (no token for this launch)', async () => {
    document.documentElement.dataset.bridge = 'none';
    // A long timeout it must not wait out: the answer comes on the first look.
    const answer = await Promise.race([waitForBridge(60_000, 10), new Promise((r) => setTimeout(() => r('still waiting'), 1_000))]);
    expect(answer).toBeNull();
  });
});
