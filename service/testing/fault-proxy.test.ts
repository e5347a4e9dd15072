// The fault proxy itself: tus-js-client going through it completes uploads despite dropped connections,
// bodies cut midway, delays and lost answers; the rate-limit answers are the service's; what it does not
// fault passes through unchanged except the service's origin, which becomes the proxy's.
import { createHash, randomBytes } from 'node:crypto';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFaultProxy, rewriteOrigin, seededRandom, type FaultProxy } from './fault-proxy';
import { linkPipe } from './link-shaper';
import { buildForm, getJson, postAssembly, startFixture, waitForEnd, type Fixture } from './service-fixture';

const md5 = (data: Buffer): string => createHash('md5').update(data).digest('hex');

function tusUpload(data: Buffer, endpoint: string, metadata: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const up = new Upload(data, {
      endpoint,
      metadata,
      chunkSize: 64 * 1024,
      retryDelays: [0, 20, 50, 100, 200, 200, 200, 200],
      // 429 is worth another try for an engine; tus-js-client gives up on 4xx by default.
      onShouldRetry: (err) => {
        const status = (err as { originalResponse?: { getStatus(): number } }).originalResponse?.getStatus() ?? 0;
        return status === 0 || status === 409 || status === 423 || status === 429 || status >= 500;
      },
      onError: reject,
      onSuccess: () => resolve(up.url ?? ''),
    });
    up.start();
  });
}

describe('the fault proxy', () => {
  let fx: Fixture;
  let proxy: FaultProxy;
  beforeAll(async () => {
    fx = await startFixture();
    proxy = await startFaultProxy({ target: fx.service.url, seed: 7 });
  });
  afterAll(async () => {
    await proxy.close();
    await fx.stop();
  });

  const steps = { ':original': { robot: '/upload/handle' } };

  it('passes requests through, pointing the status record’s URLs at itself', async () => {
    const created = await postAssembly(proxy.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps }, fields: { num_expected_upload_files: '1' } }));
    expect(created.status).toBe(200);
    expect(created.body.ok).toBe('ASSEMBLY_UPLOADING');
    for (const key of ['assembly_url', 'assembly_ssl_url', 'tus_url', 'websocket_url', 'update_stream_url']) {
      expect(String(created.body[key]).startsWith(proxy.url), key).toBe(true);
    }
    // The service itself still names its own origin.
    const direct = await getJson(String(created.body.assembly_ssl_url).replace(proxy.url, fx.service.url));
    expect(String(direct.body.assembly_ssl_url).startsWith(fx.service.url)).toBe(true);
    await fetch(String(created.body.assembly_ssl_url), { method: 'DELETE' });
  });

  it('completes tus uploads through dropped connections, bodies cut midway, delays and lost answers', async () => {
    const created = await postAssembly(proxy.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps }, fields: { num_expected_upload_files: '3' } }));
    const files = [randomBytes(300 * 1024), randomBytes(200 * 1024), randomBytes(10 * 1024)];
    const isPatch = (r: { method: string }): boolean => r.method === 'PATCH';
    proxy.addRule({ action: { kind: 'drop' }, match: (r) => r.method === 'POST' && r.url.startsWith('/resumable/'), times: 1 });
    proxy.addRule({ action: { kind: 'reset-mid-body', afterBytes: 10_000 }, match: isPatch, times: 2 });
    proxy.addRule({ action: { kind: 'reset-after-response' }, match: isPatch, times: 2 });
    proxy.addRule({ action: { kind: 'status-429', retryIn: 0 }, match: (r) => r.method === 'HEAD', times: 1 });
    proxy.addRule({ action: { kind: 'delay', ms: 30 }, probability: 0.3 });
    const before = { ...proxy.counts };
    try {
      const urls: string[] = [];
      for (const [i, data] of files.entries()) {
        urls.push(await tusUpload(data, String(created.body.tus_url), { assembly_url: String(created.body.assembly_url), fieldname: 'file', filename: `f${String(i)}.bin` }));
      }
      for (const url of urls) expect(url.startsWith(`${proxy.url}/resumable/files/`)).toBe(true);
    } finally {
      proxy.clearRules();
    }
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    const uploads = (done.uploads as { name: string; size: number; md5hash: string }[]).map((u) => [u.name, u.size, u.md5hash]).sort();
    expect(uploads).toEqual(files.map((d, i) => [`f${String(i)}.bin`, d.length, md5(d)]));
    const fired = (k: keyof typeof before): number => proxy.counts[k] - before[k];
    expect(fired('drop')).toBe(1);
    expect(fired('reset-mid-body')).toBe(2);
    expect(fired('reset-after-response')).toBe(2);
    expect(fired('status-429')).toBe(1);
    expect(fired('delay')).toBeGreaterThan(0);
  });

  it('answers 413 and 429 as the service’s rate limits do, without forwarding', async () => {
    proxy.addRule({ action: { kind: 'status-413', retryIn: 3 }, match: (r) => r.method === 'POST', times: 1 });
    proxy.addRule({ action: { kind: 'status-429', retryIn: 2 }, match: (r) => r.method === 'GET', times: 1 });
    const forwarded = proxy.counts.forwarded;
    try {
      const limited = await postAssembly(proxy.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps } }));
      expect(limited).toEqual({ status: 413, body: { error: 'RATE_LIMIT_REACHED', message: 'Request limit reached', http_code: 413, info: { retryIn: 3 } } });
      const polled = await getJson(`${proxy.url}/assemblies/${'0'.repeat(32)}`);
      expect(polled.status).toBe(429);
      expect(polled.body).toMatchObject({ error: 'ASSEMBLY_STATUS_FETCHING_RATE_LIMIT_REACHED', info: { retryIn: 2 } });
      expect(proxy.counts.forwarded).toBe(forwarded);
    } finally {
      proxy.clearRules();
    }
  });

  it('answers 404 SERVER_404 for a route the deployment lacks, without forwarding', async () => {
    proxy.addRule({ action: { kind: 'status-404' }, match: (r) => r.method === 'POST' && /^\/assemblies\/[0-9a-f]{32}$/.test(r.url), times: 1 });
    const forwarded = proxy.counts.forwarded;
    try {
      const missing = await postAssembly(proxy.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps } }), `/assemblies/${randomBytes(16).toString('hex')}`);
      expect(missing).toEqual({ status: 404, body: { error: 'SERVER_404', message: 'unknown method / url', http_code: 404 } });
      expect(proxy.counts.forwarded).toBe(forwarded);
    } finally {
      proxy.clearRules();
    }
  });

  it('loses the answer of a request the service did process (reset after the response)', async () => {
    proxy.addRule({ action: { kind: 'reset-after-response' }, match: (r) => r.method === 'POST', times: 1 });
    const id = randomBytes(16).toString('hex');
    await expect(postAssembly(proxy.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps } }), `/assemblies/${id}`)).rejects.toThrow();
    proxy.clearRules();
    const stored = await waitForEnd(`${fx.service.url}/assemblies/${id}`);
    expect(stored.ok).toBe('ASSEMBLY_COMPLETED');
  });

  it('cuts a body after the given number of bytes and the service keeps only those', async () => {
    const created = await postAssembly(proxy.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps }, fields: { num_expected_upload_files: '1' } }));
    const create = await fetch(String(created.body.tus_url), {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': '100000', 'Upload-Metadata': `assembly_url ${Buffer.from(String(created.body.assembly_url)).toString('base64')},filename ${Buffer.from('cut.bin').toString('base64')}` },
    });
    const location = create.headers.get('location') ?? '';
    expect(location.startsWith(proxy.url)).toBe(true);
    proxy.addRule({ action: { kind: 'reset-mid-body', afterBytes: 30_000 }, match: (r) => r.method === 'PATCH', times: 1 });
    await expect(
      fetch(location, { method: 'PATCH', headers: { 'Tus-Resumable': '1.0.0', 'Upload-Offset': '0', 'Content-Type': 'application/offset+octet-stream' }, body: randomBytes(100_000) }),
    ).rejects.toThrow();
    proxy.clearRules();
    // The service learns of the cut when its socket closes: on a loaded machine that can take longer than a
    // fixed wait, so ask until it has written what it got (or 10 s passed), then check it is exactly the cut.
    const offsetNow = async () => Number((await fetch(location, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } })).headers.get('upload-offset'));
    let offset = await offsetNow();
    for (const end = Date.now() + 10_000; offset === 0 && Date.now() < end; offset = await offsetNow()) await new Promise((r) => setTimeout(r, 50));
    expect(offset).toBe(30_000);
    await fetch(String(created.body.assembly_ssl_url), { method: 'DELETE' });
  });
});

