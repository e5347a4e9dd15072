import { BRIDGE_GLOBAL, type AssemblylineBridge } from '../../../shared/ipc/bridge';

/** The only module that reads `window.assemblyline`. Everything else gets the bridge from BridgeProvider. */
export const findBridge = (): AssemblylineBridge | null => {
  const candidate = (window as unknown as Record<string, unknown>)[BRIDGE_GLOBAL];
  return candidate && typeof (candidate as AssemblylineBridge).invoke === 'function' ? (candidate as AssemblylineBridge) : null;
};

/**
 * The browser host may install its bridge a moment after the page starts (it checks the page's token
 * first), so wait briefly before declaring the page disconnected — or not at all once the browser host
 * said it will not install one (`<html data-bridge="none">`: the page was opened without this launch's token).
 */
export const waitForBridge = async (timeoutMs = 5_000, intervalMs = 25): Promise<AssemblylineBridge | null> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const bridge = findBridge();
    if (bridge || Date.now() >= deadline || document.documentElement.dataset.bridge === 'none') return bridge;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
};
