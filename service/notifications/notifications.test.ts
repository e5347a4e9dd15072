// notify_url over real HTTP: a real service, real receivers on 127.0.0.1 ephemeral ports, signatures
// recomputed here with node:crypto (the standard rule: HMAC-SHA1 of the exact `transloadit` field).
import { createHmac } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService } from '../index';
import { spawnService } from '../testing/service-process';
import { startReceiver, type Receiver } from '../testing/receiver';
import { signedCall } from '../testing/signed-call';
import { buildForm, getJson, inOneHourIso, jpeg, postAssembly, startFixture, tempDir, waitForEnd, type Fixture } from '../testing/service-fixture';

const FAST = { retryDelaysMs: [60, 60, 60, 60, 60], timeoutMs: 2_000 };
const STEPS = { ':original': { robot: '/upload/handle' }, thumb: { use: ':original', robot: '/image/resize', width: 40 } };

const sha1 = (secret: string, text: string): string => createHmac('sha1', secret).update(text, 'utf8').digest('hex');

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(v).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 30));
  }
}

const signed = (fx: Fixture, method: 'GET' | 'POST', path: string, params: Record<string, unknown>) => signedCall(fx.service, method, path, params);

async function createWithNotify(fx: Fixture, params: Record<string, unknown>, name = 'photo.jpg', data?: Buffer): Promise<Record<string, unknown>> {
  const form = buildForm({
    params: { steps: STEPS, ...params, auth: { key: fx.service.authKey, expires: inOneHourIso() } },
    secret: fx.service.authSecret,
    files: [{ field: 'file', name, data: data ?? (await jpeg(80, 60)), type: 'image/jpeg' }],
  });
  const created = await postAssembly(fx.service.url, form);
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return created.body;
}

