import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESETS } from '../../shared/api/presets';
import type { EventName, EventPayload } from '../../shared/ipc/contract';
import type { Run } from '../../shared/ipc/models';
import type { RunUpdate } from '../../shared/ipc/run-update';
import type { Result } from '../../shared/result';
import { createRecordingDesktop } from './ports/recording-desktop';
import { until } from './transfers/testing/engine-fixture';
import { createCore, type Core } from './create-core';
import { testCorePorts } from './testing/test-core';
import { dispatch } from './ipc/dispatch';
import { createKeyringSecretStore } from './vault/keyring-secret-store';

// Core against the real embedded local service on 127.0.0.1:0, real files in a temp dir, the real OS
// keyring when the runner provides one (scripts/with-keyring.sh), and the desktop port recording calls.
let dir = '';
let core: Core;
const opened: string[] = [];
const revealed: string[] = [];
const received: Array<{ name: EventName; payload: EventPayload<EventName>; at: number }> = [];
const resize = PRESETS.find((p) => p.id === 'resize-1024')!;
const storeOriginals = PRESETS.find((p) => p.id === 'store-originals')!;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-core-'));
  core = await createCore(
    testCorePorts(dir, {
      secretStore: createKeyringSecretStore('assemblyline-core-test'),
      desktop: { ...createRecordingDesktop(), openPath: async (p) => void opened.push(p), revealPath: async (p) => void revealed.push(p) },
      version: '9.9.9',
    }),
  );
  core.onEvent((name, payload) => received.push({ name, payload, at: Date.now() }));
}, 60_000);

afterAll(async () => {
  await core?.close();
  await rm(dir, { recursive: true, force: true });
});

const eventsOf = (runId: string, name: EventName) =>
  received.filter((e) => e.name === name && ((e.payload as { runId?: string }).runId ?? (e.payload as RunUpdate).run?.runId) === runId);

async function waitForRun(runId: string, timeoutMs = 60_000): Promise<Run> {
  const settled = await Promise.race([
    core.runs.settled(runId),
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`run ${runId} did not end`)), timeoutMs)),
  ]);
  if (!settled.ok) throw new Error(settled.error.message);
  return settled.value;
}

