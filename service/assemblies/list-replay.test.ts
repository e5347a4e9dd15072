// GET /assemblies and POST /assemblies/{id}/replay over real HTTP against a real service.
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService } from '../index';
import { openDatabase } from '../store/database';
import { writeVideo } from '../robots/test-files';
import { startReceiver } from '../testing/receiver';
import { signedCall } from '../testing/signed-call';
import { buildForm, getJson, inOneHourIso, jpeg, postAssembly, startFixture, tempDir, waitForEnd, type Fixture } from '../testing/service-fixture';
import type { AssemblyState } from './assembly-state';
import { readFile } from 'node:fs/promises';

const RESIZE = (width: number) => ({ ':original': { robot: '/upload/handle' }, thumb: { use: ':original', robot: '/image/resize', width, height: width, resize_strategy: 'fit' } });

describe('GET /assemblies and replay', () => {
  let fx: Fixture;
  let dir: string;
  const list = (params: Record<string, unknown>) => signedCall(fx.service, 'GET', '/assemblies', params);
  const replay = (id: string, params: Record<string, unknown> = {}) => signedCall(fx.service, 'POST', `/assemblies/${id}/replay`, params);
  const post = async (params: Record<string, unknown>, files: { name: string; data: Buffer }[] = [], fields: Record<string, string> = {}) => {
    const form = buildForm({
      params: { ...params, auth: { key: fx.service.authKey, expires: inOneHourIso() } },
      secret: fx.service.authSecret,
      fields,
      files: files.map((f) => ({ field: 'file', name: f.name, data: f.data, type: 'image/jpeg' })),
    });
    const res = await postAssembly(fx.service.url, form);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const ids: Record<string, string> = {};
  let startedAt = '';

  beforeAll(async () => {
    fx = await startFixture({ notifications: { retryDelaysMs: [], timeoutMs: 1_000 } });
    dir = await tempDir('list-src-');
    startedAt = new Date(Date.now() - 1000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '');
    // One of each kind, oldest first.
    const completed = await post({ steps: RESIZE(40), fields: { client: 'Acme Pictures' }, redirect_url: 'https://redirect.example.com/done' }, [{ name: 'sunset-beach.jpg', data: await jpeg(90, 60) }]);
    await waitForEnd(String(completed.assembly_ssl_url));
    ids.completed = String(completed.assembly_id);
    const failed = await post({ steps: RESIZE(40) }, [{ name: 'broken.jpg', data: Buffer.from('no image here') }]);
    await waitForEnd(String(failed.assembly_ssl_url));
    ids.failed = String(failed.assembly_id);
    const canceled = await post({ steps: RESIZE(40) }, [], { num_expected_upload_files: '1' });
    await fetch(String(canceled.assembly_ssl_url), { method: 'DELETE' });
    ids.canceled = String(canceled.assembly_id);
    const notified = await post({ steps: RESIZE(40), notify_url: 'http://127.0.0.1:9/notify-hook-xyz' }, [{ name: 'n.jpg', data: await jpeg(20, 20) }]);
    await waitForEnd(String(notified.assembly_ssl_url));
    ids.notified = String(notified.assembly_id);
    ids.aborted = await abortedUpload(fx);
    const uploading = await post({ steps: RESIZE(40) }, [], { num_expected_upload_files: '1' });
    ids.uploading = String(uploading.assembly_id);
    // A video encode long enough to be caught executing.
    const video = await readFile(await writeVideo(join(dir, 'clip.mp4'), 20));
    const form = buildForm({
      params: { steps: { ':original': { robot: '/upload/handle' }, enc: { use: ':original', robot: '/video/encode', preset: 'ipad-high' } }, auth: { key: fx.service.authKey, expires: inOneHourIso() } },
      secret: fx.service.authSecret,
      files: [{ field: 'file', name: 'clip.mp4', data: video, type: 'video/mp4' }],
    });
    ids.executing = String((await postAssembly(fx.service.url, form)).body.assembly_id);
  }, 60_000);
  afterAll(async () => {
    await fx.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('filters by every type, newest first, with count the total', async () => {
    const all = await list({ pagesize: 100 });
    expect(all.status).toBe(200);
    const order = (all.body.items as { id: string }[]).map((i) => i.id);
    expect(order.slice(0, 7)).toEqual([ids.executing, ids.uploading, ids.aborted, ids.notified, ids.canceled, ids.failed, ids.completed]);
    expect(all.body.count).toBe(7);
    const expected: Record<string, string[]> = {
      uploading: [ids.uploading!],
      executing: [ids.executing!],
      canceled: [ids.canceled!],
      completed: [ids.notified!, ids.completed!],
      failed: [ids.failed!],
      request_aborted: [ids.aborted!],
    };
    for (const [type, want] of Object.entries(expected)) {
      const res = await list({ type });
      expect((res.body.items as { id: string }[]).map((i) => i.id), type).toEqual(want);
      expect(res.body.count, type).toBe(want.length);
    }
    const item = (all.body.items as Record<string, unknown>[]).find((i) => i.id === ids.completed)!;
    expect(item).toMatchObject({ ok: 'ASSEMBLY_COMPLETED', error: null, files: '["sunset-beach.jpg"]', redirect_url: 'https://redirect.example.com/done', num_input_files: 1, instance: new URL(fx.service.url).host });
    expect(String(item.created)).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('pages with page and pagesize', async () => {
    const first = await list({ pagesize: 3, page: 1 });
    const second = await list({ pagesize: 3, page: 2, type: 'all' });
    const third = await list({ pagesize: 3, page: 3 });
    expect(first.body.count).toBe(7);
    expect(second.body.count).toBe(7);
    const seen = [...(first.body.items as { id: string }[]), ...(second.body.items as { id: string }[]), ...(third.body.items as { id: string }[])].map((i) => i.id);
    expect(seen).toHaveLength(7);
    expect(new Set(seen).size).toBe(7);
    expect(((await list({ page: 9 })).body.items as unknown[]).length).toBe(0);
  });

  it('matches keywords against id, redirect_url, fields, notify_url, error messages and file names', async () => {
    const hits = async (keywords: unknown) => ((await list({ keywords })).body.items as { id: string }[]).map((i) => i.id);
    expect(await hits([ids.failed])).toEqual([ids.failed]);
    expect(await hits(['redirect.example.com'])).toEqual([ids.completed]);
    expect(await hits(['acme pictures'])).toEqual([ids.completed]);
    expect(await hits(['notify-hook-xyz'])).toEqual([ids.notified]);
    expect(await hits(['SUNSET'])).toEqual([ids.completed]);
    expect(await hits(['sunset', 'acme'])).toEqual([ids.completed]);
    expect(await hits(['sunset', 'broken'])).toEqual([]);
    // A plain string is one keyword (as GO's singular `keyword` is), not split into words.
    expect(await hits('SUNSET')).toEqual([ids.completed]);
    expect(await hits('notify-hook-xyz')).toEqual([ids.notified]);
    expect(await hits('sunset broken')).toEqual([]);
    const failedStatus = (await getJson(`${fx.service.url}/assemblies/${ids.failed}`)).body;
    const word = String(failedStatus.message).split(' ').find((w) => w.length > 6 && !/broken/.test(w))!;
    expect(await hits([word])).toContain(ids.failed);
  });

  it('filters by fromdate and todate (UTC, Y-m-d H:i:s)', async () => {
    const future = new Date(Date.now() + 3600_000).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '');
    expect((await list({ fromdate: startedAt })).body.count).toBe(7);
    expect((await list({ fromdate: future })).body.count).toBe(0);
    expect((await list({ todate: startedAt })).body.count).toBe(0);
    expect((await list({ fromdate: startedAt, todate: 'NOW()' })).body.count).toBe(7);
    const completed = (await getJson(`${fx.service.url}/assemblies/${ids.completed}`)).body;
    expect(completed.ok).toBe('ASSEMBLY_COMPLETED');
  });

  it('answers bad list params with ASSEMBLY_LIST_INVALID_PARAMS and needs a signature', async () => {
    for (const bad of [{ pagesize: 0 }, { pagesize: 5001 }, { page: 0 }, { page: 'two' }, { type: 'finished' }, { fromdate: 'yesterday' }, { todate: '2026-02-31 10:00:00' }, { keywords: [{}] }]) {
      const res = await list(bad);
      expect([res.status, res.body.error], JSON.stringify(bad)).toEqual([400, 'ASSEMBLY_LIST_INVALID_PARAMS']);
    }
    expect((await list({ pagesize: 5000 })).status).toBe(200);
    const unsigned = await fetch(`${fx.service.url}/assemblies?${new URLSearchParams({ params: JSON.stringify({ auth: { key: fx.service.authKey } }) })}`);
    expect([unsigned.status, ((await unsigned.json()) as Record<string, unknown>).error]).toEqual([401, 'NO_SIGNATURE_FIELD']);
  });

  it('lists with a Bearer token only when it has assemblies:read', async () => {
    const basic = `Basic ${Buffer.from(`${fx.service.authKey}:${fx.service.authSecret}`).toString('base64')}`;
    const mint = async (scope: string) =>
      String(((await (await fetch(`${fx.service.url}/token`, { method: 'POST', headers: { Authorization: basic }, body: new URLSearchParams({ grant_type: 'client_credentials', scope }) })).json()) as Record<string, unknown>).access_token);
    const get = async (token: string) => {
      const res = await fetch(`${fx.service.url}/assemblies?params=${encodeURIComponent('{"type":"failed"}')}`, { headers: { Authorization: `Bearer ${token}` } });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    expect((await get(await mint('assemblies:read'))).body.count).toBe(1);
    const denied = await get(await mint('templates:read'));
    expect([denied.status, denied.body.error]).toEqual([403, 'INSUFFICIENT_AUTH_SCOPE']);
  });

  it('replays an Assembly over the same inputs with new steps, and the new Assembly completes', async () => {
    const res = await replay(ids.completed!, { steps: RESIZE(24) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: 'ASSEMBLY_REPLAYING', success: true, parent_id: ids.completed });
    const newId = String(res.body.assembly_id);
    expect(newId).toMatch(/^[0-9a-f]{32}$/);
    expect(newId).not.toBe(ids.completed);
    expect(res.body.assembly_ssl_url).toBe(`${fx.service.url}/assemblies/${newId}`);
    const done = await waitForEnd(String(res.body.assembly_ssl_url));
    expect(done).toMatchObject({ ok: 'ASSEMBLY_COMPLETED', parent_id: ids.completed, fields: { client: 'Acme Pictures' } });
    expect((done.uploads as { name: string }[]).map((u) => u.name)).toEqual(['sunset-beach.jpg']);
    const thumb = (done.results as Record<string, { ssl_url: string }[]>).thumb![0]!;
    const meta = await sharp(Buffer.from(await (await fetch(thumb.ssl_url)).arrayBuffer())).metadata();
    expect(Math.max(meta.width!, meta.height!)).toBe(24);
    // The list shows it, newest first, with its parent.
    const top = ((await list({ pagesize: 1 })).body.items as Record<string, unknown>[])[0]!;
    expect(top).toMatchObject({ id: newId, parent_id: ids.completed });
    // `keywords` also match parent_id: the original's id lists the original and every replay of it.
    const family = (await list({ keywords: [ids.completed!.toUpperCase()] })).body.items as { id: string; parent_id: string | null }[];
    expect(family.map((i) => [i.id, i.parent_id])).toEqual([[newId, ids.completed], [ids.completed, null]]);
    // A replay's own id matches only itself (its parent's id is not in the parent's record).
    expect(((await list({ keywords: [newId] })).body.items as { id: string }[]).map((i) => i.id)).toEqual([newId]);
  });

  it('replays with the original steps, merged fields and a notify_url', async () => {
    const r = await startReceiver();
    try {
      const res = await replay(ids.completed!, { fields: { client: 'Other Co', extra: '1' }, notify_url: r.url });
      expect(res.body).toMatchObject({ ok: 'ASSEMBLY_REPLAYING', notify_url: r.url });
      const done = await waitForEnd(String(res.body.assembly_ssl_url));
      expect(done.fields).toEqual({ client: 'Other Co', extra: '1' });
      const thumb = (done.results as Record<string, { meta: { width: number } }[]>).thumb![0]!;
      expect(thumb.meta.width).toBe(40);
      const [n] = await r.waitFor(1);
      expect((JSON.parse(n!.transloadit) as Record<string, unknown>).assembly_id).toBe(res.body.assembly_id);
      // The original keeps its own notify_url (none).
      expect((await getJson(`${fx.service.url}/assemblies/${ids.completed}`)).body.notify_url).toBeNull();
    } finally {
      await r.close();
    }
  });

  it('reparse_template 0 keeps the Template content used originally, 1 re-reads it, template_id picks another', async () => {
    const made = await signedCall(fx.service, 'POST', '/templates', { name: 'replay-resize', template: JSON.stringify({ steps: RESIZE(30) }) });
    const tid = String(made.body.id);
    const original = await post({ template_id: tid }, [{ name: 't.jpg', data: await jpeg(100, 100) }]);
    await waitForEnd(String(original.assembly_ssl_url));
    const edited = await signedCall(fx.service, 'PUT', `/templates/${tid}`, { name: 'replay-resize', template: JSON.stringify({ steps: RESIZE(50) }) });
    expect(edited.body.ok).toBe('TEMPLATE_UPDATED');
    const width = async (params: Record<string, unknown>) => {
      const res = await replay(String(original.assembly_id), params);
      expect(res.body.ok, JSON.stringify(res.body)).toBe('ASSEMBLY_REPLAYING');
      const done = await waitForEnd(String(res.body.assembly_ssl_url));
      return (done.results as Record<string, { meta: { width: number } }[]>).thumb![0]!.meta.width;
    };
    expect(await width({})).toBe(30);
    expect(await width({ reparse_template: 0 })).toBe(30);
    expect(await width({ reparse_template: 1 })).toBe(50);
    const other = await signedCall(fx.service, 'POST', '/templates', { name: 'replay-other', template: JSON.stringify({ steps: RESIZE(16) }) });
    expect(await width({ template_id: String(other.body.id) })).toBe(16);
  });

  it('gives clear codes for replays that cannot happen', async () => {
    const missing = await replay('0'.repeat(32));
    expect([missing.status, missing.body.error]).toEqual([404, 'ASSEMBLY_NOT_FOUND']);
    const running = await replay(ids.uploading!);
    expect([running.status, running.body.error]).toEqual([400, 'ASSEMBLY_NOT_FINISHED']);
    const aborted = await replay(ids.aborted!);
    expect([aborted.status, aborted.body.error]).toEqual([400, 'ASSEMBLY_CANNOT_BE_REPLAYED']);
    const badFlag = await replay(ids.completed!, { reparse_template: 2 });
    expect([badFlag.status, badFlag.body.error]).toEqual([400, 'ASSEMBLY_NOT_REPLAYED']);
    const badFields = await replay(ids.completed!, { fields: 'x' });
    expect([badFields.status, badFields.body.error]).toEqual([400, 'ASSEMBLY_NOT_REPLAYED']);
    const badSteps = await replay(ids.completed!, { steps: { x: { robot: '/no/such', use: ':original' } } });
    expect([badSteps.status, badSteps.body.error]).toEqual([400, 'ASSEMBLY_STEP_UNKNOWN_ROBOT']);
    const badUrl = await replay(ids.completed!, { notify_url: 'file:///etc/passwd' });
    expect([badUrl.status, badUrl.body.error]).toEqual([400, 'ASSEMBLY_INVALID_NOTIFY_URL']);
    const noTemplate = await replay(ids.completed!, { template_id: 'f'.repeat(32) });
    expect([noTemplate.status, noTemplate.body.error]).toEqual([404, 'TEMPLATE_NOT_FOUND']);
    const unsigned = await fetch(`${fx.service.url}/assemblies/${ids.completed}/replay`, { method: 'POST', body: new URLSearchParams({ params: JSON.stringify({ auth: { key: fx.service.authKey } }) }) });
    expect(((await unsigned.json()) as Record<string, unknown>).error).toBe('NO_SIGNATURE_FIELD');
  });
});

/** A multipart POST cut mid-file: the service records it as REQUEST_ABORTED. */
async function abortedUpload(fx: Fixture): Promise<string> {
  const id = randomBytes(16).toString('hex');
  const boundary = 'xxBOUNDARYxx';
  const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: inOneHourIso() }, steps: { ':original': { robot: '/upload/handle' } } });
  const { signParams } = await import('../auth/signature');
  const part = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = part('params', params) + part('signature', signParams(params, fx.service.authSecret)) + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="cut.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  await new Promise<void>((resolve) => {
    const req = request(`${fx.service.url}/assemblies/${id}`, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + 10_000_000) },
    });
    req.on('error', () => resolve());
    req.write(head);
    req.write(Buffer.alloc(64 * 1024, 7), () => setTimeout(() => (req.destroy(), resolve()), 100));
  });
  for (let i = 0; i < 100; i++) {
    if ((await getJson(`${fx.service.url}/assemblies/${id}`)).body.ok === 'REQUEST_ABORTED') return id;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('the cut upload was not recorded');
}

