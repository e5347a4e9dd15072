// Job slots over real HTTP: a real service with one slot, real ffmpeg encodes, signed and Bearer requests.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeVideo } from '../robots/test-files';
import { buildForm, getJson, inOneHourIso, postAssembly, startFixture, tempDir, waitForEnd, type Fixture } from '../testing/service-fixture';
import { signedCall } from '../testing/signed-call';
import { signParams } from '../auth/signature';

interface SlotsAnswer {
  ok: string;
  priority_job_slots: { count: number; slots: Record<string, Record<string, Record<string, number>>> };
  queue_details: { slots_total: number; jobs: { assembly_id: string; step: string; robot: string; started_at: string }[]; waiting: { assembly_id: string }[] };
}

let fx: Fixture;
let dir: string;
let video: Buffer;
beforeAll(async () => {
  fx = await startFixture({ jobSlots: 1 });
  dir = await tempDir('queue-src-');
  video = await readFile(await writeVideo(join(dir, 'clip.mp4'), 30));
});
afterAll(async () => {
  await fx.stop();
  await rm(dir, { recursive: true, force: true });
});

const encode = async (): Promise<{ id: string; url: string }> => {
  const form = buildForm({
    params: { auth: { key: fx.service.authKey, expires: inOneHourIso() }, steps: { enc: { use: ':original', robot: '/video/encode', width: 640, height: 480 } } },
    secret: fx.service.authSecret,
    files: [{ field: 'file', name: 'clip.mp4', data: video, type: 'video/mp4' }],
  });
  const { status, body } = await postAssembly(fx.service.url, form);
  expect(status, JSON.stringify(body)).toBe(200);
  return { id: String(body.assembly_id), url: String(body.assembly_ssl_url) };
};

const slots = async (): Promise<SlotsAnswer> => {
  const r = await signedCall(fx.service, 'GET', '/queues/job_slots');
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body as unknown as SlotsAnswer;
};

