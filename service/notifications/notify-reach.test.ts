// Issue 25: the service is reachable by any web page and local process, so notify_url must not be a way
// into the user's network, and the public status record must not carry what a receiver answered or the
// Auth Key. Real service over real HTTP; receivers on 127.0.0.1; names resolved by a resolver the test
// chooses (so no packet ever goes to the private addresses named here).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LookupFunction } from './notify-address';
import { startReceiver, type Receiver } from '../testing/receiver';
import { signedCall } from '../testing/signed-call';
import { buildForm, getJson, inOneHourIso, jpeg, postAssembly, startFixture, type Fixture } from '../testing/service-fixture';

const STEPS = { ':original': { robot: '/upload/handle' }, thumb: { use: ':original', robot: '/image/resize', width: 40 } };

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await read();
    if (done(v)) return v;
    if (Date.now() > end) throw new Error(`condition not met within ${timeoutMs} ms: ${JSON.stringify(v).slice(0, 400)}`);
    await new Promise((r) => setTimeout(r, 30));
  }
}

/** Names the test resolves: each call takes the next answer for its name (the last one repeats). */
function scriptedDns(script: Record<string, string[]>): LookupFunction & { asked: string[] } {
  const asked: string[] = [];
  const fn = ((host: string, _o: unknown, cb: (e: Error | null, a: { address: string; family: number }[]) => void) => {
    asked.push(host);
    const answers = script[host];
    if (!answers) return cb(Object.assign(new Error(`no test address for ${host}`), { code: 'ENOTFOUND' }), []);
    const address = answers.length > 1 ? answers.shift()! : answers[0]!;
    cb(null, [{ address, family: address.includes(':') ? 6 : 4 }]);
  }) as unknown as LookupFunction & { asked: string[] };
  fn.asked = asked;
  return fn;
}

describe('notify_url reaches no private network, and the public record leaks neither answers nor the key', () => {
  let fx: Fixture;
  let receiver: Receiver;
  let dns: ReturnType<typeof scriptedDns>;
  beforeAll(async () => {
    receiver = await startReceiver();
    dns = scriptedDns({ 'hooks.rebind.test': ['127.0.0.1', '10.20.30.40'], 'internal.lan.test': ['192.168.1.10'], 'meta.test': ['169.254.169.254'] });
    fx = await startFixture({ notifications: { retryDelaysMs: [50, 50], timeoutMs: 2_000, lookup: dns } });
  });
  afterAll(async () => {
    await fx.stop();
    await receiver.close();
  });

  const create = async (notifyUrl: string, service = fx.service) =>
    postAssembly(
      service.url,
      buildForm({
        params: { steps: STEPS, notify_url: notifyUrl, auth: { key: service.authKey, expires: inOneHourIso() } },
        secret: service.authSecret,
        files: [{ field: 'file', name: 'photo.jpg', data: await jpeg(40, 30), type: 'image/jpeg' }],
      }),
    );

  it('refuses a notify_url that is a private, link-local, metadata or unspecified address, before anything runs', async () => {
    for (const url of ['http://10.0.0.1/hook', 'http://192.168.0.1:8080/', 'http://172.20.1.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[fd00:ec2::254]/', 'http://[::ffff:10.0.0.1]/', 'http://0.0.0.0:9/', 'http://[fe80::1]/']) {
      const res = await create(url);
      expect(res.status, url).toBe(400);
      expect(res.body.error, url).toBe('ASSEMBLY_INVALID_NOTIFY_URL');
      expect(String(res.body.message), url).toContain('this service does not send notifications there');
    }
  });

  it('checks the address a name resolves to when it connects: a name that rebinds into the LAN is refused, and not retried', async () => {
    const url = receiver.url.replace('127.0.0.1', 'hooks.rebind.test');
    const created = await create(url);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    // First delivery: the name answers loopback, the receiver gets it.
    await receiver.waitFor(1);
    const id = String(created.body.assembly_id);
    // The name now answers a private address: the replay is refused at connect time and nothing arrives.
    const replay = await signedCall(fx.service, 'POST', `/assembly_notifications/${id}/replay`, { wait: true });
    expect(replay.body).toMatchObject({ ok: 'ASSEMBLY_NOTIFICATION_REPLAYED', success: false, notify_response_code: null });
    expect(String(replay.body.notify_error)).toBe('"hooks.rebind.test" resolves to 10.20.30.40, a private-network address: this service does not send notifications there (an operator who means it starts the service with --notify-allow-private-networks).');
    await new Promise((r) => setTimeout(r, 300));
    const listing = await signedCall(fx.service, 'GET', `/assembly_notifications/${id}`, {});
    expect(listing.body.pending).toEqual([]);
    expect((listing.body.items as unknown[]).length).toBe(2);
    expect(receiver.received).toHaveLength(1);
    expect(dns.asked.filter((h) => h === 'hooks.rebind.test').length).toBe(2);
  });

  it('refuses a name that resolves to a LAN host or the metadata service, and says so in the status', async () => {
    for (const [host, ip, kind] of [
      ['internal.lan.test', '192.168.1.10', 'a private-network address'],
      ['meta.test', '169.254.169.254', 'a cloud metadata address'],
    ] as const) {
      const created = await create(`http://${host}:8080/admin`);
      expect(created.status).toBe(200);
      const status = await until(
        async () => (await getJson(String(created.body.assembly_ssl_url))).body,
        (s) => s.notify_status === 'failed',
      );
      expect(status.notify_error).toContain(`"${host}" resolves to ${ip}, ${kind}`);
    }
  });

  it('keeps the receiver\'s answer and the Auth Key out of the status record anyone with its URL reads', async () => {
    const created = await create(receiver.url);
    const status = await until(
      async () => (await getJson(String(created.body.assembly_ssl_url))).body,
      (s) => s.notify_status === 'successful',
    );
    expect(status.notify_response_data).toBeNull();
    expect(status.account_id).toBe('local');
    expect(JSON.parse(String(status.params))).toMatchObject({ auth: { key: '****' }, notify_url: receiver.url });
    const text = JSON.stringify(status);
    expect(text).not.toContain(fx.service.authKey);
    expect(text).not.toContain('thanks #');
    // The SSE stream and the notification carry the same record.
    const sent = receiver.received.at(-1)!;
    expect(sent.transloadit).not.toContain(fx.service.authKey);
    // The signed listing keeps what the receiver said, for the owner.
    const listing = await signedCall(fx.service, 'GET', `/assembly_notifications/${String(created.body.assembly_id)}`, {});
    expect((listing.body.items as Record<string, unknown>[]).at(-1)).toMatchObject({ response_code: 200, response_data: expect.stringMatching(/^thanks #\d+$/) });
  });

  it('lets an operator allow private networks, but never the metadata service', async () => {
    const open = await startFixture({ notifications: { allowPrivateNetworks: true } });
    try {
      const meta = await create('http://169.254.169.254/latest/', open.service);
      expect([meta.status, meta.body.error]).toEqual([400, 'ASSEMBLY_INVALID_NOTIFY_URL']);
      expect(String(meta.body.message)).toContain('cloud metadata');
    } finally {
      await open.stop();
    }
  });
});
