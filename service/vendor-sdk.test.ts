// "A client other than ours": the vendor's own Node SDK (@transloadit/node 4.12.0) against the local service.
import { writeFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { Transloadit, assemblyIndexItemSchema, assemblyStatusSchema } from '@transloadit/node';
import { assemblyStatusSchema as sharedStatusSchema } from '../shared/api/assembly-status';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildForm, getJson, inOneHourIso, jpeg, postAssembly, startFixture, tempDir, waitForEnd, type Fixture } from './testing/service-fixture';
import { createHmac } from 'node:crypto';
import { startReceiver } from './testing/receiver';

describe('@transloadit/node against the local service', () => {
  let fx: Fixture;
  let dir: string;
  beforeAll(async () => {
    fx = await startFixture({ requireSignature: true });
    dir = await tempDir('sdk-src-');
  });
  afterAll(async () => {
    await fx.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('creates a signed Assembly, uploads files over tus and waits for completion', async () => {
    const photo = join(dir, 'photo.jpg');
    await writeFile(photo, await jpeg(640, 480));
    const client = new Transloadit({ authKey: fx.service.authKey, authSecret: fx.service.authSecret, endpoint: fx.service.url });
    const status = await client.createAssembly({
      files: { photo },
      params: {
        steps: {
          ':original': { robot: '/upload/handle' },
          thumb: { use: ':original', robot: '/image/resize', width: 160, height: 120, resize_strategy: 'crop' },
        },
      },
      waitForCompletion: true,
    });
    expect(status.ok).toBe('ASSEMBLY_COMPLETED');
    expect(status.error).toBeUndefined();
    expect(status.uploads?.[0]).toMatchObject({ name: 'photo.jpg', is_tus_file: true, meta: expect.objectContaining({ width: 640, height: 480 }) });
    const thumb = status.results?.thumb?.[0];
    expect(thumb?.ssl_url).toBeTruthy();
    const res = await fetch(String(thumb?.ssl_url));
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([160, 120]);
  });

  it('gets the service error code through the SDK for a bad secret', async () => {
    const client = new Transloadit({ authKey: fx.service.authKey, authSecret: 'wrong', endpoint: fx.service.url });
    await expect(client.createAssembly({ params: { steps: { ':original': { robot: '/upload/handle' } } } })).rejects.toMatchObject({ code: 'INVALID_SIGNATURE' });
  });

  it('produces status records that the vendor schema and the app schema accept in every state', async () => {
    const { authKey: key, authSecret: secret } = fx.service;
    const sign = (params: Record<string, unknown>, fields: Record<string, string> = {}, files: Parameters<typeof buildForm>[0]['files'] = []) =>
      buildForm({ params: { ...params, auth: { key, expires: inOneHourIso() } }, secret, fields, files });
    const steps = { ':original': { robot: '/upload/handle' }, r: { use: ':original', robot: '/image/resize', width: 30 } };
    const seen: Record<string, unknown>[] = [];
    const uploading = await postAssembly(fx.service.url, sign({ steps }, { num_expected_upload_files: '1' }));
    seen.push(uploading.body);
    seen.push((await (await fetch(String(uploading.body.assembly_ssl_url), { method: 'DELETE' })).json()) as Record<string, unknown>);
    const completed = await postAssembly(fx.service.url, sign({ steps }, {}, [{ field: 'f', name: 'a.jpg', data: await jpeg(60, 40), type: 'image/jpeg' }]));
    seen.push(completed.body, await waitForEnd(String(completed.body.assembly_ssl_url)));
    const failed = await postAssembly(fx.service.url, sign({ steps }, {}, [{ field: 'f', name: 'bad.jpg', data: Buffer.from('nope'), type: 'image/jpeg' }]));
    seen.push(await waitForEnd(String(failed.body.assembly_ssl_url)));
    seen.push((await getJson(String(uploading.body.assembly_ssl_url))).body);
    for (const status of seen) {
      const parsed = assemblyStatusSchema.safeParse(status);
      expect(parsed.success, `${String(status.ok ?? status.error)}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues).slice(0, 500)}`).toBe(true);
      // The app's own schema (shared/api) must read it without dropping fields.
      const ours = sharedStatusSchema.safeParse(status);
      expect(ours.success, ours.success ? '' : JSON.stringify(ours.error.issues).slice(0, 500)).toBe(true);
    }
    expect(seen.map((s) => s.ok ?? s.error)).toEqual(['ASSEMBLY_UPLOADING', 'ASSEMBLY_CANCELED', 'ASSEMBLY_EXECUTING', 'ASSEMBLY_COMPLETED', expect.any(String), 'ASSEMBLY_CANCELED']);
  });

  it('lists Assemblies for a signed GET /assemblies (filters, paging), and refuses an unsigned one', async () => {
    const client = new Transloadit({ authKey: fx.service.authKey, authSecret: fx.service.authSecret, endpoint: fx.service.url });
    const all = await client.listAssemblies({ pagesize: 500 });
    expect(all.count).toBeGreaterThanOrEqual(4);
    expect(all.items).toHaveLength(all.count);
    for (const item of all.items) expect(assemblyIndexItemSchema.safeParse(item).success).toBe(true);
    const created = all.items.map((i) => String(i.created));
    expect([...created].sort().reverse()).toEqual(created);
    const completed = await client.listAssemblies({ type: 'completed' });
    expect(completed.items.length).toBeGreaterThan(0);
    expect(completed.items.every((i) => i.ok === 'ASSEMBLY_COMPLETED')).toBe(true);
    const canceled = await client.listAssemblies({ type: 'canceled' });
    expect(canceled.items.every((i) => i.ok === 'ASSEMBLY_CANCELED')).toBe(true);
    const page2 = await client.listAssemblies({ pagesize: 1, page: 2 });
    expect(page2.items.map((i) => i.id)).toEqual([all.items[1]!.id]);
    expect(page2.count).toBe(all.count);
    const unsigned = await getJson(`${fx.service.url}/assemblies?params=${encodeURIComponent(JSON.stringify({ auth: { key: fx.service.authKey } }))}`);
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error).toBe('NO_SIGNATURE_FIELD');
  });
  it('lists by keyword, replays an Assembly with new steps and replays its signed notification to another URL', async () => {
    const client = new Transloadit({ authKey: fx.service.authKey, authSecret: fx.service.authSecret, endpoint: fx.service.url });
    const hook = await startReceiver();
    const other = await startReceiver();
    try {
      const photo = join(dir, 'sdk-replay-me.jpg');
      await writeFile(photo, await jpeg(200, 100));
      const steps = { ':original': { robot: '/upload/handle' }, thumb: { use: ':original', robot: '/image/resize', width: 50 } };
      // Uploaded over tus by the SDK: the replay must find those inputs again.
      const first = await client.createAssembly({ files: { photo }, params: { steps, notify_url: hook.url }, waitForCompletion: true });
      expect(first.ok).toBe('ASSEMBLY_COMPLETED');
      const found = await client.listAssemblies({ keywords: ['sdk-replay-me'] } as never);
      expect(found.items.map((i) => i.id)).toEqual([first.assembly_id]);
      expect(found.count).toBe(1);

      const replayed = await client.replayAssembly(String(first.assembly_id), { steps: { ...steps, thumb: { ...steps.thumb, width: 20 } } } as never);
      expect(replayed.ok).toBe('ASSEMBLY_REPLAYING');
      const done = await client.awaitAssemblyCompletion(String(replayed.assembly_id));
      expect(done.ok).toBe('ASSEMBLY_COMPLETED');
      expect(done.parent_id).toBe(first.assembly_id);
      expect(done.results?.thumb?.[0]?.meta?.width).toBe(20);

      // The webhook verifies with the standard rule: HMAC-SHA1 of the exact transloadit field.
      const [n] = await hook.waitFor(1);
      expect(n!.signature).toBe(createHmac('sha1', fx.service.authSecret).update(n!.transloadit).digest('hex'));
      const replayedNotification = await client.replayAssemblyNotification(String(first.assembly_id), { notify_url: other.url, wait: true } as never);
      expect(replayedNotification).toMatchObject({ ok: 'ASSEMBLY_NOTIFICATION_REPLAYED', success: true });
      expect(other.received).toHaveLength(1);
      const payload = JSON.parse(other.received[0]!.transloadit) as Record<string, unknown>;
      expect(payload.assembly_id).toBe(first.assembly_id);
      expect(other.received[0]!.signature).toBe(createHmac('sha1', fx.service.authSecret).update(other.received[0]!.transloadit).digest('hex'));
      const status = await client.getAssembly(String(first.assembly_id));
      expect(status.notify_url).toBe(hook.url);
      // With the notify_* fields filled in, both schemas still read the record.
      const raw = (await getJson(String(first.assembly_ssl_url))).body;
      expect(raw.notify_status).toBe('successful');
      for (const schema of [assemblyStatusSchema, sharedStatusSchema]) {
        const parsed = schema.safeParse(raw);
        expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues).slice(0, 500)).toBe(true);
      }
      const listed = await client.listAssemblies({ keywords: [String(replayed.assembly_id)] } as never);
      for (const item of listed.items) expect(assemblyIndexItemSchema.safeParse(item).success).toBe(true);
    } finally {
      await hook.close();
      await other.close();
    }
  });
  it('creates, reads, lists, edits and deletes Templates, and runs an Assembly from one', async () => {
    const client = new Transloadit({ authKey: fx.service.authKey, authSecret: fx.service.authSecret, endpoint: fx.service.url });
    const steps = { ':original': { robot: '/upload/handle' }, thumb: { use: ':original', robot: '/image/resize', width: 90, height: 90, resize_strategy: 'fit' } };
    const created = await client.createTemplate({ name: 'sdk-thumbs', template: { steps } } as never);
    expect(created.ok).toBe('TEMPLATE_CREATED');
    const id = String(created.id);
    const read = await client.getTemplate(id);
    expect(read).toMatchObject({ ok: 'TEMPLATE_FOUND', id, name: 'sdk-thumbs', content: { steps } });
    const listed = await client.listTemplates({ keywords: ['sdk-thumbs'] } as never);
    expect(listed.items.map((t) => t.id)).toEqual([id]);
    expect(listed.count).toBe(1);
    const edited = await client.editTemplate(id, { name: 'sdk-thumbs-2', template: { steps } } as never);
    expect(edited).toMatchObject({ ok: 'TEMPLATE_UPDATED', id, name: 'sdk-thumbs-2' });

    const photo = join(dir, 'from-template.jpg');
    await writeFile(photo, await jpeg(300, 300));
    const status = await client.createAssembly({ files: { photo }, params: { template_id: id }, waitForCompletion: true });
    expect(status.ok).toBe('ASSEMBLY_COMPLETED');
    expect(status.template_id).toBe(id);
    expect(status.results?.thumb?.[0]?.meta?.width).toBe(90);

    expect((await client.deleteTemplate(id)).ok).toBe('TEMPLATE_DELETED');
    await expect(client.getTemplate(id)).rejects.toThrow(/TEMPLATE_NOT_FOUND/);
  });
  it('creates, reads, lists, edits and deletes Template credentials', async () => {
    const client = new Transloadit({ authKey: fx.service.authKey, authSecret: fx.service.authSecret, endpoint: fx.service.url });
    const created = await client.createTemplateCredential({ name: 'sdk-sftp', type: 'sftp', content: { host: 'example.org', user: 'me', password: 'pw' } } as never);
    expect(created.ok).toBe('TEMPLATE_CREDENTIALS_CREATED');
    const id = String((created as unknown as { credential: { id: string } }).credential.id);
    const read = (await client.getTemplateCredential(id)) as unknown as { credential: { name: string; content: unknown } };
    expect(read.credential).toMatchObject({ name: 'sdk-sftp', content: { host: 'example.org' } });
    const list = (await client.listTemplateCredentials()) as unknown as { credentials: Array<{ id: string }> };
    expect(list.credentials.map((c) => c.id)).toContain(id);
    const edited = await client.editTemplateCredential(id, { name: 'sdk-sftp', type: 'sftp', content: { host: 'example.net', user: 'me', password: 'pw' } } as never);
    expect(edited.ok).toBe('TEMPLATE_CREDENTIALS_UPDATED');
    expect((await client.deleteTemplateCredential(id)).ok).toBe('TEMPLATE_CREDENTIALS_DELETED');
    await expect(client.getTemplateCredential(id)).rejects.toThrow(/TEMPLATE_CREDENTIALS_NOT_READ/);
  });
});
