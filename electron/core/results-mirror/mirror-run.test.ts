import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PRESETS } from '../../../shared/api/presets';
import type { MirrorProgress } from '../../../shared/ipc/mirror-models';
import type { Run } from '../../../shared/ipc/models';
import { createCore, type Core } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { channelCaller } from '../ipc/dispatch-testing';
import { createRecordingDesktop, type RecordingDesktop } from '../ports/recording-desktop';
import { createFileSecretStore } from '../vault/file-secret-store';
import { MirrorErrorCode, mirrorResults } from './mirror-run';
import { matchInputs } from './mirror-plan';

// Core against the real embedded service: a folder tree is resized, then its results are mirrored into a
// temp folder over real HTTP, checked against the records, and listed in a manifest.
let dir = '';
let core: Core;
let desktop: RecordingDesktop;
let run: Run;
const progress: MirrorProgress[] = [];
const { call, failure } = channelCaller(() => core.handlers);
const md5 = async (file: string) => createHash('md5').update(await readFile(file)).digest('hex');
const resize = PRESETS.find((p) => p.id === 'resize-1024')!;

const finished = (mirrorId: string, timeoutMs = 30_000) =>
  new Promise<MirrorProgress>((resolve, reject) => {
    const started = Date.now();
    const look = () => {
      const end = progress.find((p) => p.mirrorId === mirrorId && p.state !== 'running');
      if (end) resolve(end);
      else if (Date.now() - started > timeoutMs) reject(new Error('the mirror did not end'));
      else setTimeout(look, 50);
    };
    look();
  });

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-mirror-'));
  desktop = createRecordingDesktop();
  core = await createCore(
    testCorePorts(dir, {
      secretStore: createFileSecretStore(path.join(dir, 'secrets.json')),
      desktop,
      version: '9.9.9',
    }),
  );
  core.onEvent((name, payload) => {
    if (name === 'results:mirrorProgress') progress.push(payload as MirrorProgress);
  });
  const photos = path.join(dir, 'in', 'shoot');
  await mkdir(path.join(photos, '2024', 'summer'), { recursive: true });
  const img = (w: number, colour: string) => sharp({ create: { width: w, height: 800, channels: 3, background: colour } });
  await img(1600, '#2a7fbf').jpeg().toFile(path.join(photos, 'beach.jpg'));
  await img(1400, '#3c9d4e').png().toFile(path.join(photos, '2024', 'forest.png'));
  await img(1200, '#c0603a').jpeg().toFile(path.join(photos, '2024', 'summer', 'beach.jpg'));
  const picked = core.files.register(photos);
  const scan = await call<{ files: Array<{ relativePath: string }> }>('files:scan', { handles: [picked] });
  run = await call<Run>('runs:start', { files: scan.files, instructions: { steps: resize.steps } });
  const settled = await core.runs.settled(run.runId);
  if (!settled.ok) throw new Error(settled.error.message);
  run = settled.value;
}, 90_000);