describe('createCore with the embedded local service', () => {
  it('reports the app, the local service and the vault honestly', async () => {
    const info = await core.handlers['app:info']({});
    expect(info.ok).toBe(true);
    if (!info.ok) return;
    expect(info.value).toMatchObject({ version: '9.9.9', host: 'browser', activeWorkspaceId: 'local', dataDir: path.join(dir, 'data') });
    expect(info.value.localServiceUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(info.value.vault.secure).toBe(Boolean(process.env.DBUS_SESSION_BUS_ADDRESS));
    const list = await core.handlers['workspaces:list']({});
    expect(list.ok && list.value).toEqual([
      expect.objectContaining({ id: 'local', name: 'Local (this computer)', kind: 'local', endpoint: info.value.localServiceUrl, hasSecret: true }),
    ]);
    expect(JSON.stringify(list)).not.toMatch(/"(authSecret|secret)"/i);
  });

  it('scans a folder, runs the resize preset, coalesces progress, and gets 1024 px results', async () => {
    const photos = path.join(dir, 'in', 'photos');
    await mkdir(path.join(photos, 'sub'), { recursive: true });
    const noisy = (w: number, h: number) => sharp({ create: { width: w, height: h, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } });
    await noisy(2400, 1600).jpeg({ quality: 95 }).toFile(path.join(photos, 'a.jpg'));
    await noisy(2048, 2048).jpeg({ quality: 95 }).toFile(path.join(photos, 'b.jpg'));
    await noisy(1800, 1200).png().toFile(path.join(photos, 'sub', 'c.png'));
    await mkdir(path.join(photos, 'docs'));
    await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } }).jpeg().toFile(path.join(photos, 'docs', 'tiny.jpg'));

    // The host registers what the user picked; the page only ever holds the handle.
    const picked = core.files.register(photos);
    const scan = await dispatch(core.handlers, 'files:scan', { handles: [picked] });
    expect(scan.ok).toBe(true);
    if (!scan.ok) return;
    const files = (scan.value as { files: Array<{ relativePath: string; size: number }> }).files;
    expect(files.map((f) => f.relativePath)).toEqual(['photos/a.jpg', 'photos/b.jpg', 'photos/docs/tiny.jpg', 'photos/sub/c.png']);

    const started = Date.now();
    const start = await dispatch(core.handlers, 'runs:start', { files, instructions: { steps: resize.steps } });
    expect(start.ok).toBe(true);
    if (!start.ok) return;
    const run = start.value as Run;
    expect(run.assemblyId).toMatch(/^[0-9a-f]{32}$/);
    const final = await waitForRun(run.runId);
    const elapsed = Date.now() - started;

    expect(final.state).toBe('ASSEMBLY_COMPLETED');
    expect(final.error).toBeNull();
    expect(final.totals).toMatchObject({ filesTotal: 4, filesUploaded: 4, bytesUploaded: final.totals.bytesTotal });
    expect(final.files.every((f) => f.state === 'uploaded')).toBe(true);

    // Coalesced: a few events per second however many bytes and chunks went through.
    const progress = eventsOf(run.runId, 'run:progress');
    const totalBytes = files.reduce((n, f) => n + f.size, 0);
    expect(totalBytes).toBeGreaterThan(5_000_000);
    expect(progress.length).toBeGreaterThan(0);
    // At most one per 250 ms, plus the first at once and the flushes when uploads end and the run ends.
    expect(progress.length).toBeLessThanOrEqual(Math.ceil(elapsed / 250) + 3);
    const last = progress[progress.length - 1]!.payload as { totals: { bytesUploaded: number } };
    expect(last.totals.bytesUploaded).toBe(totalBytes);
    const updates = eventsOf(run.runId, 'run:updated').map((e) => (e.payload as RunUpdate).run.state);
    expect(updates[0]).toBe('CREATING');
    expect(updates).toContain('ASSEMBLY_UPLOADING');
    expect(updates[updates.length - 1]).toBe('ASSEMBLY_COMPLETED');

    const resized = final.status?.results?.resized ?? [];
    expect(resized).toHaveLength(4);
    const big = resized.filter((r) => r.name !== 'tiny.jpg');
    for (const r of big) expect(Math.max(Number(r.meta?.width), Number(r.meta?.height))).toBe(1024);
    expect(resized.find((r) => r.name === 'c.png')?.user_meta?.relative_path).toBe('photos/sub/c.png');

    // Download one result and measure it with sharp; a second download gets a unique name.
    const a = resized.find((r) => r.name === 'a.jpg')!;
    const saved = await core.handlers['results:download']({ runId: run.runId, url: a.ssl_url!, name: 'a.jpg' });
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    expect(path.dirname(saved.value.path)).toBe(path.join(dir, 'downloads'));
    const meta = await sharp(saved.value.path).metadata();
    expect([meta.width, meta.height]).toEqual([1024, 683]);
    const again = await core.handlers['results:download']({ runId: run.runId, url: a.ssl_url!, name: 'a.jpg' });
    expect(again.ok && path.basename(again.value.path)).toBe('a (1).jpg');

    const thumb = await core.handlers['results:thumbnail']({ runId: run.runId, url: a.ssl_url!, size: 160 });
    expect(thumb.ok && thumb.value.dataUrl).toMatch(/^data:image\/jpeg;base64,/);
    const local = await dispatch(core.handlers, 'files:thumbnail', { handle: picked, relativePath: 'photos/a.jpg' });
    expect(local.ok && (local.value as { dataUrl: string }).dataUrl).toMatch(/^data:image\/jpeg;base64,/);

    expect((await core.handlers['shell:openPath']({ path: saved.value.path })).ok).toBe(true);
    expect(opened).toEqual([saved.value.path]);
    const outside = await core.handlers['shell:openPath']({ path: path.join(photos, 'a.jpg') });
    expect(outside.ok || outside.error.code).toBe('PATH_NOT_APP_WRITTEN');
    expect((await core.handlers['shell:revealPath']({ path: path.join(photos, 'a.jpg') })).ok).toBe(false);
    expect((await core.handlers['shell:revealPath']({ path: again.ok ? again.value.path : '' })).ok).toBe(true);
    expect(revealed).toEqual([path.join(dir, 'downloads', 'a (1).jpg')]);

    const listed = await core.handlers['runs:list']({});
    expect(listed.ok && listed.value.map((r) => r.runId)).toContain(run.runId);
  }, 120_000);

  it('cancels a run mid-upload: uploads stop and the Assembly is ASSEMBLY_CANCELED', async () => {
    const bigFile = path.join(dir, 'in', 'big.bin');
    const out = createWriteStream(bigFile);
    for (let i = 0; i < 200; i++) {
      if (!out.write(randomBytes(1024 * 1024))) await once(out, 'drain');
    }
    out.end();
    await once(out, 'finish');
    const size = (await stat(bigFile)).size;
    expect(size).toBe(200 * 1024 * 1024);

    let runId = '';
    let cancel = null as Promise<Result<Run>> | null;
    const stop = core.onEvent((name, payload) => {
      if (name === 'run:progress' && !cancel && runId && (payload as { runId: string }).runId === runId) {
        const p = payload as EventPayload<'run:progress'>;
        if (p.totals.bytesUploaded > 0) cancel = core.handlers['runs:cancel']({ runId });
      }
    });
    const start = await core.handlers['runs:start']({
      files: [{ handle: core.files.register(bigFile), relativePath: 'big.bin', name: 'big.bin', size, mime: null }],
      instructions: { steps: storeOriginals.steps },
    });
    expect(start.ok).toBe(true);
    if (!start.ok) return;
    runId = start.value.runId;
    const final = await waitForRun(runId);
    stop();
    expect(cancel).not.toBeNull();
    const canceled = await cancel!;
    expect(canceled.ok && canceled.value.state).toBe('ASSEMBLY_CANCELED');
    expect(final.state).toBe('ASSEMBLY_CANCELED');
    expect(final.files[0]!.state).toBe('canceled');
    expect(final.totals.bytesUploaded).toBeLessThan(size);
    expect(final.error).toBeNull();
    // The service agrees.
    const fetched = (await fetch(final.status!.assembly_ssl_url!).then((r) => r.json())) as { ok: string };
    expect(fetched.ok).toBe('ASSEMBLY_CANCELED');
    const cancelAgain = await core.handlers['runs:cancel']({ runId });
    expect(cancelAgain.ok && cancelAgain.value.state).toBe('ASSEMBLY_CANCELED');
  }, 120_000);

  it('uploads a folder of 500 files through the bounded queue into one Assembly', async () => {
    const many = path.join(dir, 'in', 'many');
    for (let d = 0; d < 10; d++) {
      await mkdir(path.join(many, `d${d}`), { recursive: true });
      await Promise.all(Array.from({ length: 50 }, (_, i) => writeFile(path.join(many, `d${d}`, `f${i}.txt`), `file ${d}/${i}\n`)));
    }
    const scan = await core.handlers['files:scan']({ handles: [core.files.register(many)] });
    expect(scan.ok && scan.value.files.length).toBe(500);
    if (!scan.ok) return;
    const started = Date.now();
    const start = await core.handlers['runs:start']({ files: scan.value.files, instructions: { steps: storeOriginals.steps } });
    expect(start.ok).toBe(true);
    if (!start.ok) return;
    const final = await waitForRun(start.value.runId, 110_000);
    expect(final.error).toBeNull();
    expect(final.state).toBe('ASSEMBLY_COMPLETED');
    expect(final.totals.filesUploaded).toBe(500);
    expect(final.status?.uploads).toHaveLength(500);
    const progress = eventsOf(start.value.runId, 'run:progress');
    expect(progress.length).toBeLessThanOrEqual(Math.ceil((Date.now() - started) / 250) + 3);
  }, 120_000);

  it('leaves out a file that vanished after the scan, says which and why, and completes the rest', async () => {
    const folder = path.join(dir, 'in', 'vanish');
    await mkdir(folder, { recursive: true });
    await writeFile(path.join(folder, 'stays.txt'), 'still here');
    await writeFile(path.join(folder, 'goes.txt'), 'about to go');
    const scan = await core.handlers['files:scan']({ handles: [core.files.register(folder)] });
    if (!scan.ok) throw new Error(scan.error.message);
    await rm(path.join(folder, 'goes.txt'));
    const start = await core.handlers['runs:start']({ files: scan.value.files, instructions: { steps: storeOriginals.steps } });
    if (!start.ok) throw new Error(start.error.message);
    const final = await waitForRun(start.value.runId);
    // The transfer engine checks each file before the Assembly is created: the unreadable one is left out.
    expect(final.error).toBeNull();
    expect(final.state).toBe('ASSEMBLY_COMPLETED');
    expect(final.status?.uploads?.map((u) => u.name)).toEqual(['stays.txt']);
    await until(() => {
      const r = core.runs.get(start.value.runId);
      return r.ok && r.value.files.every((f) => f.state !== 'queued');
    });
    const run = core.runs.get(start.value.runId);
    if (!run.ok) throw new Error(run.error.message);
    expect(run.value.files.find((f) => f.relativePath === 'vanish/goes.txt')).toMatchObject({ state: 'failed', error: expect.stringMatching(/no longer exists \(ENOENT\)/) });
    expect(run.value.files.find((f) => f.relativePath === 'vanish/stays.txt')?.state).toBe('uploaded');
  }, 60_000);

  it("surfaces the service's error code when the steps are invalid", async () => {
    const start = await dispatch(core.handlers, 'runs:start', {
      files: [],
      instructions: { steps: { nope: { robot: '/does/not/exist' } } },
    });
    expect(start.ok).toBe(true);
    if (!start.ok) return;
    const run = start.value as Run;
    expect(run.error).toMatchObject({ code: 'ASSEMBLY_STEP_UNKNOWN_ROBOT', message: expect.stringContaining('/does/not/exist') });
    expect(run.state).toBe('ASSEMBLY_STEP_UNKNOWN_ROBOT');
    const got = await core.handlers['runs:get']({ runId: run.runId });
    expect(got.ok && got.value.error?.code).toBe('ASSEMBLY_STEP_UNKNOWN_ROBOT');
  });

  it('rejects an unknown channel, a malformed request and an unknown run with clear codes', async () => {
    expect(await dispatch(core.handlers, 'files:delete', {})).toEqual({
      ok: false,
      error: { code: 'UNKNOWN_CHANNEL', message: 'Unknown channel: files:delete' },
    });
    const bad = await dispatch(core.handlers, 'files:scan', { handles: [] });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('INVALID_IPC_REQUEST');
      expect(bad.error.message).toMatch(/^Invalid request for files:scan at handles: /);
    }
    const noSteps = await dispatch(core.handlers, 'runs:start', { files: [], instructions: {} });
    expect(noSteps.ok || noSteps.error.code).toBe('INVALID_IPC_REQUEST');
    const missing = await dispatch(core.handlers, 'runs:get', { runId: 'nope' });
    expect(missing.ok || missing.error.code).toBe('NOT_FOUND');
    const fileUrl = await dispatch(core.handlers, 'results:thumbnail', { url: 'file:///etc/passwd' });
    expect(fileUrl.ok || fileUrl.error.code).toBe('INVALID_IPC_REQUEST');
  });
});
