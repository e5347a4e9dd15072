// The assets:* channels through core's dispatch, against a real local service (a remote workspace,
// signed and Bearer) whose asset store was filled before it started: folder levels, cursor pages,
// versions (an older version's own bytes), rename/move/delete with the service's codes, bulk actions in
// chunks of 100, downloads and previews.
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { seedAssets } from '../../../service/testing/asset-seed';
import type { Asset, AssetBulkResult, AssetDetail, AssetListPage } from '../../../shared/ipc/asset-models';
import type { AssemblyDetail } from '../../../shared/ipc/assembly-models';
import type { MediaPreview, Workspace } from '../../../shared/ipc/models';
import { createCore, type Core } from '../create-core';
import { testCorePorts } from '../testing/test-core';
import { channelCaller } from '../ipc/dispatch-testing';
import { createKeyringSecretStore } from '../vault/keyring-secret-store';

let dir = '';
let core: Core;
let remote: LocalService;
let ws = '';
const { call, failure } = channelCaller(() => core.handlers);
const oldBytes = Buffer.from('first version of the notes\n');
const newBytes = Buffer.from('second, longer version of the notes\n');

async function seed(dataDir: string): Promise<void> {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#3a7' } }).png().toBuffer();
  await seedAssets(dataDir, [
    { path: 'photos/2026/a.png', bytes: png, mime: 'image/png', width: 40, height: 30 },
    { path: 'photos/2026/b.png', bytes: png, mime: 'image/png', width: 40, height: 30 },
    { path: 'photos/notes.txt', bytes: oldBytes, mime: 'text/plain' },
    { path: 'photos/notes.txt', bytes: newBytes, mime: 'text/plain' },
    { path: 'docs/readme.txt', bytes: Buffer.from('read me\n'), mime: 'text/plain' },
    ...Array.from({ length: 150 }, (_, i) => ({ path: `bulk/f${String(i).padStart(3, '0')}.txt`, bytes: Buffer.from(`file ${i}\n`), mime: 'text/plain' })),
  ]);
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-assets-'));
  const serviceDir = path.join(dir, 'remote-service');
  await seed(serviceDir);
  remote = await startLocalService({ dataDir: serviceDir });
  core = await createCore(testCorePorts(dir, { secretStore: createKeyringSecretStore('assemblyline-assets-test') }));
  const saved = await call<Workspace>('workspaces:save', { name: 'Stored assets', endpoint: remote.url, authKey: remote.authKey, authSecret: remote.authSecret, slug: 'assets', authMode: 'signature', tokenScopes: null });
  ws = saved.id;
}, 60_000);
afterAll(async () => {
  await core?.close();
  await remote?.close();
  await rm(dir, { recursive: true, force: true });
});

const list = (prefix: string, extra: Record<string, unknown> = {}) => call<AssetListPage>('assets:list', { workspaceId: ws, prefix, delimiter: '/', ...extra });
const byPath = async (assetPath: string): Promise<Asset> => {
  const folder = assetPath.includes('/') ? assetPath.slice(0, assetPath.lastIndexOf('/')) : '';
  const page = await list(folder, { limit: 500 });
  const found = page.assets.find((a) => a.path === assetPath);
  if (!found) throw new Error(`no asset at ${assetPath}`);
  return found;
};

async function waitForAssembly(assemblyId: string): Promise<AssemblyDetail> {
  let detail = await call<AssemblyDetail>('assemblies:get', { workspaceId: ws, assemblyId });
  for (let i = 0; i < 150 && detail.status.ok !== 'ASSEMBLY_COMPLETED' && !detail.status.error; i++) {
    await new Promise((r) => setTimeout(r, 100));
    detail = await call<AssemblyDetail>('assemblies:get', { workspaceId: ws, assemblyId });
  }
  return detail;
}