describe('GET /assemblies with 10,000 Assemblies stored', () => {
  it('filters, searches and pages over the summary index (times are logged; speed goals live in bench/)', async () => {
    const dataDir = await tempDir('svc-list-10k-');
    let service = await startLocalService({ dataDir });
    try {
      const form = buildForm({ params: { steps: RESIZE(20), auth: { key: service.authKey, expires: inOneHourIso() } }, secret: service.authSecret, files: [{ field: 'f', name: 'seed.jpg', data: await jpeg(30, 30) }] });
      const seed = await postAssembly(service.url, form);
      await waitForEnd(String(seed.body.assembly_ssl_url));
      await service.close();
      const db = openDatabase(dataDir);
      const template = JSON.parse(db.getAssembly(String(seed.body.assembly_id))!.data) as AssemblyState;
      const t0 = Date.now() - 10_000 * 1000;
      for (let i = 0; i < 10_000; i++) {
        const failed = i % 10 === 0;
        const s: AssemblyState = {
          ...template,
          id: randomBytes(16).toString('hex'),
          createdAtMs: t0 + i * 1000,
          ok: failed ? null : 'ASSEMBLY_COMPLETED',
          error: failed ? 'INVALID_INPUT_ERROR' : null,
          message: failed ? `file number ${i} could not be read` : template.message,
          fields: { batch: `batch-${i % 100}` },
          uploads: template.uploads.map((u) => ({ ...u, file: { ...u.file, name: `frame-${i}.jpg` } })),
        };
        db.insertAssembly({ id: s.id, state: s.error ?? s.ok ?? '', data: JSON.stringify(s) });
      }
      db.close();
      service = await startLocalService({ dataDir });
      const timed = async (params: Record<string, unknown>) => {
        const start = performance.now();
        const res = await signedCall(service, 'GET', '/assemblies', params);
        return { ms: performance.now() - start, body: res.body };
      };
      await timed({}); // warm up
      const first = await timed({ pagesize: 50 });
      expect(first.body.count).toBe(10_001);
      expect((first.body.items as unknown[]).length).toBe(50);
      const failed = await timed({ type: 'failed', pagesize: 50, page: 3 });
      expect(failed.body.count).toBe(1000);
      const search = await timed({ keywords: ['frame-4242.jpg'] });
      expect((search.body.items as { files: string }[]).map((i) => i.files)).toEqual(['["frame-4242.jpg"]']);
      const combined = await timed({ keywords: ['batch-7', 'could not'], type: 'failed' });
      // i % 10 === 0 and i % 100 === 7..79 (batch-7, batch-70..79): only i % 100 = 70 is also failed.
      expect(combined.body.count).toBe(100);
      const times = [first.ms, failed.ms, search.ms, combined.ms];
      console.log(`GET /assemblies over 10,001 Assemblies: ${times.map((t) => t.toFixed(1)).join(' / ')} ms`);
    } finally {
      await service.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);
});
