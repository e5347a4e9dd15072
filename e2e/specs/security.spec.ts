import { readdir } from 'node:fs/promises';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '../fixtures/app';

/** Raw HTTP from Node, so the test sets Host and Origin the way a hostile page or a rebinding attack would. */
function statusOf(port: number, path: string, headers: Record<string, string>): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, headers }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Another web page on this machine (another port is the same *site*, so the browser sends our cookie along). */
async function startHostilePage(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>Totally harmless</title><p>hello</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test('the browser host refuses requests without the token, foreign Origins and foreign Hosts', async ({ running, ui, browser }) => {
  // The electron project ignores this spec (playwright.config.ts): the HTTP gate belongs to the browser host.
  if (running.kind !== 'browser-host') throw new Error('security.spec.ts runs against the browser host only');
  const { port, origin } = running.app.host;
  const stagingDir = running.app.core.stagingDir;

  // A browser that never saw the token URL gets nothing.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  const response = await strangerPage.goto(`${origin}/`);
  expect(response?.status()).toBe(403);
  await expect(strangerPage.getByTestId('drop-zone')).toHaveCount(0);
  await stranger.close();

  const cookie = (await ui.context().cookies(origin)).find((c) => c.name === 'assemblyline_token');
  expect(cookie?.httpOnly).toBe(true);
  expect(cookie?.sameSite).toBe('Strict');

  // A hostile page in the SAME browser (it holds the cookie) tries the bridge and the staging endpoint.
  const hostile = await startHostilePage();
  try {
    const evil = await ui.context().newPage();
    await evil.goto(hostile.origin);
    const attempt = await evil.evaluate(async (target) => {
      const g = globalThis as unknown as {
        WebSocket: new (u: string) => { onopen: (() => void) | null; onerror: (() => void) | null; onmessage: ((e: { data: string }) => void) | null; send(s: string): void };
      };
      const socket = await new Promise<string>((resolve) => {
        const ws = new g.WebSocket(`ws://${target}/bridge`);
        ws.onopen = () => {
          ws.send(JSON.stringify({ id: 1, channel: 'app:info', request: {} }));
          ws.onmessage = (e) => resolve(`answered ${e.data.slice(0, 40)}`);
        };
        ws.onerror = () => resolve('refused');
      });
      const put = await fetch(`http://${target}/staging/evil/owned.txt`, { method: 'PUT', body: 'x', mode: 'no-cors', credentials: 'include' })
        .then(() => 'sent')
        .catch(() => 'blocked');
      return { socket, put };
    }, `127.0.0.1:${port}`);
    expect(attempt.socket).toBe('refused');
    expect(['sent', 'blocked']).toContain(attempt.put);
    // Whatever the browser did with the PUT, nothing reached the staging folder.
    expect(await readdir(stagingDir)).not.toContain('evil');
    await evil.close();
  } finally {
    await new Promise((resolve) => hostile.server.close(resolve));
  }

  const headers = { cookie: `assemblyline_token=${cookie?.value}` };
  expect(await statusOf(port, '/', { ...headers, host: `127.0.0.1:${port}`, origin: 'https://evil.example' })).toBe(403);
  // DNS rebinding: a foreign name that resolves to 127.0.0.1 is refused even with the cookie.
  expect(await statusOf(port, '/', { ...headers, host: `rebind.evil.example:${port}` })).toBe(403);
  // The same cookie with our own Host works: the refusals above are about Host and Origin, not the cookie.
  expect(await statusOf(port, '/', { ...headers, host: `127.0.0.1:${port}` })).toBe(200);

  // The app itself keeps working over its own WebSocket.
  await expect(ui.getByTestId('drop-zone')).toBeVisible();
  await expect(ui.getByTestId('drop-zone')).toBeEnabled();
});