describe('assets channels against the real service', () => {
  it('lists one folder level: folders of the next level, then the assets directly in it', async () => {
    const root = await list('');
    expect(root.folders).toEqual(['bulk', 'docs', 'photos']);
    expect(root.assets).toEqual([]);
    const photos = await list('photos');
    expect(photos.folders).toEqual(['photos/2026']);
    expect(photos.assets.map((a) => a.path)).toEqual(['photos/notes.txt']);
    expect(photos.workspace).toBe('local');
  });

  it('pages by cursor, path ascending, until next_cursor is null', async () => {
    const first = await list('photos/2026', { limit: 1 });
    expect(first.assets.map((a) => a.filename)).toEqual(['a.png']);
    expect(first.nextCursor).not.toBeNull();
    const second = await list('photos/2026', { limit: 1, cursor: first.nextCursor });
    expect(second.assets.map((a) => a.filename)).toEqual(['b.png']);
    const last = second.nextCursor ? await list('photos/2026', { limit: 1, cursor: second.nextCursor }) : second;
    expect(last.nextCursor).toBeNull();
  });

  it('shows every version, and an older version with its own size, md5 and bytes', async () => {
    const notes = await byPath('photos/notes.txt');
    const detail = await call<AssetDetail>('assets:get', { workspaceId: ws, assetId: notes.assetId });
    expect(detail.versions).toHaveLength(2);
    expect(detail.asset.size).toBe(newBytes.length);
    const older = detail.versions[1]!;
    expect(older.size).toBe(oldBytes.length);
    const oldDetail = await call<AssetDetail>('assets:get', { workspaceId: ws, assetId: notes.assetId, versionId: older.versionId });
    expect(oldDetail.asset).toMatchObject({ versionId: older.versionId, size: oldBytes.length, md5hash: createHash('md5').update(oldBytes).digest('hex') });
    const oldFile = await call<{ path: string }>('assets:download', { workspaceId: ws, assetId: notes.assetId, versionId: older.versionId });
    expect(await readFile(oldFile.path)).toEqual(oldBytes);
    expect(path.basename(oldFile.path)).toBe('notes.txt');
    const current = await call<{ path: string }>('assets:download', { workspaceId: ws, assetId: notes.assetId });
    expect(await readFile(current.path)).toEqual(newBytes);
    expect(path.basename(current.path)).toBe('notes (1).txt');
    // A version that is not this asset's is an error, never the current bytes.
    const wrong = detail.versions[0]!.versionId === 'AAAAAAAAAAAAAAAAAAAAAA' ? 'BBBBBBBBBBBBBBBBBBBBBA' : 'AAAAAAAAAAAAAAAAAAAAAA';
    expect(await failure('assets:get', { workspaceId: ws, assetId: notes.assetId, versionId: wrong })).toMatchObject({ code: 'DAM_ASSET_VERSION_NOT_FOUND' });
    expect(await failure('assets:download', { workspaceId: ws, assetId: notes.assetId, versionId: wrong })).toMatchObject({ code: 'DAM_ASSET_VERSION_NOT_FOUND' });
  });

  it('previews images, and gives other types no preview', async () => {
    const a = await byPath('photos/2026/a.png');
    const preview = await call<MediaPreview>('assets:thumbnail', { workspaceId: ws, assetId: a.assetId, versionId: a.versionId, size: 32 });
    expect(preview.kind).toBe('image');
    const jpeg = Buffer.from(preview.dataUrl!.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
    expect((await sharp(jpeg).metadata()).width).toBe(32);
    const notes = await byPath('photos/notes.txt');
    expect(await call<MediaPreview>('assets:thumbnail', { workspaceId: ws, assetId: notes.assetId, size: 32 })).toEqual({ kind: 'other', dataUrl: null, duration: null });
  });

  it('renames and moves with the service rules: a bad name and a taken path keep their codes', async () => {
    const readme = await byPath('docs/readme.txt');
    expect(await failure('assets:rename', { workspaceId: ws, assetId: readme.assetId, filename: 'a/b.txt' })).toMatchObject({ code: 'DAM_INVALID_FILENAME', httpCode: 400 });
    const renamed = await call<Asset>('assets:rename', { workspaceId: ws, assetId: readme.assetId, filename: 'README.txt' });
    expect(renamed).toMatchObject({ assetId: readme.assetId, path: 'docs/README.txt' });
    const b = await byPath('photos/2026/b.png');
    await call<Asset>('assets:rename', { workspaceId: ws, assetId: b.assetId, filename: 'README.txt' });
    expect(await failure('assets:move', { workspaceId: ws, assetId: b.assetId, destination: 'docs' })).toMatchObject({ code: 'DAM_ASSET_EXISTS', httpCode: 409 });
    await call<Asset>('assets:rename', { workspaceId: ws, assetId: b.assetId, filename: 'b.png' });
    expect(await failure('assets:get', { workspaceId: ws, assetId: 'zzzzzzzzzzzzzzzzzzzzzA' })).toMatchObject({ code: 'DAM_ASSET_NOT_FOUND', httpCode: 404 });
  });

  it('moves a whole folder into another as a subfolder, keeping the ids', async () => {
    const before = (await list('photos/2026')).assets;
    const result = await call<AssetBulkResult>('assets:bulkMove', { workspaceId: ws, folders: ['photos/2026'], destination: 'archive' });
    expect(result).toEqual({ done: 2, failed: [] });
    const after = await list('archive/2026');
    expect(after.assets.map((a) => a.assetId).sort()).toEqual(before.map((a) => a.assetId).sort());
    expect((await list('photos')).folders).toEqual([]);
    expect(await failure('assets:bulkMove', { workspaceId: ws, folders: ['archive'], destination: 'archive/2026' })).toMatchObject({ code: 'DAM_INVALID_PARAMS' });
  });

  it('starts an Assembly on stored assets ("Use as input"), which imports them and runs the steps', async () => {
    const assets = (await list('archive/2026')).assets;
    const { assemblyId } = await call<{ assemblyId: string }>('assets:useAsInput', {
      workspaceId: ws,
      assetIds: assets.map((a) => a.assetId),
      steps: { small: { robot: '/image/resize', use: ':original', width: 10, height: 10, result: true } },
    });
    await waitForAssembly(assemblyId);
    const detail = await waitForAssembly(assemblyId);
    expect(detail.status.ok).toBe('ASSEMBLY_COMPLETED');
    expect((detail.status.results?.small ?? []).map((f) => f.name).sort()).toEqual(['a.png', 'b.png']);
    // A Template's steps: its `:original` gets no uploads, its steps read the import.
    const viaTemplate = await call<{ assemblyId: string }>('assets:useAsInput', { workspaceId: ws, assetIds: [assets[0]!.assetId], templateId: 'builtin/image-resize@0.0.2' });
    const templated = await waitForAssembly(viaTemplate.assemblyId);
    expect(templated.status.ok).toBe('ASSEMBLY_COMPLETED');
    expect(Object.values(templated.status.results ?? {}).flat().length).toBeGreaterThan(0);
    expect(await failure('assets:useAsInput', { workspaceId: ws, assetIds: assets.map((a) => a.assetId) })).toMatchObject({ code: 'INVALID_IPC_REQUEST' });
  });

  it('deletes a folder of 150 assets in requests of 100', async () => {
    const result = await call<AssetBulkResult>('assets:bulkDelete', { workspaceId: ws, folders: ['bulk'] });
    expect(result).toEqual({ done: 150, failed: [] });
    expect((await list('')).folders).not.toContain('bulk');
  });

  it('works over Bearer tokens with dam:read/write, and explains a token without them (assemblies scopes do not open stored assets)', async () => {
    const bearer = await call<Workspace>('workspaces:save', { name: 'Assets by token', endpoint: remote.url, authKey: remote.authKey, authSecret: remote.authSecret, slug: 'assets-token', authMode: 'bearer', tokenScopes: ['dam:read', 'dam:write'] });
    expect((await call<AssetListPage>('assets:list', { workspaceId: bearer.id, prefix: 'archive', delimiter: '/' })).folders).toEqual(['archive/2026']);
    const a = (await call<AssetListPage>('assets:list', { workspaceId: bearer.id, prefix: 'archive/2026' })).assets[0]!;
    const file = await call<{ path: string }>('assets:download', { workspaceId: bearer.id, assetId: a.assetId });
    expect((await sharp(await readFile(file.path)).metadata()).width).toBe(40);
    const assembliesOnly = await call<Workspace>('workspaces:save', { name: 'Assemblies only', endpoint: remote.url, authKey: remote.authKey, authSecret: remote.authSecret, slug: 'assemblies-only', authMode: 'bearer', tokenScopes: ['assemblies:read', 'assemblies:write'] });
    const refused = await failure('assets:list', { workspaceId: assembliesOnly.id, prefix: '' });
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_AUTH_SCOPE' });
    expect(refused?.message).toContain('dam:read');
  });
});
