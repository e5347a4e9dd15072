// The draft channels through core's dispatch: a real core with its embedded service, real folders on disk.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DraftRow, DraftSkip, DraftSummary, TransferPlan } from '../../../shared/ipc/transfer-models';
import type { Template } from '../../../shared/ipc/template-models';
import { createCore, type Core } from '../create-core';
import { callCore, testCorePorts } from '../testing/test-core';
import { dispatch } from '../ipc/dispatch';
import { createFileSecretStore } from '../vault/file-secret-store';
import type { DraftFile } from './draft-feed';

let dir = '';
let core: Core;
const updates: { at: number; summary: DraftSummary }[] = [];

const call = <T>(channel: string, request: object): Promise<T> => callCore<T>(core, channel, request);

/** A tree of `folders` × `perFolder` files below `root`, plus OS litter. */
async function makeTree(root: string, folders: number, perFolder: number): Promise<void> {
  for (let d = 0; d < folders; d++) {
    const folder = path.join(root, `day-${String(d).padStart(2, '0')}`);
    await mkdir(folder, { recursive: true });
    await Promise.all(Array.from({ length: perFolder }, (_, i) => writeFile(path.join(folder, `IMG_${String(i).padStart(4, '0')}.jpg`), `bytes ${d}/${i}`)));
  }
  await writeFile(path.join(root, '.DS_Store'), 'litter');
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-drafts-'));
  core = await createCore(
    testCorePorts(dir, {
      secretStore: createFileSecretStore(path.join(dir, 'secrets.json')),
      host: 'electron',
      version: 'test',
    }),
  );
  core.onEvent((name, payload) => {
    if (name === 'draft:updated') updates.push({ at: Date.now(), summary: payload as DraftSummary });
  });
  await makeTree(path.join(dir, 'shoot'), 20, 500);
}, 120_000);