describe('notify_url delivery', () => {
  let fx: Fixture;
  const receivers: Receiver[] = [];
  const receiver = async (script: number[] = []): Promise<Receiver> => {
    const r = await startReceiver(script);
    receivers.push(r);
    return r;
  };
  beforeAll(async () => {
    fx = await startFixture({ notifications: FAST });
  });
  afterEach(async () => {
    await Promise.all(receivers.splice(0).map((r) => r.close()));
  });
  afterAll(async () => fx.stop());

  it('POSTs the signed, urlencoded status when an Assembly completes, and the status records the delivery', async () => {
    const r = await receiver();
    const created = await createWithNotify(fx, { notify_url: r.url });
    const [n] = await r.waitFor(1);
    expect(n!.contentType).toBe('application/x-www-form-urlencoded');
    expect(n!.path).toBe('/hook');
    // The standard rule: bare hex HMAC-SHA1 of the exact transloadit string, with the key's secret.
    expect(n!.signature).toBe(sha1(fx.service.authSecret, n!.transloadit));
    const payload = JSON.parse(n!.transloadit) as Record<string, unknown>;
    expect(payload).toMatchObject({ ok: 'ASSEMBLY_COMPLETED', assembly_id: created.assembly_id, notify_url: r.url });
    expect((payload.results as Record<string, unknown[]>).thumb).toHaveLength(1);
    expect((payload.uploads as { meta: Record<string, unknown> }[])[0]!.meta).toMatchObject({ width: 80, height: 60 });
    const status = await until(
      async () => (await getJson(String(created.assembly_ssl_url))).body,
      (s) => s.notify_status === 'successful',
    );
    // What the receiver answered is not in the public record (issue 25); the signed listing has it.
    expect(status).toMatchObject({ notify_url: r.url, notify_response_code: 200, notify_response_data: null, notify_error: null });
    const listing = await signed(fx, 'GET', `/assembly_notifications/${String(created.assembly_id)}`, {});
    expect((listing.body.items as Record<string, unknown>[])[0]).toMatchObject({ response_code: 200, response_data: 'thanks #1' });
    expect(typeof status.notify_duration).toBe('number');
    expect(String(status.notify_start)).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} GMT$/);
  });

  it('also notifies a failed Assembly, with its error in the payload', async () => {
    const r = await receiver();
    await createWithNotify(fx, { notify_url: r.url }, 'broken.jpg', Buffer.from('not an image'));
    const [n] = await r.waitFor(1);
    const payload = JSON.parse(n!.transloadit) as Record<string, unknown>;
    expect(payload.ok).toBeNull();
    expect(typeof payload.error).toBe('string');
    expect(n!.signature).toBe(sha1(fx.service.authSecret, n!.transloadit));
  });

  it('retries a receiver that fails until it answers 2xx, and lists every attempt', async () => {
    const r = await receiver([500, 502]);
    const created = await createWithNotify(fx, { notify_url: r.url });
    const got = await r.waitFor(3);
    // Each attempt carries the same signed body form; the retry waited the configured delay.
    expect(got.every((n) => n.signature === sha1(fx.service.authSecret, n.transloadit))).toBe(true);
    expect(got[1]!.receivedAtMs - got[0]!.receivedAtMs).toBeGreaterThanOrEqual(50);
    const id = String(created.assembly_id);
    const listing = await until(
      () => signed(fx, 'GET', `/assembly_notifications/${id}`, {}),
      (l) => (l.body.items as unknown[] | undefined)?.length === 3,
    );
    expect(listing.status).toBe(200);
    expect(listing.body).toMatchObject({ ok: 'ASSEMBLY_NOTIFICATIONS_FOUND', assembly_id: id, notify_url: r.url, count: 3, pending: [] });
    const items = listing.body.items as Record<string, unknown>[];
    expect(items.map((i) => i.response_code)).toEqual([500, 502, 200]);
    expect(items.map((i) => i.attempt)).toEqual([1, 2, 3]);
    expect(items.map((i) => i.response_data)).toEqual(['nope #1', 'nope #2', 'thanks #3']);
    expect(items.map((i) => i.successful)).toEqual([false, false, true]);
    expect(items[0]!.error).toBe('The receiver answered HTTP 500.');
    for (const i of items) expect(typeof i.duration).toBe('number');
    const status = (await getJson(String(created.assembly_ssl_url))).body;
    expect(status).toMatchObject({ notify_status: 'successful', notify_response_code: 200 });
  });

  it('gives up after the configured retries and says why in the status', async () => {
    const r = await receiver([503, 503, 503, 503, 503, 503, 503]);
    const created = await createWithNotify(fx, { notify_url: r.url });
    await r.waitFor(6);
    const status = await until(
      async () => (await getJson(String(created.assembly_ssl_url))).body,
      (s) => s.notify_status === 'failed',
    );
    expect(status).toMatchObject({ notify_response_code: 503, notify_error: 'The receiver answered HTTP 503.' });
    await new Promise((res) => setTimeout(res, 300));
    expect(r.received).toHaveLength(6); // 1 + the 5 retries, no more
  });

  it('records a receiver that is not listening as an error, and retries it', async () => {
    const gone = await startReceiver();
    const url = gone.url;
    await gone.close();
    const created = await createWithNotify(fx, { notify_url: url });
    const status = await until(
      async () => (await getJson(String(created.assembly_ssl_url))).body,
      (s) => s.notify_status === 'failed',
    );
    expect(status.notify_response_code).toBeNull();
    expect(String(status.notify_error)).toMatch(/ECONNREFUSED/);
  });

  it('leaves out what notification_payload says', async () => {
    const r = await receiver();
    await createWithNotify(fx, { notify_url: r.url, notification_payload: ['without_uploads', 'without_result_meta_data'] });
    const [n] = await r.waitFor(1);
    const payload = JSON.parse(n!.transloadit) as Record<string, unknown>;
    expect(payload.uploads).toBeUndefined();
    const thumb = (payload.results as Record<string, Record<string, unknown>[]>).thumb![0]!;
    expect(thumb.meta).toEqual({});
    expect(thumb.ssl_url).toBeTruthy();
    expect(n!.signature).toBe(sha1(fx.service.authSecret, n!.transloadit));
  });

  it('refuses a notify_url that is not an http(s) URL, and a bad notification_payload', async () => {
    for (const notify_url of ['ftp://example.com/hook', 'not a url', 42, 'javascript:alert(1)']) {
      const form = buildForm({ params: { steps: STEPS, notify_url, auth: { key: fx.service.authKey, expires: inOneHourIso() } }, secret: fx.service.authSecret });
      const res = await postAssembly(fx.service.url, form);
      expect(res.status, String(notify_url)).toBe(400);
      expect(res.body.error).toBe('ASSEMBLY_INVALID_NOTIFY_URL');
    }
    const form = buildForm({
      params: { steps: STEPS, notify_url: 'http://127.0.0.1:9/x', notification_payload: ['without_everything'], auth: { key: fx.service.authKey, expires: inOneHourIso() } },
      secret: fx.service.authSecret,
    });
    const res = await postAssembly(fx.service.url, form);
    expect([res.status, res.body.error]).toEqual([400, 'ASSEMBLY_INVALID_NOTIFICATION_PAYLOAD']);
  });

  it('replays a notification to another URL without changing the stored notify_url, waiting or not', async () => {
    const first = await receiver();
    const other = await receiver();
    const created = await createWithNotify(fx, { notify_url: first.url });
    await first.waitFor(1);
    const id = String(created.assembly_id);
    const waited = await signed(fx, 'POST', `/assembly_notifications/${id}/replay`, { notify_url: other.url, wait: true });
    expect(waited.status).toBe(200);
    expect(waited.body).toMatchObject({ ok: 'ASSEMBLY_NOTIFICATION_REPLAYED', success: true, assembly_id: id, notify_url: other.url, notify_response_code: 200 });
    expect(waited.body.notification_id).toMatch(/^[0-9a-f]{32}$/);
    // wait: true means it had arrived before the answer.
    expect(other.received).toHaveLength(1);
    expect(other.received[0]!.signature).toBe(sha1(fx.service.authSecret, other.received[0]!.transloadit));
    const status = (await getJson(String(created.assembly_ssl_url))).body;
    expect(status.notify_url).toBe(first.url);

    const queued = await signed(fx, 'POST', `/assembly_notifications/${id}/replay`, { wait: false });
    expect(queued.body).toMatchObject({ ok: 'ASSEMBLY_NOTIFICATION_REPLAYED', notify_url: first.url });
    await first.waitFor(2);
    const listing = await until(
      () => signed(fx, 'GET', `/assembly_notifications/${id}`, {}),
      (l) => l.body.count === 3,
    );
    const items = listing.body.items as Record<string, unknown>[];
    expect(items.map((i) => [i.url, i.replay])).toEqual([
      [first.url, false],
      [other.url, true],
      [first.url, true],
    ]);
  });

  it('answers a failed waited replay with success: false and the receiver code', async () => {
    const r = await receiver();
    const failing = await receiver([500, 500, 500, 500, 500, 500]);
    const created = await createWithNotify(fx, { notify_url: r.url });
    await r.waitFor(1);
    const res = await signed(fx, 'POST', `/assembly_notifications/${String(created.assembly_id)}/replay`, { notify_url: failing.url });
    expect(res.body).toMatchObject({ ok: 'ASSEMBLY_NOTIFICATION_REPLAYED', success: false, notify_response_code: 500, notify_error: 'The receiver answered HTTP 500.' });
  });

  it('gives clear codes for notification replays that cannot happen', async () => {
    const missing = await signed(fx, 'POST', `/assembly_notifications/${'0'.repeat(32)}/replay`, {});
    expect([missing.status, missing.body.error]).toEqual([404, 'ASSEMBLY_NOT_FOUND']);
    const listMissing = await signed(fx, 'GET', `/assembly_notifications/${'0'.repeat(32)}`, {});
    expect([listMissing.status, listMissing.body.error]).toEqual([404, 'ASSEMBLY_NOT_FOUND']);
    const plain = await createWithNotify(fx, {});
    await waitForEnd(String(plain.assembly_ssl_url));
    const id = String(plain.assembly_id);
    const noUrl = await signed(fx, 'POST', `/assembly_notifications/${id}/replay`, {});
    expect([noUrl.status, noUrl.body.error]).toEqual([400, 'ASSEMBLY_NO_NOTIFY_URL']);
    const badUrl = await signed(fx, 'POST', `/assembly_notifications/${id}/replay`, { notify_url: 'gopher://x' });
    expect([badUrl.status, badUrl.body.error]).toEqual([400, 'ASSEMBLY_INVALID_NOTIFY_URL']);
    const badWait = await signed(fx, 'POST', `/assembly_notifications/${id}/replay`, { notify_url: 'http://127.0.0.1:9/', wait: 'maybe' });
    expect([badWait.status, badWait.body.error]).toEqual([400, 'ASSEMBLY_NOTIFICATION_NOT_REPLAYED']);
    const unsigned = await fetch(`${fx.service.url}/assembly_notifications/${id}/replay`, {
      method: 'POST',
      body: new URLSearchParams({ params: JSON.stringify({ auth: { key: fx.service.authKey } }) }),
    });
    expect(((await unsigned.json()) as Record<string, unknown>).error).toBe('NO_SIGNATURE_FIELD');
    const uploading = await postAssembly(
      fx.service.url,
      buildForm({ params: { steps: STEPS, auth: { key: fx.service.authKey, expires: inOneHourIso() } }, secret: fx.service.authSecret, fields: { num_expected_upload_files: '1' } }),
    );
    const running = await signed(fx, 'POST', `/assembly_notifications/${String(uploading.body.assembly_id)}/replay`, { notify_url: 'http://127.0.0.1:9/' });
    expect([running.status, running.body.error]).toEqual([400, 'ASSEMBLY_NOT_FINISHED']);
  });

  it('needs assembly_notifications:write on a Bearer token to replay', async () => {
    const r = await receiver();
    const created = await createWithNotify(fx, { notify_url: r.url });
    await r.waitFor(1);
    const basic = `Basic ${Buffer.from(`${fx.service.authKey}:${fx.service.authSecret}`).toString('base64')}`;
    const mint = async (scope: string): Promise<string> => {
      const res = await fetch(`${fx.service.url}/token`, { method: 'POST', headers: { Authorization: basic }, body: new URLSearchParams({ grant_type: 'client_credentials', scope }) });
      return String(((await res.json()) as Record<string, unknown>).access_token);
    };
    const replay = async (token: string) => {
      const res = await fetch(`${fx.service.url}/assembly_notifications/${String(created.assembly_id)}/replay`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: new URLSearchParams({ params: '{}' }),
      });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const readOnly = await replay(await mint('assemblies:read'));
    expect([readOnly.status, readOnly.body.error]).toEqual([403, 'INSUFFICIENT_AUTH_SCOPE']);
    const allowed = await replay(await mint('assembly_notifications:write'));
    expect(allowed.body).toMatchObject({ ok: 'ASSEMBLY_NOTIFICATION_REPLAYED', success: true });
  });
});

