// The assemblies:* channels and results:thumbnail for any Assembly, through core's dispatch, against the
// real embedded local service (and a second one as a remote workspace limited to one token scope).
import { createHash } from 'node:crypto';
import { mkdtemp, open, readFile, rm, stat } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import type { AssemblyDetail, AssemblyListPage, AssemblyNotifications, AssemblyUpdate, CancelManyResult, ReplayManyResult } from '../../../shared/ipc/assembly-models';
import type { MediaPreview, Workspace } from '../../../shared/ipc/models';
import type { Result } from '../../../shared/result';
import { createApiClient, type ApiClient } from '../api/api-client';
import { createCore, type Core } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { channelCaller } from '../ipc/dispatch-testing';
import { createRecordingDesktop } from '../ports/recording-desktop';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';

let dir = '';
let core: Core;
const desktop = createRecordingDesktop();
let remote: LocalService;
let api: ApiClient;
let receiver: Server;
let receiverUrl = '';
const received: string[] = [];
const updates: AssemblyUpdate[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-assemblies-'));
  core = await createCore(
    testCorePorts(dir, {
      secretStore: createKeyringSecretStore('assemblyline-assemblies-test'),
      desktop,
    }),
  );
  core.onEvent((name, payload) => {
    if (name === 'assembly:updated') updates.push(payload as AssemblyUpdate);
  });
  remote = await startLocalService({ dataDir: path.join(dir, 'remote-service') });
  const local = await dispatch(core.handlers, 'workspaces:list', {});
  const authKey = local.ok ? (local.value as Workspace[])[0]!.authKey : '';
  api = createApiClient({ endpoint: core.localServiceUrl!, authKey, getSecret: () => core.vault.get('local') });
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200).end('thanks');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
}, 60_000);
afterAll(async () => {
  await core.close();
  await remote.close();
  receiver.close();
  await rm(dir, { recursive: true, force: true });
});

const { call, failure } = channelCaller(() => core.handlers);

const resize = { ':original': { robot: '/upload/handle' }, small: { use: ':original', robot: '/image/resize', width: 32 } };
const photo = async (name: string, data?: Buffer) => ({
  field: 'file',
  name,
  data: new Blob([data ?? (await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3070c0' } }).jpeg().toBuffer())], { type: 'image/jpeg' }),
});
async function create(name: string, fields: Record<string, string>, bad = false, notifyUrl?: string): Promise<string> {
  const made = await api.createAssembly({
    instructions: { steps: resize, fields, ...(notifyUrl ? { notify_url: notifyUrl } : {}) },
    expectedUploads: 0,
    files: [await photo(name, bad ? Buffer.from('not a jpeg') : undefined)],
  });
  if (!made.ok) throw new Error(made.error.message);
  return made.value.assembly_id!;
}
async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > end) return value;
    await new Promise((r) => setTimeout(r, 150));
  }
}
const ended = (d: AssemblyDetail) => d.status.ok === 'ASSEMBLY_COMPLETED' || typeof d.status.error === 'string';
const detail = (assemblyId: string) => until(() => call<AssemblyDetail>('assemblies:get', { assemblyId }), ended);

