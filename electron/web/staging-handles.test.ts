import { readdir, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Core } from '../core/create-core';
import type { BrowserHost } from './browser-host';
import { startTestHost, type TestHost } from './testing/test-host';
import { encodeStagingUrl } from './page/page-bridge-logic';

// The browser host as a page reaches it: staging by PUT, the contract over the WebSocket, the real core
// and the real embedded service behind them.
let dir = '';
let core: Core;
let host: BrowserHost;
let own: Record<string, string> = {};

function put(urlPath: string, body: string | Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: host.port, method: 'PUT', path: urlPath, headers: { host: `127.0.0.1:${host.port}`, ...own } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** One contract request over the page's WebSocket. */
async function invoke(channel: string, request: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }> {
  const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge`, { headers: own });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  // Core's events reach every page too: wait for the answer to this request.
  const answer = new Promise<{ result: { ok: boolean; value?: unknown; error?: { code: string; message: string } } }>((resolve) =>
    ws.on('message', (data) => {
      const message = JSON.parse(String(data));
      if (message.id === 1) resolve(message);
    }),
  );
  ws.send(JSON.stringify({ id: 1, channel, request }));
  const { result } = await answer;
  ws.close();
  return result;
}

let testHost: TestHost;

beforeAll(async () => {
  testHost = await startTestHost({ prefix: 'al-staging-handles-' });
  ({ dir, core, host, own } = testHost);
}, 60_000);

afterAll(() => testHost?.close());

describe('browser host: the page names files by handle only', () => {
  it('refuses a page that sends raw paths instead of handles', async () => {
    const secret = path.join(dir, 'not-picked.txt');
    await writeFile(secret, 'private');
    expect((await invoke('files:scan', { paths: ['/etc/passwd'] })).error?.code).toBe('INVALID_IPC_REQUEST');
    expect((await invoke('files:scan', { handles: ['/etc/passwd'] })).error?.code).toBe('FILE_HANDLE_UNKNOWN');
    expect((await invoke('files:scan', { handles: [core.stagingDir] })).error?.code).toBe('FILE_HANDLE_UNKNOWN');
    expect((await invoke('files:thumbnail', { path: secret })).error?.code).toBe('INVALID_IPC_REQUEST');
    const staged = JSON.parse((await put('/staging/raw1/photos/a.txt', 'mine')).body) as { handle: string };
    expect((await invoke('files:thumbnail', { handle: staged.handle, relativePath: `photos/../../../${path.basename(secret)}` })).error?.code).toBe('PATH_OUTSIDE_PICK');
    const steps = { ':original': { robot: '/upload/handle' } };
    const start = await invoke('runs:start', { files: [{ path: secret, relativePath: 'x', name: 'x', size: 7, mime: null }], instructions: { steps } });
    expect(start.error?.code).toBe('INVALID_IPC_REQUEST');
    const escape = await invoke('runs:start', {
      files: [{ handle: staged.handle, relativePath: path.relative(path.join(core.stagingDir, 'raw1'), secret), name: 'x', size: 7, mime: null }],
      instructions: { steps },
    });
    expect(escape.error?.code).toBe('PATH_OUTSIDE_PICK');
    expect(core.runs.list()).toHaveLength(0);
  });

  it('stages a file with a 255-byte name, shows and uploads it under that name, and the host lives on', async () => {
    const name = `${'n'.repeat(251)}.jpg`;
    const folder = '€'.repeat(85); // 255 bytes of UTF-8 in one folder name
    expect([Buffer.byteLength(name), Buffer.byteLength(folder)]).toEqual([255, 255]);
    const loose = await put(encodeStagingUrl('long1', name), 'loose bytes');
    expect(loose.status, loose.body).toBe(201);
    const nested = await put(encodeStagingUrl('long1', `${folder}/${name}`), 'nested bytes');
    expect(nested.status, nested.body).toBe(201);
    const handles = [loose, nested].map((r) => (JSON.parse(r.body) as { handle: string }).handle);

    const scan = (await invoke('files:scan', { handles })) as { ok: boolean; value: { files: { relativePath: string; name: string; size: number }[] } };
    expect(scan.ok).toBe(true);
    expect(scan.value.files.map((f) => [f.relativePath, f.name, f.size]).sort()).toEqual(
      [
        [name, name, 11],
        [`${folder}/${name}`, name, 12],
      ].sort(),
    );
    // On disk the names are shorter (any file system takes them); the user never sees those.
    for (const entry of await readdir(path.join(core.stagingDir, 'long1'))) expect(Buffer.byteLength(entry)).toBeLessThanOrEqual(140);

    const steps = { ':original': { robot: '/upload/handle', result: true } };
    const started = (await invoke('runs:start', { files: scan.value.files, instructions: { steps } })) as { ok: boolean; value: { runId: string } };
    expect(started.ok).toBe(true);
    const final = await core.runs.settled(started.value.runId);
    if (!final.ok) throw new Error(final.error.message);
    expect(final.value.error).toBeNull();
    expect(final.value.state).toBe('ASSEMBLY_COMPLETED');
    expect(final.value.files.map((f) => [f.relativePath, f.state]).sort()).toEqual(
      [
        [name, 'uploaded'],
        [`${folder}/${name}`, 'uploaded'],
      ].sort(),
    );
    expect((final.value.status?.uploads ?? []).map((u) => u.size).sort()).toEqual([11, 12]);
    expect((await invoke('app:info', {})).ok).toBe(true);
  }, 60_000);

  it('answers a clash with what is already staged as a clear 409', async () => {
    expect((await put('/staging/clash/a.txt', 'a file')).status).toBe(201);
    // `a.txt` is a file, so nothing can be staged below it.
    const clash = await put('/staging/clash/a.txt/b.txt', 'below a file');
    expect(clash.status).toBe(409);
    const { error } = JSON.parse(clash.body) as { error: { code: string; message: string } };
    expect(error.code).toBe('STAGING_PATH_CONFLICT');
    expect(error.message).toMatch(/^Could not stage a\.txt\/b\.txt: EEXIST/);
    expect(error.message).not.toContain(core.stagingDir);
    expect((await invoke('app:info', {})).ok).toBe(true);
  }, 10_000);

  it('survives a page that goes away mid-upload and leaves no partial file behind', async () => {
    const socket = connect(host.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `PUT /staging/cut/photos/big.bin HTTP/1.1\r\nHost: 127.0.0.1:${host.port}\r\nX-Assemblyline-Token: ${own['x-assemblyline-token']}\r\nOrigin: ${host.origin}\r\nContent-Length: 1000000\r\n\r\n`,
    );
    socket.write(Buffer.alloc(64 * 1024));
    await new Promise((resolve) => setTimeout(resolve, 100));
    socket.destroy();
    await expect.poll(async () => readdir(path.join(core.stagingDir, 'cut', 'photos')).catch(() => []), { timeout: 5_000 }).toEqual([]);
    // Nor a partial copy in the parts folder.
    await expect.poll(async () => readdir(path.join(core.stagingDir, '.parts')).catch(() => []), { timeout: 5_000 }).toEqual([]);
    expect((await put('/staging/cut/photos/ok.bin', 'fine')).status).toBe(201);
  });
});