afterAll(async () => {
  await core?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('results:mirror against the local service', () => {
  it('asks for a folder first, then mirrors the input tree per step with every hash checked', async () => {
    expect(run.state).toBe('ASSEMBLY_COMPLETED');
    expect(await failure('results:mirror', { scope: { kind: 'run', runId: run.runId }, layout: 'by-step', conflict: 'skip' })).toMatchObject({ code: 'MIRROR_FOLDER_UNSET' });
    const out = path.join(dir, 'out');
    desktop.dialogAnswers.push(null);
    expect(await call('results:chooseMirrorFolder', {})).toMatchObject({ canceled: true, folder: null });
    desktop.dialogAnswers.push(out);
    expect(await call('results:chooseMirrorFolder', {})).toMatchObject({ canceled: false, folder: out });

    const started = await call<{ mirrorId: string; folder: string }>('results:mirror', { scope: { kind: 'run', runId: run.runId }, layout: 'by-step', conflict: 'skip' });
    const end = await finished(started.mirrorId);
    const resized = run.status!.results!.resized!;
    expect(resized).toHaveLength(3);
    const all = Object.values(run.status!.results!).flat();
    expect(end).toMatchObject({ state: 'done', filesTotal: all.length, written: all.length, verified: all.length, skipped: 0, failed: 0, errors: [] });
    expect(end.bytesDone).toBe(end.bytesTotal);
    for (const [rel, name] of [['shoot/beach.jpg', 'beach.jpg'], ['shoot/2024/forest.png', 'forest.png'], ['shoot/2024/summer/beach.jpg', 'beach.jpg']] as const) {
      const record = resized.find((r) => r.user_meta?.relative_path === rel && r.name === name)!;
      expect(await md5(path.join(out, 'resized', rel))).toBe(record.md5hash);
    }
    const files = (await readdir(out, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).map((d) => path.relative(out, path.join(d.parentPath, d.name)));
    expect(files.sort()).toEqual(['resized/shoot/2024/forest.png', 'resized/shoot/2024/summer/beach.jpg', 'resized/shoot/beach.jpg']);
    // The choice is remembered.
    expect(await call('results:mirrorSettings', {})).toMatchObject({ folder: out, layout: 'by-step', conflict: 'skip', canChooseFolder: true });
  });

  it('skip rewrites nothing, keep-both writes (2) copies, overwrite replaces a changed file', async () => {
    const out = path.join(dir, 'out');
    const target = path.join(out, 'resized', 'shoot', '2024', 'forest.png');
    const before = await stat(target);
    const scope = { kind: 'run', runId: run.runId };
    const skip = await finished((await call<{ mirrorId: string }>('results:mirror', { scope, layout: 'by-step', conflict: 'skip' })).mirrorId);
    expect(skip).toMatchObject({ written: 0, failed: 0, skipped: skip.filesTotal });
    expect((await stat(target)).mtimeMs).toBe(before.mtimeMs);

    const both = await finished((await call<{ mirrorId: string }>('results:mirror', { scope, layout: 'by-step', conflict: 'keep-both' })).mirrorId);
    expect(both).toMatchObject({ written: both.filesTotal, skipped: 0 });
    expect(await md5(path.join(out, 'resized', 'shoot', '2024', 'forest (2).png'))).toBe(await md5(target));

    await writeFile(target, 'scribbled over');
    const over = await finished((await call<{ mirrorId: string }>('results:mirror', { scope, layout: 'by-step', conflict: 'overwrite' })).mirrorId);
    expect(over).toMatchObject({ written: over.filesTotal, verified: over.filesTotal });
    expect(await md5(target)).toBe(run.status!.results!.resized!.find((r) => r.name === 'forest.png')!.md5hash);
    // No temp file is left behind anywhere.
    const names = await readdir(out, { recursive: true });
    expect(names.filter((n) => n.endsWith('.part'))).toEqual([]);
  });

  it('a batch of the transfer queue names the same Assembly; an unknown batch is NOT_FOUND', async () => {
    const batch = core.transfers.overview().batches.find((b) => b.runId === run.runId)!;
    const end = await finished((await call<{ mirrorId: string }>('results:mirror', { scope: { kind: 'batch', batchId: batch.id }, layout: 'by-step', conflict: 'skip' })).mirrorId);
    expect(end).toMatchObject({ state: 'done', skipped: 3, written: 0, failed: 0 });
    expect(await failure('results:mirror', { scope: { kind: 'batch', batchId: 'no-such-batch' }, layout: 'by-step', conflict: 'skip' })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await failure('results:mirror', { scope: { kind: 'assemblies', assemblyIds: ['not-an-id'] }, layout: 'by-step', conflict: 'skip' })).toMatchObject({ code: 'INVALID_IPC_REQUEST' });
  });

  it('a download whose bytes do not match the record is removed and reported with its code', async () => {
    const status = structuredClone(run.status!);
    const [first, second] = status.results!.resized!;
    first!.md5hash = '0'.repeat(32);
    second!.size = (second!.size ?? 0) + 1;
    const out = path.join(dir, 'bad');
    const end = await mirrorResults([{ assemblyId: run.assemblyId!, status: { ...status, results: { resized: [first!, second!] } }, inputs: matchInputs(null, status) }], {
      outputDir: out,
      layout: 'flat',
      conflict: 'overwrite',
    });
    expect(end).toMatchObject({ state: 'done', written: 0, failed: 2 });
    expect(end.errors.map((e) => e.code).sort()).toEqual([MirrorErrorCode.checksum, MirrorErrorCode.size].sort());
    expect(await readdir(path.join(out, 'resized'))).toEqual([]);
  });

  it('a canceled mirror stops and leaves no partial file', async () => {
    const abort = new AbortController();
    abort.abort();
    const out = path.join(dir, 'canceled');
    const end = await mirrorResults([{ assemblyId: run.assemblyId!, status: run.status!, inputs: [] }], { outputDir: out, layout: 'flat', conflict: 'skip', signal: abort.signal });
    expect(end).toMatchObject({ state: 'canceled', written: 0 });
    expect(await readdir(out).catch(() => [])).toEqual([]);
  });

  it('exports a manifest with inputs, hashes and where each result was mirrored', async () => {
    const file = path.join(dir, 'manifest.json');
    desktop.dialogAnswers.push(file);
    const exported = await call<{ path: string; rows: number }>('manifest:export', { scope: { kind: 'assemblies', assemblyIds: [run.assemblyId] }, format: 'json' });
    expect(exported.path).toBe(file);
    const json = JSON.parse(await readFile(file, 'utf8')) as { assemblies: Array<{ assemblyId: string; inputs: Array<{ path: string; size: number; md5: string; results: Array<{ step: string; localPath: string | null; localMd5: string | null }> }> }> };
    const inputs = json.assemblies[0]!.inputs;
    expect(inputs.map((i) => i.path).sort()).toEqual(['shoot/2024/forest.png', 'shoot/2024/summer/beach.jpg', 'shoot/beach.jpg']);
    for (const i of inputs) {
      expect(i.md5).toBe(await md5(path.join(dir, 'in', i.path)));
      const resized = i.results.find((r) => r.step === 'resized')!;
      expect(resized.localPath).toBeTruthy();
      expect(await md5(resized.localPath!)).toBe(resized.localMd5);
    }
    desktop.dialogAnswers.push(null);
    expect(await call('manifest:export', { scope: { kind: 'run', runId: run.runId }, format: 'csv' })).toMatchObject({ path: null });
  });
});
