import { expect, test } from '../fixtures/app';

interface PageResult {
  ok: boolean;
  value?: { host?: string };
  error?: { code: string; message: string };
}

test('the page bridge carries requests to core, cannot be replaced, and answers HOST_DISCONNECTED once the host is gone', async ({ running, ui }) => {
  // The electron project ignores this spec (playwright.config.ts): it is about the browser host's WebSocket.
  if (running.kind !== 'browser-host') throw new Error('browser-bridge.spec.ts runs against the browser host only');
  const call = () =>
    ui.evaluate(() => {
      const bridge = (globalThis as unknown as { assemblyline: { invoke(c: string, r: object): Promise<unknown> } }).assemblyline;
      return bridge.invoke('app:info', {}) as Promise<PageResult>;
    });

  const info = await call();
  expect(info).toMatchObject({ ok: true, value: { host: 'browser' } });

  // A script in the page cannot swap the bridge for its own.
  const replaced = await ui.evaluate(() => {
    const g = globalThis as unknown as Record<string, unknown>;
    const before = g.assemblyline;
    try {
      g.assemblyline = { host: 'evil' };
    } catch {
      // Strict-mode code throws; sloppy code silently fails. Either way it must not change.
    }
    const bridge = g.assemblyline as Record<string, unknown>;
    try {
      bridge.invoke = () => 'hijacked';
    } catch {
      // Frozen.
    }
    return g.assemblyline === before && bridge.host === 'browser' && typeof bridge.invoke === 'function' && Object.isFrozen(bridge);
  });
  expect(replaced).toBe(true);

  // The host stops (the user quit it): requests answer at once with an error the UI can show, instead of hanging.
  await running.app.host.close();
  const afterClose = await call();
  expect(afterClose.ok).toBe(false);
  expect(afterClose.error?.code).toBe('HOST_DISCONNECTED');
});