afterAll(async () => {
  await core?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the draft in core', () => {
  it('answers a 10,000-file folder at once, shows files while the walk runs, and announces at most 4 times a second', async () => {
    updates.length = 0;
    const handle = core.files.register(path.join(dir, 'shoot'));
    const first = await call<DraftSummary>('drafts:add', { handles: [handle] });
    expect(first.scanning).toBe(true);
    expect(first.files).toBeLessThan(10_001);
    await core.drafts.idle();
    await expect.poll(() => updates.at(-1)?.summary.scanning, { timeout: 5_000 }).toBe(false);

    // The page saw files arrive before the walk ended.
    expect(updates.some((u) => u.summary.scanning && u.summary.files > 0 && u.summary.files < 10_001)).toBe(true);
    const gaps = updates.slice(1).map((u, i) => u.at - updates[i]!.at);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(200);
    expect(updates.at(-1)!.summary).toMatchObject({ scanning: false, files: 10_001, unreadable: 0, duplicates: 0 });

    // Rows by page, in walk order, named by handle and the relative path the page knows.
    const page = await call<{ total: number; rows: DraftRow[] }>('drafts:rows', { offset: 0, limit: 3 });
    expect(page.total).toBe(10_001);
    expect(page.rows.map((r) => r.relativePath)).toEqual(['shoot/.DS_Store', 'shoot/day-00/IMG_0000.jpg', 'shoot/day-00/IMG_0001.jpg']);
    expect(page.rows[1]).toMatchObject({ handle, name: 'IMG_0000.jpg', mime: 'image/jpeg', size: 'bytes 0/0'.length });
    const thumb = await dispatch(core.handlers, 'files:thumbnail', { handle: page.rows[1]!.handle, relativePath: page.rows[1]!.relativePath });
    expect(thumb.ok).toBe(true);

    // The same folder again: counted as duplicates, not added twice.
    await call('drafts:add', { handles: [handle] });
    await core.drafts.idle();
    expect(await call<DraftSummary>('drafts:get', {})).toMatchObject({ files: 10_001, duplicates: 10_001 });
  }, 60_000);

  it('removes rows by id and lists what could not be read, with the reason', async () => {
    const odd = path.join(dir, 'odd');
    await mkdir(odd, { recursive: true });
    await writeFile(path.join(odd, 'Interview: take 2.jpg'), 'x');
    await writeFile(path.join(odd, 'keep.jpg'), 'y');
    await symlink(path.join(dir, 'gone.jpg'), path.join(odd, 'broken.jpg'));
    await call('drafts:clear', {});
    await call('drafts:add', { handles: [core.files.register(odd)] });
    await core.drafts.idle();
    const summary = await call<DraftSummary>('drafts:get', {});
    expect(summary).toMatchObject({ files: 2, unreadable: 1, scanning: false });
    const skipped = await call<{ total: number; items: DraftSkip[] }>('drafts:skipped', { offset: 0, limit: 10 });
    expect(skipped.items).toEqual([{ relativePath: 'odd/broken.jpg', reason: 'Not found (moved, deleted, or a broken link).' }]);
    const rows = await call<{ rows: DraftRow[] }>('drafts:rows', { offset: 0, limit: 10 });
    expect(rows.rows.map((r) => r.name)).toEqual(['Interview: take 2.jpg', 'keep.jpg']);
    const after = await call<DraftSummary>('drafts:remove', { ids: [rows.rows[0]!.id, 'd999999', 'nonsense'] });
    expect(after).toMatchObject({ files: 1, bytes: 1 });
    expect((await call<{ rows: DraftRow[] }>('drafts:rows', { offset: 0, limit: 10 })).rows.map((r) => r.name)).toEqual(['keep.jpg']);
    expect(after.version).toBeGreaterThan(summary.version);
  });

  it('clear stops a running walk; an unknown handle is refused', async () => {
    await call('drafts:add', { handles: [core.files.register(path.join(dir, 'shoot'))] });
    const cleared = await call<DraftSummary>('drafts:clear', {});
    expect(cleared).toMatchObject({ files: 0, scanning: false });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await call<DraftSummary>('drafts:get', {})).toMatchObject({ files: 0, scanning: false });
    const unknown = await dispatch(core.handlers, 'drafts:add', { handles: ['fh_not-a-handle'] });
    expect(unknown.ok ? null : unknown.error.code).toBe('FILE_HANDLE_UNKNOWN');
  });

  it('take() hands the draft to a transfer, files still arriving included, after the skip rules, and empties it', async () => {
    await call('drafts:clear', {});
    expect(core.drafts.take()).toMatchObject({ ok: false, error: { code: 'DRAFT_EMPTY' } });
    await call('drafts:add', { handles: [core.files.register(path.join(dir, 'shoot'))] });
    const taken = core.drafts.take();
    if (!taken.ok) throw new Error(taken.error.message);
    expect(taken.value.label).toBe('shoot');
    expect(taken.value.skip.skipHidden).toBe(true);
    expect(await call<DraftSummary>('drafts:get', {})).toMatchObject({ files: 0, scanning: false });
    const files: DraftFile[] = [];
    for await (const file of taken.value.files) files.push(file);
    // Every file of the walk, which was only starting at take time; .DS_Store left out by the hidden rule.
    expect(files).toHaveLength(10_000);
    expect(files[0]).toEqual({
      path: path.join(dir, 'shoot', 'day-00', 'IMG_0000.jpg'),
      relativePath: 'shoot/day-00/IMG_0000.jpg',
      name: 'IMG_0000.jpg',
      size: 'bytes 0/0'.length,
      mime: 'image/jpeg',
      mtimeMs: expect.any(Number),
    });
    expect(files.at(-1)!.relativePath).toBe('shoot/day-19/IMG_0499.jpg');
    // The new draft stays empty: the walk fed the transfer, not it.
    expect(await call<DraftSummary>('drafts:get', {})).toMatchObject({ files: 0 });
  }, 60_000);

  it("plans against a Template's limits read from the real service, and warns when the Template cannot be read", async () => {
    await call('drafts:clear', {});
    const big = path.join(dir, 'masters');
    await mkdir(big, { recursive: true });
    await writeFile(path.join(big, 'a.mov'), Buffer.alloc(5_000));
    await writeFile(path.join(big, 'b.jpg'), Buffer.alloc(100));
    await writeFile(path.join(big, 'c.jpg'), Buffer.alloc(100));
    await writeFile(path.join(big, 'Thumbs.db'), 'x');
    await call('drafts:add', { handles: [core.files.register(big)] });
    await core.drafts.idle();
    const steps = { ':original': { robot: '/upload/handle' } };
    const template = await call<Template>('templates:create', { name: 'Limited', content: { steps, auth: { max_size: 1_000, max_number_of_files: 2 } } });

    const plan = await call<TransferPlan>('drafts:plan', { instructions: { template_id: template.id } });
    expect(plan).toMatchObject({ files: 3, bytes: 5_200, skipped: { hidden: 1 }, limits: { maxSize: 1_000, maxNumberOfFiles: 2 }, multipartFiles: 3, tusFiles: 0 });
    expect(plan.warnings.map((w) => [w.code, w.field])).toEqual([
      ['MAX_SIZE_EXCEEDED', 'files'],
      ['MAX_NUMBER_OF_FILES_EXCEEDED', 'batchMaxFiles'],
    ]);
    // Never more than max_number_of_files in one Assembly, nor more than max_size where files allow.
    expect(plan.batches.map((b) => b.files)).toEqual([1, 2]);

    const stepsOnly = await call<TransferPlan>('drafts:plan', { instructions: { steps } });
    expect(stepsOnly).toMatchObject({ limits: { maxSize: null, maxNumberOfFiles: null }, warnings: [], assemblies: 1 });
    const missing = await call<TransferPlan>('drafts:plan', { instructions: { template_id: 'no-such-template' } });
    expect(missing.warnings.map((w) => [w.code, w.field])).toEqual([['TEMPLATE_NOT_FOUND', 'template']]);
    expect(missing.files).toBe(3);

    // The Upload options' own limits win over the Template's (as the service merges them) and say so.
    const own = await call<TransferPlan>('drafts:plan', { instructions: { template_id: template.id, auth: { max_size: 4_000, max_number_of_files: 1 } } });
    expect(own.limits).toEqual({ maxSize: 4_000, maxNumberOfFiles: 1 });
    expect(own.warnings.map((w) => w.message)).toEqual([
      "A file is larger than the Upload options' max_size of 4.0 KB (e.g. masters/a.mov, 5.0 KB): the service would stop its Assembly. Leave it out or raise the limit.",
      "The Upload options' max_number_of_files allows 1 file per Assembly: batches are capped at 1 file.",
    ]);
    expect(own.assemblies).toBe(3);
    const mixed = await call<TransferPlan>('drafts:plan', { instructions: { template_id: template.id, auth: { max_number_of_files: 5 } } });
    expect(mixed.limits).toEqual({ maxSize: 1_000, maxNumberOfFiles: 5 });
    expect(mixed.warnings.map((w) => w.message.split(' max_')[0])).toEqual(['A file is larger than the Template\'s', "The Upload options'"]);
  });

  it('a refused Start keeps the draft: steps the service would refuse, or a Template that is not there, say why with its code', async () => {
    await call('drafts:clear', {});
    const kept = path.join(dir, 'kept');
    await mkdir(kept, { recursive: true });
    await Promise.all(['a.jpg', 'b.jpg', 'c.jpg'].map((name) => writeFile(path.join(kept, name), name)));
    await call('drafts:add', { handles: [core.files.register(kept)] });
    await core.drafts.idle();
    const before = await call<DraftSummary>('drafts:get', {});
    expect(before.files).toBe(3);
    const steps = { ':original': { robot: '/upload/handle' }, resized: { robot: '/image/resize', use: ':original', width: 'wide', heigth: 100 } };
    const refused = await dispatch(core.handlers, 'transfers:start', { instructions: { steps } });
    expect(refused.ok ? null : refused.error).toMatchObject({ code: 'IMAGE_RESIZE_VALIDATION', details: { step: 'resized' } });
    const missing = await dispatch(core.handlers, 'transfers:start', { instructions: { template_id: 'no-such-template' } });
    expect(missing.ok ? null : missing.error.code).toBe('TEMPLATE_NOT_FOUND');
    // Nothing was handed over: the same files, the same draft.
    expect(await call<DraftSummary>('drafts:get', {})).toMatchObject({ files: 3, version: before.version });
    const overview = await call<{ transfers: unknown[] }>('transfers:overview', {});
    expect(overview.transfers).toEqual([]);
  });
});
