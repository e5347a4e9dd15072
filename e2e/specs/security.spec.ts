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

/** Another web page on this machine (another port is the same *site*: it would get any cookie of ours). */
async function startHostilePage(): Promise<{ server: Server; origin: string }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>Totally harmless</title><p>hello</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A second loopback server (a dev server, a tunnel, a result URL): records every request it gets, headers included. */
async function startRecordingServer(): Promise<{ server: Server; origin: string; seen: string[] }> {
  const seen: string[] = [];
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${JSON.stringify(req.headers)}`);
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end('<!doctype html><title>Another local server</title><p>hello</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, seen, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

test('the browser host keeps its token to itself: no cookie, a one-time link, and refusals without it', async ({ running, ui, browser }) => {
  // The electron project ignores this spec (playwright.config.ts): the HTTP gate belongs to the browser host.
  if (running.kind !== 'browser-host') throw new Error('security.spec.ts runs against the browser host only');
  const { port, origin, url } = running.app.host;
  const token = url.slice(url.indexOf('#token=') + '#token='.length);
  const stagingDir = running.app.core.stagingDir;

  // The app is up, the token is out of the address bar, and the browser holds no cookie for anyone.
  await expect(ui.getByTestId('drop-zone')).toBeEnabled();
  expect(ui.url()).toBe(`${origin}/`);
  expect(await ui.context().cookies()).toEqual([]);

  // Another server on 127.0.0.1 the same browser visits receives no token (cookies ignore ports; there is none).
  const other = await startRecordingServer();
  try {
    const visit = await ui.context().newPage();
    await visit.goto(`${other.origin}/page`);
    await visit.reload();
    await visit.close();
    expect(other.seen.length).toBeGreaterThanOrEqual(2);
    for (const request of other.seen) expect(request).not.toContain(token);
  } finally {
    await new Promise((resolve) => other.server.close(resolve));
  }

  // A browser that never saw the token gets the app's files but no bridge: it says how to open the app.
  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(`${origin}/`);
  await expect(strangerPage.getByText('Not connected to Assemblyline')).toBeVisible();
  await expect(strangerPage.getByTestId('drop-zone')).toHaveCount(0);

  // What `npm start` opens: a one-time code. It opens the app once, then nothing.
  const once = running.app.host.openUrl();
  expect(once).not.toContain(token);
  await strangerPage.goto(once);
  await expect(strangerPage.getByTestId('drop-zone')).toBeEnabled();
  expect(strangerPage.url()).toBe(`${origin}/`);
  // A reload keeps working: the tab kept the token (sessionStorage, this origin only).
  await strangerPage.reload();
  await expect(strangerPage.getByTestId('drop-zone')).toBeEnabled();
  const late = await (await browser.newContext()).newPage();
  const used = await late.goto(once);
  expect(used?.status()).toBe(403);
  expect(await late.textContent('body')).toContain('already used');
  await late.context().close();
  await stranger.close();

  // A hostile page in the SAME browser tries the bridge and the staging endpoint.
  const hostile = await startHostilePage();
  try {
    const evil = await ui.context().newPage();
    await evil.goto(hostile.origin);
    const attempt = await evil.evaluate(async (target) => {
      const g = globalThis as unknown as {
        WebSocket: new (u: string, p?: string[]) => { onopen: (() => void) | null; onerror: (() => void) | null; onmessage: ((e: { data: string }) => void) | null; send(s: string): void };
      };
      const socket = await new Promise<string>((resolve) => {
        const ws = new g.WebSocket(`ws://${target}/bridge`, ['assemblyline', 'assemblyline-token.guess']);
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

  // Even with the token: a foreign Origin, or a foreign name resolving to 127.0.0.1 (DNS rebinding), is refused.
  const own = { 'x-assemblyline-token': token };
  expect(await statusOf(port, '/session', { ...own, host: `127.0.0.1:${port}`, origin: 'https://evil.example' })).toBe(403);
  expect(await statusOf(port, '/session', { ...own, host: `rebind.evil.example:${port}` })).toBe(403);
  // The same token with our own Host works; without it, nothing.
  expect(await statusOf(port, '/session', { ...own, host: `127.0.0.1:${port}` })).toBe(204);
  expect(await statusOf(port, '/session', { host: `127.0.0.1:${port}` })).toBe(403);

  // The app itself keeps working over its own WebSocket.
  await expect(ui.getByTestId('drop-zone')).toBeVisible();
  await expect(ui.getByTestId('drop-zone')).toBeEnabled();
});