describe('notify_url targets an operator restricts', () => {
  it('refuses hosts outside --notify-allow-hosts and delivers to allowed ones', async () => {
    const fx = await startFixture({ notifications: { ...FAST, allowedHosts: ['hooks.example.com', '*.example.org'] } });
    const r = await startReceiver();
    try {
      const form = buildForm({ params: { steps: STEPS, notify_url: r.url, auth: { key: fx.service.authKey, expires: inOneHourIso() } }, secret: fx.service.authSecret });
      const res = await postAssembly(fx.service.url, form);
      expect([res.status, res.body.error]).toEqual([400, 'ASSEMBLY_INVALID_NOTIFY_URL']);
      expect(String(res.body.message)).toContain('127.0.0.1');
      const ok = buildForm({ params: { steps: STEPS, notify_url: 'https://a.example.org/hook', auth: { key: fx.service.authKey, expires: inOneHourIso() } }, secret: fx.service.authSecret });
      expect((await postAssembly(fx.service.url, ok)).status).toBe(200);
    } finally {
      await r.close();
      await fx.stop();
    }
    const loop = await startFixture({ notifications: { ...FAST, allowedHosts: ['loopback'] } });
    const r2 = await startReceiver();
    try {
      await createWithNotify(loop, { notify_url: r2.url });
      await r2.waitFor(1);
    } finally {
      await r2.close();
      await loop.stop();
    }
  });
});

