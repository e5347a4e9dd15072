import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type Core } from '../core/create-core';
import { createUnavailableSecretStore } from '../core/vault/unavailable-secret-store';
import type { BrowserHost } from './browser-host';
import { startTestHost, type TestHost } from './testing/test-host';

// Finding 7: a 244-character file name (Linux allows 255) ended the browser host with an unhandled
// ENAMETOOLONG from staging, and with it every running upload. No stray rejection may end a host.

function put(port: number, urlPath: string, own: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method: 'PUT', path: urlPath, headers: { host: `127.0.0.1:${port}`, ...own } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    // A host that dropped the request (or died) never answers.
    req.setTimeout(5_000, () => req.destroy(new Error('no answer within 5 s')));
    req.end('bytes of a file with a long name');
  });
}

describe('the browser host survives what used to end it', () => {
  let core: Core;
  let host: BrowserHost;
  let own: Record<string, string>;

  let testHost: TestHost;

  beforeAll(async () => {
    testHost = await startTestHost({
      prefix: 'al-host-crash-',
      pageBridge: 'window.bridgeLoaded = true',
      secretStore: () => createUnavailableSecretStore('No OS keyring is available (test).'),
    });
    ({ core, host } = testHost);
    own = testHost.own;
  });

  afterAll(() => testHost?.close());

  it('stages a file with a 244-character name without a stray rejection, and goes on', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const name = `${'n'.repeat(240)}.jpg`;
      const answer = await put(host.port, `/staging/long-batch/${name}`, own);
      // Staging keeps the on-disk name short (staging-handles.test.ts checks the name shown and uploaded).
      expect(answer.status).toBe(201);
      // Give a stray rejection a turn to surface.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(rejections).toEqual([]);
      // And the host goes on: the bridge still answers.
      const info = await core.handlers['app:info']({});
      expect(info.ok).toBe(true);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });

  it('shows the page an error nobody was waiting for (app:error)', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/bridge`, { headers: own });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const received = new Promise<{ event: string; payload: { code: string; message: string } }>((resolve) =>
      ws.on('message', (data) => {
        const message = JSON.parse(String(data));
        if (message.event === 'app:error') resolve(message);
      }),
    );
    core.reportError('UNHANDLED_REJECTION', 'ENAMETOOLONG: name too long');
    expect(await received).toMatchObject({ event: 'app:error', payload: { code: 'UNHANDLED_REJECTION', message: 'ENAMETOOLONG: name too long' } });
    ws.close();
  });
});

describe('guardProcess in a real process', () => {
  it('keeps a process alive through an unhandled rejection and an uncaught exception, and reports both', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'al-guard-'));
    try {
      const guard = pathToFileURL(fileURLToPath(new URL('../core/process-guard.ts', import.meta.url))).href;
      const script = path.join(dir, 'host.mts');
      await writeFile(
        script,
        [
          `import { guardProcess } from ${JSON.stringify(guard)};`,
          `guardProcess(process, (code, message) => console.log(JSON.stringify({ code, message })), () => undefined);`,
          // A handler that started work and forgot it: the rejection nobody awaits (as staging's cleanup did).
          `void (async () => { throw new Error('ENAMETOOLONG: name too long, rm'); })();`,
          `setTimeout(() => { throw new Error('thrown in a timer'); }, 20);`,
          `setTimeout(() => { console.log(JSON.stringify({ alive: true })); }, 200);`,
        ].join('\n'),
      );
      const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
      const child = spawn(process.execPath, ['--import', tsx, script], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      const lines = out.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
      expect(code).toBe(0);
      expect(lines).toEqual([
        { code: 'UNHANDLED_REJECTION', message: 'ENAMETOOLONG: name too long, rm' },
        { code: 'UNCAUGHT_EXCEPTION', message: 'thrown in a timer' },
        { alive: true },
      ]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