/** Polls GET /queues/job_slots until `check` holds (or fails after 20 s). */
async function slotsUntil(check: (a: SlotsAnswer) => boolean): Promise<SlotsAnswer> {
  const until = Date.now() + 20_000;
  for (;;) {
    const a = await slots();
    if (check(a)) return a;
    if (Date.now() > until) throw new Error(`job slots never matched: ${JSON.stringify(a)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('GET /queues/job_slots with --job-slots 1', () => {
  it('shows the one encode holding the slot while the other Assembly waits; the waiter queued for real', async () => {
    const first = await encode();
    const second = await encode();
    const during = await slotsUntil((a) => a.priority_job_slots.slots[first.id]?.enc !== undefined && a.queue_details.waiting.length > 0);
    expect(during.ok).toBe('PRIORITY_JOB_SLOTS_FOUND');
    expect(during.priority_job_slots.count).toBe(1);
    expect(Object.keys(during.priority_job_slots.slots)).toEqual([first.id]);
    expect(Object.values(during.priority_job_slots.slots[first.id]!.enc!)).toEqual([1]);
    expect(during.queue_details).toMatchObject({ slots_total: 1, jobs: [{ assembly_id: first.id, step: 'enc', robot: '/video/encode' }] });
    expect(during.queue_details.waiting.map((w) => w.assembly_id)).toEqual([second.id]);
    // The waiting Assembly says so in its status: executing, with a queue time growing and no execution time yet.
    const waiting = (await getJson(second.url)).body;
    expect(waiting.ok).toBe('ASSEMBLY_EXECUTING');
    expect(waiting.execution_duration).toBe(0);

    const a = await waitForEnd(first.url, 60_000);
    const b = await waitForEnd(second.url, 60_000);
    expect(a.ok).toBe('ASSEMBLY_COMPLETED');
    expect(b.ok).toBe('ASSEMBLY_COMPLETED');
    const encodeS = Number(a.execution_duration);
    // The second waited about as long as the first one's encode took; the first hardly waited.
    expect(Number(b.queue_duration)).toBeGreaterThan(0.5 * encodeS);
    expect(Number(a.queue_duration)).toBeLessThan(Number(b.queue_duration));
    expect(Date.parse(String(b.execution_start).replace(' GMT', 'Z').replace(/\//g, '-'))).toBeGreaterThanOrEqual(
      Date.parse(String(a.execution_start).replace(' GMT', 'Z').replace(/\//g, '-')),
    );
    const after = await slotsUntil((x) => x.priority_job_slots.count === 0);
    expect(after.priority_job_slots).toEqual({ count: 0, slots: {} });
  }, 120_000);

  it('gives the slot back when the Assembly holding it is canceled mid-job: the waiting one runs', async () => {
    const first = await encode();
    const second = await encode();
    await slotsUntil((a) => a.priority_job_slots.slots[first.id]?.enc !== undefined);
    const canceled = await fetch(first.url, { method: 'DELETE' });
    expect(((await canceled.json()) as { ok: string }).ok).toBe('ASSEMBLY_CANCELED');
    const next = await slotsUntil((a) => a.priority_job_slots.slots[second.id] !== undefined);
    expect(Object.keys(next.priority_job_slots.slots)).toEqual([second.id]);
    expect((await waitForEnd(second.url, 60_000)).ok).toBe('ASSEMBLY_COMPLETED');
    await slotsUntil((a) => a.priority_job_slots.count === 0);
  }, 120_000);

  it('a waiting Assembly canceled before its turn leaves the line and never takes a slot', async () => {
    const first = await encode();
    const second = await encode();
    await slotsUntil((a) => a.queue_details.waiting.some((w) => w.assembly_id === second.id));
    const canceled = (await (await fetch(second.url, { method: 'DELETE' })).json()) as Record<string, unknown>;
    expect(canceled.ok).toBe('ASSEMBLY_CANCELED');
    expect(Number(canceled.queue_duration)).toBeGreaterThan(0);
    expect(canceled.execution_duration).toBe(0);
    const gone = await slots();
    expect(gone.queue_details.waiting).toEqual([]);
    expect((await waitForEnd(first.url, 60_000)).ok).toBe('ASSEMBLY_COMPLETED');
    expect((await slots()).priority_job_slots.slots[second.id]).toBeUndefined();
  }, 120_000);
});

async function mint(scope: string): Promise<string> {
  const auth = `Basic ${Buffer.from(`${fx.service.authKey}:${fx.service.authSecret}`).toString('base64')}`;
  const res = await fetch(`${fx.service.url}/token`, { method: 'POST', headers: { Authorization: auth }, body: new URLSearchParams({ grant_type: 'client_credentials', scope }) });
  return String(((await res.json()) as { access_token: string }).access_token);
}

async function bearer(token: string, path: string, params: Record<string, unknown> = {}) {
  const url = new URL(path, fx.service.url);
  url.searchParams.set('params', JSON.stringify(params));
  const res = await fetch(url, { headers: { Authorization: `Bearer ${token}` } });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('job-slot endpoints: signatures and scopes', () => {
  for (const path of ['/queues/job_slots', '/priority_job_slot_stats']) {
    it(`${path}: a bad or missing signature is refused; a Bearer token needs queues:read`, async () => {
      const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: inOneHourIso() }, since: 0, region: 'all' });
      const bad = await fetch(`${fx.service.url}${path}?${new URLSearchParams({ params, signature: signParams(params, 'not-the-secret') })}`);
      expect(bad.status).toBe(401);
      expect(((await bad.json()) as { error: string }).error).toBe('INVALID_SIGNATURE');
      const unsigned = await fetch(`${fx.service.url}${path}?${new URLSearchParams({ params })}`);
      expect(((await unsigned.json()) as { error: string }).error).toBe('NO_SIGNATURE_FIELD');
      const none = await fetch(`${fx.service.url}${path}`);
      expect(((await none.json()) as { error: string }).error).toBe('NO_PARAMS_FIELD');

      const wrongScope = await bearer(await mint('templates:read'), path, { since: 0, region: 'all' });
      expect(wrongScope.status).toBe(403);
      expect(wrongScope.body.error).toBe('INSUFFICIENT_AUTH_SCOPE');
      const right = await bearer(await mint('queues:read'), path, { since: 0, region: 'all' });
      expect(right.status, JSON.stringify(right.body)).toBe(200);
    });
  }
});

describe('GET /priority_job_slot_stats', () => {
  const stats = (params: Record<string, unknown>) => signedCall(fx.service, 'GET', '/priority_job_slot_stats', params);

  it('shows the slot in use during the encodes (max 1 of 1) and averages below that, with empty buckets as zeros', async () => {
    // The runs above happened within the last ten minutes; samples reach the database within a second.
    await new Promise((r) => setTimeout(r, 1200));
    const sinceS = Math.floor(Date.now() / 1000) - 590;
    const window = { since: sinceS, until: sinceS + 600 };
    const max = await stats({ ...window, region: 'local', granularity: 60, aggregation: 'max' });
    expect(max.status, JSON.stringify(max.body)).toBe(200);
    const body = max.body as { ok: string; granularity: number; aggregation: string; slots_total: number; stats: { data_from_ts: number; slots_in_use: number; assemblies_queued: number }[] };
    expect(body).toMatchObject({ ok: 'PRIORITY_JOB_SLOT_STATS_FOUND', granularity: 60, aggregation: 'max', slots_total: 1 });
    expect(body.stats).toHaveLength(10);
    expect(body.stats[0]!.data_from_ts).toBe(sinceS);
    expect(Math.max(...body.stats.map((s) => s.slots_in_use))).toBe(1);
    // Two Assemblies were started together: one waited while the other held the slot.
    expect(Math.max(...body.stats.map((s) => s.assemblies_queued))).toBe(1);
    expect(body.stats.some((s) => s.slots_in_use === 0)).toBe(true);

    const avg = (await stats({ ...window, region: 'all', granularity: 60, aggregation: 'avg' })).body as typeof body;
    const busiest = Math.max(...avg.stats.map((s) => s.slots_in_use));
    expect(busiest).toBeGreaterThan(0);
    expect(busiest).toBeLessThanOrEqual(1);
    // A region other than ours has nothing: every bucket is zero.
    const elsewhere = (await stats({ ...window, region: 'eu-west-1', granularity: 60 })).body as typeof body;
    expect(elsewhere.stats).toHaveLength(10);
    expect(elsewhere.stats.every((s) => s.slots_in_use === 0 && s.assemblies_queued === 0)).toBe(true);
  });

  it('takes dates as "YYYY-MM-DD HH:mm:ss" UTC and raises the granularity so at most 1,000 buckets come back', async () => {
    const r = await stats({ since: '2026-01-01 00:00:00', until: '2026-01-31 00:00:00', region: 'all', granularity: 60 });
    const body = r.body as { granularity: number; stats: { data_from_ts: number }[]; aggregation: string };
    expect(body.granularity).toBe(2592); // 30 days / 1000
    expect(body.stats).toHaveLength(1000);
    expect(body.stats[0]!.data_from_ts).toBe(Date.UTC(2026, 0, 1) / 1000);
    expect(body.aggregation).toBe('avg'); // the default
  });

  it('answers every bad parameter with its code', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ region: 'all' }, 'PRIORITY_JOB_SLOT_STATS_INVALID_TIME'],
      [{ since: 'yesterday', region: 'all' }, 'PRIORITY_JOB_SLOT_STATS_INVALID_TIME'],
      [{ since: '2026-02-31 00:00:00', region: 'all' }, 'PRIORITY_JOB_SLOT_STATS_INVALID_TIME'],
      [{ since: 1000, until: 'soon', region: 'all' }, 'PRIORITY_JOB_SLOT_STATS_INVALID_TIME'],
      [{ since: 2000, until: 1000, region: 'all' }, 'PRIORITY_JOB_SLOT_STATS_INVALID_TIME'],
      [{ since: 1000 }, 'PRIORITY_JOB_SLOT_STATS_MISSING_REGION'],
      [{ since: 1000, region: '' }, 'PRIORITY_JOB_SLOT_STATS_MISSING_REGION'],
      [{ since: 1000, region: 'all', aggregation: 'median' }, 'PRIORITY_JOB_SLOT_STATS_INVALID_AGGREGATION'],
      [{ since: 1000, region: 'all', granularity: 0 }, 'PRIORITY_JOB_SLOT_STATS_ERROR'],
      [{ since: 1000, region: 'all', granularity: 'hourly' }, 'PRIORITY_JOB_SLOT_STATS_ERROR'],
    ];
    for (const [params, code] of cases) {
      const r = await stats(params);
      expect(r.status, JSON.stringify(params)).toBe(400);
      expect(r.body, JSON.stringify(params)).toMatchObject({ error: code, http_code: 400 });
      expect(String(r.body.message).length).toBeGreaterThan(10);
    }
  });
});