describe('pending deliveries and restarts', () => {
  it('delivers after a restart a notification that was still pending when the service stopped', async () => {
    const dataDir = await tempDir('svc-notify-restart-');
    const r = await startReceiver([500]);
    // A long retry delay: the retry cannot happen before the stop.
    let service = await startLocalService({ dataDir, notifications: { retryDelaysMs: [1_500, 1_500], timeoutMs: 2_000 } });
    try {
      const fx = { service, dataDir, stop: async () => undefined } as Fixture;
      const created = await createWithNotify(fx, { notify_url: r.url });
      await r.waitFor(1);
      const pending = await until(
        async () => (await getJson(String(created.assembly_ssl_url))).body,
        (s) => s.notify_response_code === 500,
      );
      expect(pending.notify_status).toBe('processing');
      await service.close();
      await new Promise((res) => setTimeout(res, 1_600));
      expect(r.received).toHaveLength(1); // nobody sent the retry while the service was down
      service = await startLocalService({ dataDir, notifications: { retryDelaysMs: [1_500, 1_500], timeoutMs: 2_000 } });
      const got = await r.waitFor(2, 5_000);
      expect(got[1]!.signature).toBe(sha1(service.authSecret, got[1]!.transloadit));
      expect((JSON.parse(got[1]!.transloadit) as Record<string, unknown>).assembly_id).toBe(created.assembly_id);
      const status = await until(
        async () => (await getJson(`${service.url}/assemblies/${String(created.assembly_id)}`)).body,
        (s) => s.notify_status === 'successful',
      );
      expect(status.notify_response_code).toBe(200);
    } finally {
      await service.close();
      await r.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('retries, after a kill -9 in the middle of a send, the delivery that was in flight (CLI flags)', async () => {
    const dataDir = await tempDir('svc-notify-kill-');
    const r = await startReceiver([0]); // the first send never gets an answer
    const key = 'kill-test-key';
    const secret = 'kill-test-secret';
    const args = ['--data-dir', dataDir, '--auth-key', key, '--notify-retry-delays', '100,100', '--notify-timeout-ms', '1000'];
    let proc = await spawnService(args, { ASSEMBLYLINE_AUTH_SECRET: secret });
    try {
      const fx = { service: { url: proc.url, port: 0, authKey: key, authSecret: secret, close: async () => undefined }, dataDir, stop: async () => undefined } as Fixture;
      const created = await createWithNotify(fx, { notify_url: r.url });
      await r.waitFor(1);
      await proc.kill();
      proc = await spawnService(args, { ASSEMBLYLINE_AUTH_SECRET: secret });
      // The in-flight send was leased (timeout 1 s + 5 s): once the lease runs out it is sent again.
      const got = await r.waitFor(2, 15_000);
      expect(got[1]!.receivedAtMs - got[0]!.receivedAtMs).toBeGreaterThanOrEqual(5_000);
      expect(got[1]!.signature).toBe(sha1(secret, got[1]!.transloadit));
      const status = await until(
        async () => (await getJson(`${proc.url}/assemblies/${String(created.assembly_id)}`)).body,
        (s) => s.notify_status === 'successful',
      );
      expect(status.notify_response_code).toBe(200);
    } finally {
      await proc.kill();
      await r.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 40_000);
});