describe('the fault proxy as a user\'s link', () => {
  let fx: Fixture;
  let proxy: FaultProxy;
  beforeAll(async () => {
    fx = await startFixture();
    // 100 ms round trips, 8 Mbit/s up (1 MB/s), a 256 KiB window per connection.
    proxy = await startFaultProxy({ target: fx.service.url, link: { rttMs: 100, uplinkBps: 8_000_000, downlinkBps: 80_000_000, windowBytes: 256 * 1024 } });
  });
  afterAll(async () => {
    await proxy.close();
    await fx.stop();
  });

  it('carries an upload intact, no faster than its bandwidth and round trips allow', async () => {
    const steps = { ':original': { robot: '/upload/handle' } };
    let start = performance.now();
    const created = await postAssembly(proxy.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps }, fields: { num_expected_upload_files: '1' } }));
    // A new connection's handshake and the request's round trip.
    expect(performance.now() - start).toBeGreaterThanOrEqual(190);
    const data = randomBytes(1024 * 1024);
    start = performance.now();
    await tusUpload(data, String(created.body.tus_url), { assembly_url: String(created.body.assembly_url), fieldname: 'file', filename: 'slow.bin' });
    // 1 MiB at 1 MB/s, whatever the chunking.
    expect(performance.now() - start).toBeGreaterThanOrEqual(1000);
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    expect((done.uploads as { md5hash: string }[]).map((u) => u.md5hash)).toEqual([md5(data)]);
  });
});

describe('fault proxy helpers', () => {
  it('a link direction sends bytes one after another at its rate and delivers them half a round trip later', () => {
    const pipe = linkPipe(8_000_000, 50);
    expect(pipe.arrival(1_000_000, 0)).toBe(1050);
    // Queued behind the first megabyte.
    expect(pipe.arrival(1_000_000, 0)).toBe(2050);
    // The pipe was idle meanwhile.
    expect(pipe.arrival(500_000, 5000)).toBe(5550);
    expect(linkPipe(0, 50).arrival(10 ** 9, 7)).toBe(57);
  });

  it('draws the same numbers from the same seed, and others from another', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const seqA = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(seqA);
    expect(Array.from({ length: 5 }, c)).not.toEqual(seqA);
    expect(seqA.every((x) => x >= 0 && x < 1)).toBe(true);
  });

  it('rewrites every occurrence of the origin and nothing else', () => {
    const text = '{"a":"http://127.0.0.1:1/x","b":"http://127.0.0.1:10/y","c":"http://127.0.0.1:1/z"}';
    expect(rewriteOrigin(text, 'http://127.0.0.1:1', 'http://127.0.0.1:2')).toBe('{"a":"http://127.0.0.1:2/x","b":"http://127.0.0.1:10/y","c":"http://127.0.0.1:2/z"}');
  });
});
