import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { createApiClient } from '../api/api-client';
import { watchAssembly } from './assembly-watcher';

// A small real server with one Assembly: GET /assemblies/a answers the current status, GET /stream
// speaks SSE in the service's wire format. Each test sets how the stream behaves.
let server: Server;
let base = '';
let current: AssemblyStatus = {};
let statusGets = 0;
let streamMode: 'ok' | 'fail' | 'end-early' | 'silent' = 'ok';
let streamRes: ServerResponse | null = null;

beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/assemblies/a') {
      statusGets++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(current));
      return;
    }
    if (req.url?.startsWith('/stream')) {
      // A stream whose head has not come yet (a new connection on a slow link): the request stays open.
      if (streamMode === 'silent') return;
      if (streamMode === 'fail') {
        res.statusCode = 503;
        res.end('no stream');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(': hello\n\n');
      if (streamMode === 'end-early') res.end();
      else streamRes = res;
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const api = () => createApiClient({ endpoint: base, authKey: 'k', getSecret: async () => null });
const initial = (): AssemblyStatus => ({
  ok: 'ASSEMBLY_UPLOADING',
  assembly_id: 'a',
  assembly_ssl_url: `${base}/assemblies/a`,
  update_stream_url: `${base}/stream?assembly=a`,
});
const waitFor = async (check: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('watchAssembly', () => {
  it('follows SSE, re-fetches on events, and stops at a terminal status without polling', async () => {
    streamMode = 'ok';
    streamRes = null;
    current = initial();
    statusGets = 0;
    const seen: string[] = [];
    const events: Array<[string, unknown]> = [];
    const watcher = watchAssembly({
      initial: initial(),
      getStatus: (url) => api().getAssembly(url),
      onStatus: (s) => seen.push(String(s.ok)),
      onEvent: (name, data) => events.push([name, data]),
      pollIntervalMs: 60_000,
    });
    await waitFor(() => streamRes !== null && watcher.mode() === 'sse');
    current = { ...initial(), ok: 'ASSEMBLY_EXECUTING' };
    streamRes!.write('data: assembly_uploading_finished\n\n');
    await waitFor(() => seen.includes('ASSEMBLY_EXECUTING'));
    current = { ...initial(), ok: 'ASSEMBLY_EXECUTING', results: { resized: [{ id: 'r1', name: 'a.jpg' }] } };
    streamRes!.write(`event: assembly_result_finished\ndata: ${JSON.stringify(['resized', { id: 'r1' }])}\n\n`);
    await waitFor(() => events.length === 1);
    current = { ...initial(), ok: 'ASSEMBLY_COMPLETED' };
    streamRes!.write('data: assembly_finished\n\n');
    const final = await watcher.done;
    expect(final.ok).toBe('ASSEMBLY_COMPLETED');
    expect(events[0]).toEqual(['assembly_result_finished', ['resized', { id: 'r1' }]]);
    expect(seen[seen.length - 1]).toBe('ASSEMBLY_COMPLETED');
    expect(watcher.mode()).toBe('stopped');
    // One fetch on open and one per event; no 2 s polling ran (interval was 60 s).
    expect(statusGets).toBeLessThanOrEqual(4);
  });

  /** A watcher on the stream, its fetch on open answered, with the given spacing between re-fetches. */
  const sseWatcher = async (minRefreshIntervalMs: number) => {
    streamMode = 'ok';
    streamRes = null;
    current = initial();
    statusGets = 0;
    const watcher = watchAssembly({
      initial: initial(),
      getStatus: (url) => api().getAssembly(url),
      onStatus: () => undefined,
      pollIntervalMs: 600_000,
      minRefreshIntervalMs,
    });
    await waitFor(() => streamRes !== null && watcher.mode() === 'sse' && statusGets > 0);
    return watcher;
  };
  const burst = (n: number) => {
    for (let i = 0; i < n; i++) streamRes!.write(`event: assembly_upload_finished\ndata: {"id":"u${i}"}\n\n`);
  };
  const finishAndExpectDone = async (watcher: ReturnType<typeof watchAssembly>) => {
    current = { ...initial(), ok: 'ASSEMBLY_COMPLETED' };
    streamRes!.write('data: assembly_finished\n\n');
    expect((await watcher.done).ok).toBe('ASSEMBLY_COMPLETED');
  };

  it('spaces re-fetches when events arrive in a burst (one per file of a big drop)', async () => {
    const watcher = await sseWatcher(300);
    await new Promise((r) => setTimeout(r, 350));
    statusGets = 0;
    const started = Date.now();
    burst(200);
    await new Promise((r) => setTimeout(r, 900));
    const elapsed = Date.now() - started;
    // 200 events with 300 ms spacing: at least one fetch, and at most one per 300 ms that passed (counted,
    // not assumed: a loaded machine's timers run late, the spacing does not change).
    expect(statusGets).toBeGreaterThanOrEqual(1);
    expect(statusGets).toBeLessThanOrEqual(1 + Math.ceil(elapsed / 300));
    await finishAndExpectDone(watcher);
  });

  it('sees the end at once after a burst: the last message is not held back by the spacing', async () => {
    // Spacing longer than the test may run: a fetch that waited it out would never come.
    const watcher = await sseWatcher(600_000);
    burst(20);
    await finishAndExpectDone(watcher);
  });

  it('falls back to polling when the stream cannot connect', async () => {
    streamMode = 'fail';
    current = initial();
    statusGets = 0;
    const watcher = watchAssembly({ initial: initial(), getStatus: (url) => api().getAssembly(url), onStatus: () => undefined, pollIntervalMs: 50 });
    await waitFor(() => statusGets >= 3);
    expect(watcher.mode()).toBe('polling');
    current = { ...initial(), ok: 'ASSEMBLY_COMPLETED' };
    expect((await watcher.done).ok).toBe('ASSEMBLY_COMPLETED');
  });

  it('polls on when the stream ends before the Assembly does, and reports a failed Assembly as final', async () => {
    streamMode = 'end-early';
    current = initial();
    const watcher = watchAssembly({ initial: initial(), getStatus: (url) => api().getAssembly(url), onStatus: () => undefined, pollIntervalMs: 50 });
    await new Promise((r) => setTimeout(r, 200));
    expect(watcher.mode()).toBe('polling');
    current = { ...initial(), ok: null, error: 'ASSEMBLY_CRASHED', message: 'boom' };
    const final = await watcher.done;
    expect(final).toMatchObject({ error: 'ASSEMBLY_CRASHED', message: 'boom' });
  });

  it('keeps polling through fetch errors and reports them', async () => {
    const errors: string[] = [];
    let calls = 0;
    const watcher = watchAssembly({
      initial: { ...initial(), update_stream_url: null },
      getStatus: async () => {
        calls++;
        if (calls < 3) return { ok: false, error: { code: 'NETWORK_ERROR', message: 'down' } };
        return { ok: true, value: { ok: 'ASSEMBLY_COMPLETED', assembly_id: 'a' } };
      },
      onStatus: () => undefined,
      onError: (e) => errors.push(e.code),
      pollIntervalMs: 20,
    });
    expect((await watcher.done).ok).toBe('ASSEMBLY_COMPLETED');
    expect(errors).toEqual(['NETWORK_ERROR', 'NETWORK_ERROR']);
  });

  it("asks an executing Assembly's status at once, beside the stream: one that ended before the stream answered is done", async () => {
    streamMode = 'silent';
    statusGets = 0;
    current = { ...initial(), ok: 'ASSEMBLY_COMPLETED' };
    const watcher = watchAssembly({
      initial: { ...initial(), ok: 'ASSEMBLY_EXECUTING' },
      getStatus: (url) => api().getAssembly(url),
      onStatus: () => undefined,
      // Neither polling nor the stream would see the end within the test.
      pollIntervalMs: 600_000,
      fetchAtOnce: true,
    });
    expect((await watcher.done).ok).toBe('ASSEMBLY_COMPLETED');
    expect(statusGets).toBe(1);
    expect(watcher.mode()).toBe('stopped');
  });

  it('is done at once for a status that is already terminal', async () => {
    const watcher = watchAssembly({
      initial: { ...initial(), ok: 'ASSEMBLY_COMPLETED' },
      getStatus: () => Promise.reject(new Error('must not fetch')),
      onStatus: () => undefined,
    });
    expect((await watcher.done).ok).toBe('ASSEMBLY_COMPLETED');
  });
});