describe('the Assembly browser in core', () => {
  let done1 = '';
  let done2 = '';
  let failed = '';

  it('lists Assemblies another client made, filtered by state, date and keywords, with paging', async () => {
    done1 = await create('beach.jpg', { client: 'script-a' }, false, receiverUrl);
    done2 = await create('forest.jpg', { client: 'script-b' });
    failed = await create('broken.jpg', { client: 'script-a' }, true);
    await Promise.all([done1, done2, failed].map(detail));

    const all = await call<AssemblyListPage>('assemblies:list', {});
    expect(all.count).toBe(3);
    expect(all.items.map((i) => i.id)).toEqual([failed, done2, done1]);
    expect(all.items[2]).toMatchObject({ state: 'ASSEMBLY_COMPLETED', error: null, fileNames: ['beach.jpg'], notifyUrl: receiverUrl, run: null });
    expect(all.items[2]!.created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000Z$/);

    const failures = await call<AssemblyListPage>('assemblies:list', { state: 'failed' });
    expect(failures.items.map((i) => [i.id, i.error === null])).toEqual([[failed, false]]);
    const scriptA = await call<AssemblyListPage>('assemblies:list', { keywords: ['script-a'] });
    expect(scriptA.items.map((i) => i.id)).toEqual([failed, done1]);
    const both = await call<AssemblyListPage>('assemblies:list', { keywords: ['script-a', 'beach'] });
    expect(both.items.map((i) => i.id)).toEqual([done1]);
    const today = new Date().toISOString().slice(0, 10);
    expect((await call<AssemblyListPage>('assemblies:list', { fromDate: today, toDate: today })).count).toBe(3);
    expect((await call<AssemblyListPage>('assemblies:list', { toDate: '2020-01-01' })).count).toBe(0);
    const page2 = await call<AssemblyListPage>('assemblies:list', { page: 2, pageSize: 2 });
    expect([page2.count, page2.items.map((i) => i.id)]).toEqual([3, [done1]]);
  });

  it('reads any Assembly with its results, previews only its own files, and lists its notification attempts', async () => {
    const read = await call<AssemblyDetail>('assemblies:get', { assemblyId: done1 });
    expect(read).toMatchObject({ runId: null, replays: [], status: { assembly_id: done1, ok: 'ASSEMBLY_COMPLETED', fields: { client: 'script-a' } } });
    const result = read.status.results?.small?.[0];
    expect(result?.meta?.width).toBe(32);
    const preview = await call<MediaPreview>('results:thumbnail', { assemblyId: done1, url: result!.ssl_url!, size: 64 });
    expect(preview.dataUrl).toMatch(/^data:image\/jpeg;base64,/);
    // A URL of another Assembly is not this one's: core does not fetch it.
    const other = (await call<AssemblyDetail>('assemblies:get', { assemblyId: done2 })).status.results?.small?.[0]?.ssl_url;
    expect(await failure('results:thumbnail', { assemblyId: done1, url: other, size: 64 })).toMatchObject({ code: 'URL_NOT_OF_RUN' });
    expect(await failure('results:thumbnail', { url: other, size: 64 })).toMatchObject({ code: 'INVALID_IPC_REQUEST' });

    const failedOne = await call<AssemblyDetail>('assemblies:get', { assemblyId: failed });
    expect(failedOne.status.error).toBeTruthy();
    expect(await failure('assemblies:get', { assemblyId: '0'.repeat(32) })).toMatchObject({ code: 'ASSEMBLY_NOT_FOUND' });
    expect(await failure('assemblies:get', { assemblyId: '../templates' })).toMatchObject({ code: 'INVALID_IPC_REQUEST' });

    const notes = await until(
      () => call<AssemblyNotifications>('assemblies:notifications', { assemblyId: done1 }),
      (n) => n.attempts.length > 0,
    );
    expect(notes.notifyUrl).toBe(receiverUrl);
    expect(notes.attempts[0]).toMatchObject({ url: receiverUrl, successful: true, responseCode: 200, responseData: 'thanks', replay: false });
    expect(received.some((body) => body.includes(done1))).toBe(true);
  });

  it('downloads the result files of any Assembly into the downloads folder, only URLs of its own record, and opens them', async () => {
    const read = await call<AssemblyDetail>('assemblies:get', { assemblyId: done1 });
    const result = read.status.results!.small![0]!;
    const saved = await call<{ path: string }>('results:download', { assemblyId: done1, url: result.ssl_url!, name: result.name! });
    expect(path.dirname(saved.path)).toBe(path.join(dir, 'downloads'));
    const bytes = await readFile(saved.path);
    expect(createHash('md5').update(bytes).digest('hex')).toBe(result.md5hash);
    // The same name again gets its own file, as run downloads do.
    const again = await call<{ path: string }>('results:download', { assemblyId: done1, url: result.ssl_url!, name: result.name! });
    expect(path.basename(again.path)).toBe(`${path.parse(result.name!).name} (1)${path.extname(result.name!)}`);
    // Opening is allowed for what core wrote; another Assembly's URL is refused before anything is fetched.
    expect(await call('shell:revealPath', { path: saved.path })).toEqual({});
    const other = (await call<AssemblyDetail>('assemblies:get', { assemblyId: done2 })).status.results!.small![0]!.ssl_url!;
    expect(await failure('results:download', { assemblyId: done1, url: other, name: 'x.jpg' })).toMatchObject({ code: 'URL_NOT_OF_RUN' });
    expect(await failure('results:download', { url: other, name: 'x.jpg' })).toMatchObject({ code: 'INVALID_IPC_REQUEST' });
    expect(await failure('results:download', { assemblyId: '0'.repeat(32), url: other, name: 'x.jpg' })).toMatchObject({ code: 'ASSEMBLY_NOT_FOUND' });
  });

  it('drags a result out as a file where the host can (cached, fetched once), and says so where it cannot', async () => {
    const result = (await call<AssemblyDetail>('assemblies:get', { assemblyId: done1 })).status.results!.small![0]!;
    const request = { assemblyId: done1, url: result.ssl_url!, name: result.name! };
    // The browser host's desktop has no native drag: its page drags the URL instead.
    expect(await failure('results:startDrag', request)).toMatchObject({ code: 'DRAG_UNAVAILABLE' });
    const dragged: string[] = [];
    desktop.startDrag = (file) => void dragged.push(file);
    try {
      // The mouse goes down on the result: fetched, not dragged yet.
      const fetched = await call<{ path: string }>('results:startDrag', { ...request, start: false });
      expect(dragged).toEqual([]);
      const first = await call<{ path: string }>('results:startDrag', request);
      expect(first.path).toBe(fetched.path);
      expect(path.basename(first.path)).toBe(result.name);
      expect(first.path.startsWith(path.join(dir, 'data', 'drag-cache'))).toBe(true);
      expect(createHash('md5').update(await readFile(first.path)).digest('hex')).toBe(result.md5hash);
      const { mtimeMs } = await stat(first.path);
      const second = await call<{ path: string }>('results:startDrag', request);
      expect(second.path).toBe(first.path);
      expect((await stat(second.path)).mtimeMs).toBe(mtimeMs);
      expect(dragged).toEqual([first.path, first.path]);
      const other = (await call<AssemblyDetail>('assemblies:get', { assemblyId: done2 })).status.results!.small![0]!.ssl_url!;
      expect(await failure('results:startDrag', { ...request, url: other })).toMatchObject({ code: 'URL_NOT_OF_RUN' });
      expect(dragged).toHaveLength(2);
    } finally {
      delete desktop.startDrag;
    }
  });

  it('replays one Assembly with new steps; the replay completes and links to its parent', async () => {
    const steps = { ':original': { robot: '/upload/handle' }, tiny: { use: ':original', robot: '/image/resize', width: 16 } };
    const started = await call<{ parentId: string; assemblyId: string }>('assemblies:replay', { assemblyId: done2, steps });
    expect(started.parentId).toBe(done2);
    const replay = await detail(started.assemblyId);
    expect(replay.status).toMatchObject({ ok: 'ASSEMBLY_COMPLETED', parent_id: done2 });
    expect(replay.status.results?.tiny?.[0]?.meta?.width).toBe(16);
    expect((await call<AssemblyDetail>('assemblies:get', { assemblyId: done2 })).replays).toEqual([started.assemblyId]);
    const top = await call<AssemblyListPage>('assemblies:list', { pageSize: 1 });
    expect(top.items[0]).toMatchObject({ id: started.assemblyId, parentId: done2 });
  });

  it('lists every replay of an Assembly, also those another client made (the list matches parent_id), newest first', async () => {
    const byOther = await api.request('POST', `/assemblies/${done1}/replay`, {});
    expect(byOther.ok && byOther.value.parent_id).toBe(done1);
    const otherId = byOther.ok ? String(byOther.value.assembly_id) : '';
    const mine = await call<{ parentId: string; assemblyId: string }>('assemblies:replay', { assemblyId: done1 });
    const read = await call<AssemblyDetail>('assemblies:get', { assemblyId: done1.toUpperCase() });
    expect(read.replays).toEqual([mine.assemblyId, otherId]);
    // The replay's own detail names its parent; it has no replays itself (its id is only in its own record).
    const child = await detail(otherId);
    expect([child.status.parent_id, child.replays]).toEqual([done1, []]);
  });

  it('bulk-replays a selection and reports each one that the service refused with its code', async () => {
    const missing = 'f'.repeat(32);
    const result = await call<ReplayManyResult>('assemblies:replayMany', { assemblyIds: [failed, missing], steps: resize });
    expect(result.failed).toEqual([{ parentId: missing, code: 'ASSEMBLY_NOT_FOUND', message: expect.any(String) }]);
    expect(result.started.map((s) => s.parentId)).toEqual([failed]);
    // The broken input fails again, as a new Assembly of its own.
    const again = await detail(result.started[0]!.assemblyId);
    expect(again.status.parent_id).toBe(failed);
    expect(await failure('assemblies:replay', { assemblyId: done1, notifyUrl: 'ftp://nope' })).toMatchObject({ code: 'ASSEMBLY_INVALID_NOTIFY_URL' });
  });

  it('follows a running Assembly live until it ends', async () => {
    const waiting = await api.createAssembly({ instructions: { steps: resize }, expectedUploads: 1 });
    const id = waiting.ok ? waiting.value.assembly_id! : '';
    expect(await call('assemblies:follow', { assemblyId: id })).toEqual({ following: true });
    await api.cancelAssembly(waiting.ok ? waiting.value.assembly_ssl_url! : '');
    const last = await until(async () => updates.filter((u) => u.assemblyId === id && u.status?.ok === 'ASSEMBLY_CANCELED'), (u) => u.length > 0, 10_000);
    expect(last.length).toBeGreaterThan(0);
    expect(await call('assemblies:follow', { assemblyId: id })).toEqual({ following: false });
  });

  it('cancels a running Assembly another client started, and leaves an ended one as it is', async () => {
    const waiting = await api.createAssembly({ instructions: { steps: resize }, expectedUploads: 1 });
    if (!waiting.ok) throw new Error(waiting.error.message);
    const id = waiting.value.assembly_id!;
    expect(await call<AssemblyStatus>('assemblies:cancel', { assemblyId: id })).toMatchObject({ assembly_id: id, ok: 'ASSEMBLY_CANCELED' });
    const record = await api.getAssembly(waiting.value.assembly_ssl_url!);
    expect(record.ok && record.value.ok).toBe('ASSEMBLY_CANCELED');
    // The service would mark even a completed Assembly canceled: core does not ask it to.
    expect(await call<AssemblyStatus>('assemblies:cancel', { assemblyId: done2 })).toMatchObject({ ok: 'ASSEMBLY_COMPLETED' });
    expect((await call<AssemblyDetail>('assemblies:get', { assemblyId: done2 })).status.ok).toBe('ASSEMBLY_COMPLETED');
    expect(await failure('assemblies:cancel', { assemblyId: '0'.repeat(32) })).toMatchObject({ code: 'ASSEMBLY_NOT_FOUND' });
  });

  it('cancels a selection: the running ones are canceled, ended ones left as they are, each refusal reported with its code', async () => {
    const waiting = await Promise.all([1, 2].map(() => api.createAssembly({ instructions: { steps: resize }, expectedUploads: 1 })));
    const ids = waiting.map((w) => (w.ok ? w.value.assembly_id! : ''));
    const unknown = '0'.repeat(32);
    const result = await call<CancelManyResult>('assemblies:cancelMany', { assemblyIds: [...ids, done2, unknown, ids[0]!.toUpperCase()] });
    expect(result.canceled.sort()).toEqual([...ids].sort());
    expect(result.alreadyEnded).toEqual([done2]);
    expect(result.failed).toEqual([{ assemblyId: unknown, code: 'ASSEMBLY_NOT_FOUND', message: expect.any(String) }]);
    for (const id of ids) expect((await call<AssemblyDetail>('assemblies:get', { assemblyId: id })).status.ok).toBe('ASSEMBLY_CANCELED');
    expect((await call<AssemblyDetail>('assemblies:get', { assemblyId: done2 })).status.ok).toBe('ASSEMBLY_COMPLETED');
    expect(await failure('assemblies:cancelMany', { assemblyIds: [] })).toMatchObject({ code: 'INVALID_IPC_REQUEST' });
  });

  it("cancels an Assembly this app is still uploading to through its run: the upload stops, the run says canceled", async () => {
    // 200 MB of real bytes (sparse: instant to make), so the upload is still going when the cancel comes.
    const big = path.join(dir, 'footage.bin');
    const handle = await open(big, 'w');
    await handle.truncate(200 * 1024 * 1024);
    await handle.close();
    // Canceled from the Assembly's detail (by its id) as soon as its first bytes are on the wire.
    let runId = '';
    let canceling: Promise<Result<unknown>> | null = null;
    const stop = core.onEvent((name, payload) => {
      const p = payload as { runId?: string; totals?: { bytesUploaded: number } };
      if (name !== 'run:progress' || canceling || p.runId !== runId || !p.totals?.bytesUploaded) return;
      const run = core.runs.get(runId);
      if (run.ok && run.value.assemblyId) canceling = dispatch(core.handlers, 'assemblies:cancel', { assemblyId: run.value.assemblyId });
    });
    const start = await core.handlers['runs:start']({
      files: [{ handle: core.files.register(big), relativePath: 'footage.bin', name: 'footage.bin', size: 200 * 1024 * 1024, mime: null }],
      instructions: { steps: { ':original': { robot: '/upload/handle' } } },
    });
    if (!start.ok) throw new Error(start.error.message);
    runId = start.value.runId;
    await until(async () => canceling, (c) => c !== null);
    stop();
    const status = await canceling!;
    expect(status.ok && (status.value as AssemblyStatus).ok).toBe('ASSEMBLY_CANCELED');
    const run = await until(async () => core.runs.get(runId), (r) => r.ok && r.value.state === 'ASSEMBLY_CANCELED');
    expect(run.ok && [run.value.state, run.value.files[0]!.state]).toEqual(['ASSEMBLY_CANCELED', 'canceled']);
    expect(run.ok && run.value.totals.bytesUploaded).toBeLessThan(200 * 1024 * 1024);
  }, 60_000);

  it('explains a workspace whose tokens lack assemblies:read with the service code', async () => {
    const ws = await call<Workspace>('workspaces:save', {
      name: 'Templates only',
      endpoint: remote.url,
      authKey: remote.authKey,
      authSecret: remote.authSecret,
      slug: 'templates-only',
      authMode: 'bearer',
      tokenScopes: ['templates:read'],
    });
    expect(await failure('assemblies:list', { workspaceId: ws.id })).toMatchObject({ code: 'INSUFFICIENT_AUTH_SCOPE' });
    await call('workspaces:save', { name: 'Templates only', endpoint: remote.url, authKey: remote.authKey, authSecret: '', slug: 'templates-only', authMode: 'signature', tokenScopes: null, id: ws.id });
    expect((await call<AssemblyListPage>('assemblies:list', { workspaceId: ws.id })).count).toBe(0);
  });
});
