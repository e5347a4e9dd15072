import { readFile, writeFile, readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Core } from '../core/create-core';
import type { BrowserHost } from './browser-host';
import { startTestHost, type TestHost } from './testing/test-host';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Raw HTTP so the test controls Host and Origin exactly as an attacker's browser or a rebinding page would. */
function send(port: number, options: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: options.method ?? 'GET', path: options.path, headers: { host: `127.0.0.1:${port}`, ...options.headers } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

function openSocket(host: BrowserHost, headers: Record<string, string>, protocols: string[] = []): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge`, protocols, { headers });
    ws.once('open', () => resolve(ws));
    ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.once('error', reject);
  });
}

describe('browser host', () => {
  let dir: string;
  let core: Core;
  let host: BrowserHost;
  let token: string;
  let own: Record<string, string>;

  let testHost: TestHost;

  beforeAll(async () => {
    testHost = await startTestHost({
      prefix: 'browser-host-',
      renderer: {
        'index.html': '<!doctype html><html><head><script type="module" src="/assets/app.js"></script></head><body></body></html>',
        'assets/app.js': 'console.log("app")',
      },
      pageBridge: 'window.bridgeLoaded = true',
    });
    ({ dir, core, host, token, own } = testHost);
  });

  afterAll(() => testHost?.close());

  it('prints a loopback URL whose 256-bit token is in the fragment, which browsers send nowhere', () => {
    expect(host.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#token=[A-Za-z0-9_-]{43}$/);
  });

  it('serves the app’s files without a token, and nothing else: the token travels in a header, never a cookie', async () => {
    expect((await send(host.port, { path: '/' })).status).toBe(200);
    expect((await send(host.port, { path: '/assets/app.js' })).status).toBe(200);
    expect((await send(host.port, { path: '/session' })).status).toBe(403);
    expect((await send(host.port, { path: '/session', headers: { 'x-assemblyline-token': 'nope' } })).status).toBe(403);
    expect((await send(host.port, { path: '/session', headers: own })).status).toBe(204);
    expect((await send(host.port, { method: 'PUT', path: '/staging/b0/a.txt', headers: { 'x-assemblyline-token': 'nope' }, body: 'x' })).status).toBe(403);
    // The old ways in are gone: a token in the query or a cookie opens nothing.
    expect((await send(host.port, { path: `/session?token=${token}` })).status).toBe(403);
    expect((await send(host.port, { path: '/session', headers: { cookie: `assemblyline_token=${token}` } })).status).toBe(403);
    for (const path of ['/', '/session', `/?token=${token}`]) expect((await send(host.port, { path, headers: own })).headers['set-cookie']).toBeUndefined();
  });

  it('a one-time code opens the app once (what `npm start` puts on the browser’s command line)', async () => {
    const once = new URL(host.openUrl());
    expect(once.href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/open\?code=[A-Za-z0-9_-]{32}$/);
    expect(once.href).not.toContain(token);
    const first = await send(host.port, { path: `${once.pathname}${once.search}` });
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe(`/#token=${token}`);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers['set-cookie']).toBeUndefined();
    const again = await send(host.port, { path: `${once.pathname}${once.search}` });
    expect(again.status).toBe(403);
    expect(JSON.parse(again.body).error).toMatchObject({ code: 'HOST_CODE_USED', message: expect.stringContaining('already used') });
    // A new code ends the one before; a guessed or empty one opens nothing.
    const older = new URL(host.openUrl());
    const newer = new URL(host.openUrl());
    expect((await send(host.port, { path: `${older.pathname}${older.search}` })).status).toBe(403);
    expect((await send(host.port, { path: '/open?code=' })).status).toBe(403);
    expect((await send(host.port, { path: '/open' })).status).toBe(403);
    expect((await send(host.port, { path: `${newer.pathname}${newer.search}` })).status).toBe(302);
  });

  it('serves the app with a strict CSP and the page bridge before the module script', async () => {
    const res = await send(host.port, { path: '/' });
    expect(res.status).toBe(200);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain(`connect-src 'self' ws://127.0.0.1:${host.port}`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.body.indexOf('<script src="/page-bridge.js"></script>')).toBeGreaterThan(-1);
    expect(res.body.indexOf('/page-bridge.js')).toBeLessThan(res.body.indexOf('type="module"'));
    const bridge = await send(host.port, { path: '/page-bridge.js' });
    expect(bridge.body).toBe('window.bridgeLoaded = true');
    expect(bridge.headers['content-type']).toMatch(/text\/javascript/);
  });

  it('refuses a foreign Host header (DNS rebinding), even with the token', async () => {
    expect((await send(host.port, { path: '/', headers: { host: `evil.example:${host.port}` } })).status).toBe(403);
    const res = await send(host.port, { path: '/session', headers: { ...own, host: `evil.example:${host.port}` } });
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).error.message).toMatch(/Host/);
  });

  it('refuses a foreign Origin, even with the token', async () => {
    const res = await send(host.port, { path: '/session', headers: { ...own, origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
  });

  it('does not serve files outside the renderer folder', async () => {
    await writeFile(path.join(dir, 'secret.txt'), 'top secret');
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt']) {
      const res = await send(host.port, { path: p });
      expect(res.body).not.toContain('top secret');
    }
  });

  it('refuses WebSockets without the token, from a foreign Origin or Host', async () => {
    await expect(openSocket(host, { origin: host.origin })).rejects.toThrow('HTTP 403');
    await expect(openSocket(host, { origin: host.origin }, ['assemblyline', 'assemblyline-token.wrong'])).rejects.toThrow('HTTP 403');
    await expect(openSocket(host, { origin: host.origin, cookie: `assemblyline_token=${token}` }, ['assemblyline'])).rejects.toThrow('HTTP 403');
    await expect(openSocket(host, { origin: 'https://evil.example' }, ['assemblyline', `assemblyline-token.${token}`])).rejects.toThrow('HTTP 403');
    await expect(openSocket(host, { ...own, host: `evil.example:${host.port}` })).rejects.toThrow('HTTP 403');
  });

  it('opens the WebSocket the way a browser page does: the token offered as a subprotocol, only "assemblyline" answered', async () => {
    const ws = await openSocket(host, { origin: host.origin }, ['assemblyline', `assemblyline-token.${token}`]);
    expect(ws.protocol).toBe('assemblyline');
    ws.close();
  });

  it('carries contract requests over the WebSocket to the real core, errors as data', async () => {
    const ws = await openSocket(host, own);
    const answers = new Map<number, { ok: boolean; value?: { host: string; version: string }; error?: { code: string } }>();
    const done = new Promise<void>((resolve) =>
      ws.on('message', (data) => {
        const message = JSON.parse(String(data));
        answers.set(message.id, message.result);
        if (answers.size === 3) resolve();
      }),
    );
    ws.send(JSON.stringify({ id: 1, channel: 'app:info', request: {} }));
    ws.send(JSON.stringify({ id: 2, channel: 'no:such', request: {} }));
    ws.send(JSON.stringify({ id: 3, channel: 'files:scan', request: { paths: [] } }));
    await done;
    ws.close();
    expect(answers.get(1)).toMatchObject({ ok: true, value: { host: 'browser', version: 'test' } });
    expect(answers.get(2)).toMatchObject({ ok: false, error: { code: 'UNKNOWN_CHANNEL' } });
    expect(answers.get(3)).toMatchObject({ ok: false, error: { code: 'INVALID_IPC_REQUEST' } });
  });

  it('stages a PUT body under the batch and answers a handle (never a path) for files:scan', async () => {
    const res = await send(host.port, {
      method: 'PUT',
      path: '/staging/batch-1/photos/sub%20dir/a%231.jpg',
      headers: { ...own, 'content-type': 'application/octet-stream' },
      body: 'jpeg bytes',
    });
    expect(res.status).toBe(201);
    const answer = JSON.parse(res.body);
    expect(answer).toEqual({ handle: expect.stringMatching(/^fh_/), bytes: 10 });
    expect(res.body).not.toContain(core.stagingDir);
    expect(await readFile(path.join(core.stagingDir, 'batch-1', 'photos', 'sub dir', 'a#1.jpg'), 'utf8')).toBe('jpeg bytes');
    // What the page does next: core scans the staged root and finds the file with its relative path.
    const scan = await core.handlers['files:scan']({ handles: [answer.handle] });
    expect(scan.ok && scan.value.files.map((f) => f.relativePath)).toEqual(['photos/sub dir/a#1.jpg']);
    expect(await readdir(path.join(core.stagingDir, 'batch-1', 'photos', 'sub dir'))).toEqual(['a#1.jpg']);
  });

  it('keeps non-ASCII names and empty files intact', async () => {
    const res = await send(host.port, {
      method: 'PUT',
      path: `/staging/batch-2/${['fotos', 'été', 'über 1.jpg'].map(encodeURIComponent).join('/')}`,
      headers: own,
      body: '',
    });
    expect(res.status).toBe(201);
    const staged = path.join(core.stagingDir, 'batch-2', 'fotos', 'été', 'über 1.jpg');
    expect(JSON.parse(res.body)).toMatchObject({ handle: expect.stringMatching(/^fh_/), bytes: 0 });
    expect(await readFile(staged, 'utf8')).toBe('');
  });

  it('rejects staging paths that escape, are absolute, carry NUL or are too long', async () => {
    const bad = [
      '/staging/b1/../../escape.txt',
      '/staging/b1/%2e%2e/escape.txt',
      '/staging/b1/a%2f..%2f..%2fescape.txt',
      '/staging/b1/%2Fetc%2Fpasswd',
      '/staging/b1/a%00b.txt',
      '/staging/..%2fb1/x.txt',
      '/staging/b1',
      `/staging/b1/${'x'.repeat(300)}.txt`,
      `/staging/b1/${Array.from({ length: 220 }, () => 'abcdefghijklmnopqrst').join('/')}`,
    ];
    for (const p of bad) {
      const res = await send(host.port, { method: 'PUT', path: p, headers: own, body: 'x' });
      expect(res.status, p).toBe(400);
      expect(JSON.parse(res.body).error.code, p).toBe('STAGING_PATH_INVALID');
    }
    expect(await readdir(core.stagingDir)).not.toContain('escape.txt');
  });

  it('refuses staging without the token or from a foreign Origin', async () => {
    expect((await send(host.port, { method: 'PUT', path: '/staging/b2/a.txt', body: 'x' })).status).toBe(403);
    const foreign = await send(host.port, { method: 'PUT', path: '/staging/b2/a.txt', headers: { ...own, origin: 'https://evil.example' }, body: 'x' });
    expect(foreign.status).toBe(403);
    expect(await readdir(core.stagingDir)).not.toContain('b2');
  });
});
