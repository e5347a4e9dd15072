import { BRIDGE_GLOBAL, type AssemblylineBridge } from '../../../shared/ipc/bridge';

/** The only module that reads `window.assemblyline`. Everything else gets the bridge from BridgeProvider. */
export const findBridge = (): AssemblylineBridge | null => {
  const candidate = (window as unknown as Record<string, unknown>)[BRIDGE_GLOBAL];
  return candidate && typeof (candidate as AssemblylineBridge).invoke === 'function' ? (candidate as AssemblylineBridge) : null;
};

/**
 * The browser host may install its bridge a moment after the page starts (it connects a WebSocket
 * first), so wait briefly before declaring the page disconnected.
 */
export const waitForBridge = async (timeoutMs = 5_000, intervalMs = 25): Promise<AssemblylineBridge | null> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const bridge = findBridge();
    if (bridge || Date.now() >= deadline) return bridge;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
};
