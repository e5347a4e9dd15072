// Stored assets over real HTTP on the local service: /transloadit/store (receipts, conflict strategies,
// versions), every /dam/assets endpoint, parameter and error code, /transloadit/import feeding a resize,
// and a plain signed client (the vendor's signParamsSync and fetch, not our core).
import { signParamsSync } from '@transloadit/utils/node';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { thumbHashToApproximateAspectRatio } from 'thumbhash';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams } from '../auth/signature';
import { startLocalService } from '../index';
import { buildForm, inOneHourIso, jpeg, png, postAssembly, startFixture, tempDir, waitForEnd, type Fixture } from '../testing/service-fixture';

let fx: Fixture;
let nonce = 0;
beforeAll(async () => {
  fx = await startFixture();
});
afterAll(() => fx.stop());

const ID = /^[A-Za-z0-9_-]{21}[AQgw]$/;
type Body = Record<string, unknown>;
type Asset = Body & { asset_id: string; version_id: string; path: string; size: number; md5hash: string; sha256: string };
const md5 = (b: Buffer): string => createHash('md5').update(b).digest('hex');
const sha256 = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

/** A signed request as the SDKs send it: params in the query for GET, a urlencoded body otherwise. */
async function call(method: string, path: string, extra: Body = {}, opts: { sign?: boolean } = {}): Promise<{ status: number; body: Body }> {
  const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: inOneHourIso() }, nonce: `a-${++nonce}`, ...extra });
  const fields: Record<string, string> = opts.sign === false ? { params } : { params, signature: signParams(params, fx.service.authSecret, 'sha384') };
  const url = new URL(path, fx.service.url);
  let body: URLSearchParams | undefined;
  if (method === 'GET') for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
  else body = new URLSearchParams(fields);
  const res = await fetch(url, { method, body });
  return { status: res.status, body: (await res.json()) as Body };
}

/** The bytes of GET …/content, signed like any read. */
async function content(assetId: string, versionId?: string): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: inOneHourIso() }, ...(versionId ? { version_id: versionId } : {}) });
  const url = new URL(`/dam/assets/${assetId}/content`, fx.service.url);
  url.searchParams.set('params', params);
  url.searchParams.set('signature', signParams(params, fx.service.authSecret, 'sha384'));
  const res = await fetch(url);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

/** Runs an Assembly that stores its uploads with `store` params; the finished status. */
async function storeFiles(files: { name: string; data: Buffer }[], store: Body = {}, fields: Body = {}): Promise<Body> {
  const params = {
    auth: { key: fx.service.authKey, expires: inOneHourIso() },
    fields,
    steps: { ':original': { robot: '/upload/handle' }, stored: { robot: '/transloadit/store', use: ':original', ...store } },
  };
  const { body } = await postAssembly(fx.service.url, buildForm({ params, secret: fx.service.authSecret, files: files.map((f) => ({ field: 'file', ...f })) }));
  // Instructions refused up front answer the POST itself.
  return body.error ? body : waitForEnd(String(body.assembly_ssl_url));
}

const stored = (status: Body): Asset[] => ((status.results as Record<string, Asset[]>).stored ?? []);

async function storeOne(name: string, data: Buffer, store: Body = {}): Promise<Asset> {
  const status = await storeFiles([{ name, data }], store);
  expect(status.ok, JSON.stringify(status)).toBe('ASSEMBLY_COMPLETED');
  return stored(status)[0]!;
}

describe('/transloadit/store', () => {
  it('keeps each file as an asset with the receipt fields, hashes, size after EXIF orientation and a thumbhash', async () => {
    const photo = await sharp(await jpeg(300, 120)).withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const clear = await png(64, 32);
    const status = await storeFiles([{ name: 'rotated.jpg', data: photo }, { name: 'clear.png', data: clear }], { path: 'receipts/${file.name}' });
    expect(status.ok).toBe('ASSEMBLY_COMPLETED');
    const [a, b] = stored(status);
    expect(a).toMatchObject({ workspace: 'local', path: 'receipts/rotated.jpg', size: photo.length, md5hash: md5(photo), sha256: sha256(photo), asset_version: 1 });
    expect(a!.asset_id).toMatch(ID);
    expect(a!.version_id).toMatch(ID);
    expect(b).toMatchObject({ path: 'receipts/clear.png', has_alpha: true, sha256: sha256(clear) });

    // Uploads carry sha256, has_alpha and thumbhash too (file records everywhere).
    const upload = (status.uploads as Body[])[0]!;
    expect(upload).toMatchObject({ md5hash: md5(photo), sha256: sha256(photo), has_alpha: false });

    const read = await call('GET', `/dam/assets/${a!.asset_id}`);
    expect(read.status).toBe(200);
    const asset = read.body.asset as Asset;
    expect(read.body).toMatchObject({ ok: 'DAM_ASSET_FOUND', workspace: 'local' });
    // Displayed size: orientation 6 turns 300×120 into 120×300.
    expect(asset).toMatchObject({ asset_id: a!.asset_id, version_id: a!.version_id, width: 120, height: 300, has_alpha: false, mime: 'image/jpeg', filename: 'rotated.jpg', folder_id: 'receipts', deleted_at: null });
    const ratio = thumbHashToApproximateAspectRatio(Buffer.from(String(asset.thumbhash), 'base64'));
    expect(ratio).toBeGreaterThan(0.3);
    expect(ratio).toBeLessThan(0.5);
    expect((await content(a!.asset_id)).bytes.equals(photo)).toBe(true);
  });

  it('resolves Assembly variables in path, and refuses a path that is not one', async () => {
    const data = await jpeg(20, 20);
    const ok = await storeFiles([{ name: 'x.jpg', data }], { path: '${fields.album}/${file.basename}-cover.${file.ext}' }, { album: 'vars' });
    expect(stored(ok)[0]!.path).toBe('vars/x-cover.jpg');
    const bad = await storeFiles([{ name: 'x.jpg', data }], { path: 'vars/../x.jpg' });
    expect(bad.error).toBe('TRANSLOADIT_STORE_VALIDATION');
    const badStrategy = await storeFiles([{ name: 'x.jpg', data }], { conflict_strategy: 'merge' });
    expect(badStrategy.error).toBe('TRANSLOADIT_STORE_VALIDATION');
  });

  it('conflict_strategy: error fails the step, rename stores beside it, overwrite makes a new version whose old bytes stay readable', async () => {
    const first = await jpeg(40, 40, '#ff0000');
    const second = await jpeg(50, 50, '#00ff00');
    const original = await storeOne('same.jpg', first, { path: 'conflict/same.jpg' });

    const refused = await storeFiles([{ name: 'same.jpg', data: second }], { path: 'conflict/same.jpg' });
    expect(refused.error).toBe('DAM_ASSET_EXISTS');

    const renamed = await storeOne('same.jpg', second, { path: 'conflict/same.jpg', conflict_strategy: 'rename' });
    expect(renamed.path).toBe('conflict/same (1).jpg');
    expect(renamed.asset_id).not.toBe(original.asset_id);
    expect((await storeOne('same.jpg', second, { path: 'conflict/same.jpg', conflict_strategy: 'rename' })).path).toBe('conflict/same (2).jpg');

    const over = await storeOne('same.jpg', second, { path: 'conflict/same.jpg', conflict_strategy: 'overwrite' });
    expect(over).toMatchObject({ asset_id: original.asset_id, path: 'conflict/same.jpg', asset_version: 2 });
    expect(over.version_id).not.toBe(original.version_id);

    const now = (await call('GET', `/dam/assets/${original.asset_id}`)).body.asset as Asset & { versions: Body[] };
    expect(now).toMatchObject({ version_id: over.version_id, size: second.length, width: 50 });
    expect(now.versions.map((v) => v.version_id)).toEqual([over.version_id, original.version_id]);
    expect(now.versions[1]).toMatchObject({ size: first.length, md5hash: md5(first), sha256: sha256(first), width: 40, height: 40, mime: 'image/jpeg' });

    const old = await call('GET', `/dam/assets/${original.asset_id}`, { version_id: original.version_id });
    expect(old.body.asset).toMatchObject({ version_id: original.version_id, size: first.length, md5hash: md5(first), asset_version: 1 });
    expect((await content(original.asset_id, original.version_id)).bytes.equals(first)).toBe(true);
    expect((await content(original.asset_id)).bytes.equals(second)).toBe(true);
    // A version id of the right form that does not exist is not found; one that cannot be a version id is a
    // bad parameter (issue 25: it was 404 "version not found").
    const missing = await call('GET', `/dam/assets/${original.asset_id}`, { version_id: 'AAAAAAAAAAAAAAAAAAAAAA' });
    expect([missing.status, missing.body.error]).toEqual([404, 'DAM_ASSET_VERSION_NOT_FOUND']);
    for (const bad of ['latest', 'x'.repeat(22), `${original.version_id}x`, '../../etc']) {
      const res = await call('GET', `/dam/assets/${original.asset_id}`, { version_id: bad });
      expect([res.status, res.body.error], bad).toEqual([400, 'DAM_INVALID_PARAMS']);
      expect(String(res.body.message)).toContain('version_id must be 22 characters');
    }
  });
});

describe('GET /dam/assets', () => {
  const paths = ['list/a.jpg', 'list/b/c.jpg', 'list/b/d/e.jpg', 'list/bz.jpg', 'list/f.jpg', 'lister.jpg'];
  beforeAll(async () => {
    const data = await jpeg(8, 8);
    for (const path of paths) await storeOne('x.jpg', data, { path });
  });

  const list = async (params: Body) => call('GET', '/dam/assets', params);
  const pathsOf = (body: Body): string[] => (body.assets as Asset[]).map((a) => a.path);

  it('lists by prefix in path order, every depth, with the workspace', async () => {
    const res = await list({ prefix: 'list/' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: 'DAM_ASSETS_LISTED', workspace: 'local', next_cursor: null });
    expect(pathsOf(res.body)).toEqual(paths.filter((p) => p.startsWith('list/')));
    expect(pathsOf((await list({ prefix: 'list' })).body)).toEqual(paths);
  });

  it('pages with an opaque cursor until next_cursor is null', async () => {
    const seen: string[] = [];
    let cursor: unknown = undefined;
    let pages = 0;
    do {
      const res = await list({ prefix: 'list', limit: 2, ...(cursor ? { cursor } : {}) });
      expect((res.body.assets as Asset[]).length).toBeLessThanOrEqual(2);
      seen.push(...pathsOf(res.body));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor !== null);
    expect(seen).toEqual(paths);
    expect(pages).toBe(3);
  });

  it('with delimiter "/" gives one folder level: the next folders and the assets directly in the prefix', async () => {
    const top = await list({ prefix: 'list/', delimiter: '/' });
    expect(top.body.folders).toEqual(['list/b/']);
    expect(pathsOf(top.body)).toEqual(['list/a.jpg', 'list/bz.jpg', 'list/f.jpg']);
    const inner = await list({ prefix: 'list/b/', delimiter: '/' });
    expect(inner.body.folders).toEqual(['list/b/d/']);
    expect(pathsOf(inner.body)).toEqual(['list/b/c.jpg']);
    const root = await list({ delimiter: '/' });
    expect(root.body.folders).toEqual(expect.arrayContaining(['list/', 'receipts/', 'conflict/']));
    expect(pathsOf(root.body)).toContain('lister.jpg');
    expect(pathsOf(root.body).every((p) => !p.includes('/'))).toBe(true);
  });

  it('refuses a bad limit, cursor or delimiter with DAM_INVALID_PARAMS, and an unsigned request', async () => {
    for (const bad of [{ limit: 0 }, { limit: 501 }, { limit: 'ten' }, { limit: 2.5 }, { cursor: 'not-a-cursor' }, { delimiter: ',' }, { prefix: 7 }]) {
      const res = await list(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error, JSON.stringify(bad)).toBe('DAM_INVALID_PARAMS');
    }
    expect((await list({ limit: 500 })).status).toBe(200);
    const unsigned = await call('GET', '/dam/assets', {}, { sign: false });
    expect([unsigned.status, unsigned.body.error]).toEqual([401, 'NO_SIGNATURE_FIELD']);
  });
});

describe('GET /dam/assets/{id}', () => {
  it('answers DAM_ASSET_NOT_FOUND for unknown or malformed ids and DAM_ASSET_VERSION_NOT_FOUND for a version that is not this asset\'s', async () => {
    const a = await storeOne('v.jpg', await jpeg(10, 10), { path: 'reads/v.jpg' });
    const b = await storeOne('w.jpg', await jpeg(11, 11), { path: 'reads/w.jpg' });
    for (const id of ['AAAAAAAAAAAAAAAAAAAAAA', 'not-an-id', `${a.asset_id.slice(0, 21)}B`]) {
      const res = await call('GET', `/dam/assets/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('DAM_ASSET_NOT_FOUND');
      expect((await content(id)).status).toBe(404);
    }
    for (const version of [b.version_id, 'AAAAAAAAAAAAAAAAAAAAAA']) {
      const res = await call('GET', `/dam/assets/${a.asset_id}`, { version_id: version });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe('DAM_ASSET_VERSION_NOT_FOUND');
      expect((await content(a.asset_id, version)).status).toBe(404);
    }
  });

  it('downloads content as an attachment with the filename, Content-Type and length', async () => {
    const data = await jpeg(12, 12);
    const a = await storeOne('dl.jpg', data, { path: 'reads/Down load.jpg' });
    const res = await content(a.asset_id);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
    expect(res.headers.get('content-length')).toBe(String(data.length));
    expect(res.headers.get('content-disposition')).toBe("attachment; filename*=UTF-8''Down%20load.jpg");
  });
});

describe('PATCH /dam/assets/{id}', () => {
  it('renames and moves, keeping asset_id, versions and bytes', async () => {
    const v1 = await jpeg(30, 30, '#111111');
    const v2 = await jpeg(31, 31, '#222222');
    const a = await storeOne('m.jpg', v1, { path: 'moves/m.jpg' });
    await storeOne('m.jpg', v2, { path: 'moves/m.jpg', conflict_strategy: 'overwrite' });

    const renamed = await call('PATCH', `/dam/assets/${a.asset_id}`, { filename: 'renamed.jpg' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ ok: 'DAM_ASSET_MOVED', asset_id: a.asset_id, path: 'moves/renamed.jpg', filename: 'renamed.jpg', folder_id: 'moves', deleted_at: null });
    expect(typeof renamed.body.updated_at).toBe('string');

    const moved = await call('PATCH', `/dam/assets/${a.asset_id}`, { destination_folder_id: 'moves/deeper/still' });
    expect(moved.body).toMatchObject({ path: 'moves/deeper/still/renamed.jpg', folder_id: 'moves/deeper/still' });
    const both = await call('PATCH', `/dam/assets/${a.asset_id}`, { destination_folder_id: null, filename: 'at-root.jpg' });
    expect(both.body).toMatchObject({ path: 'at-root.jpg', folder_id: null, asset: { asset_id: a.asset_id, path: 'at-root.jpg' } });

    expect((await content(a.asset_id)).bytes.equals(v2)).toBe(true);
    expect((await content(a.asset_id, a.version_id)).bytes.equals(v1)).toBe(true);
    // The old path is free, and the folders it left are gone from the folder listing.
    const folders = (await call('GET', '/dam/assets', { prefix: 'moves/', delimiter: '/' })).body.folders;
    expect(folders).toEqual([]);
  });

  it('refuses bad filenames (DAM_INVALID_FILENAME), no change asked (DAM_INVALID_PARAMS) and a taken path (DAM_ASSET_EXISTS)', async () => {
    const a = await storeOne('n.jpg', await jpeg(9, 9), { path: 'names/n.jpg' });
    await storeOne('taken.jpg', await jpeg(9, 9), { path: 'names/taken.jpg' });
    for (const filename of ['a/b', 'a\\b', '..', '.', '', ' padded', 'padded ', 'tab\there', 'x'.repeat(256), 42]) {
      const res = await call('PATCH', `/dam/assets/${a.asset_id}`, { filename });
      expect(res.status, JSON.stringify(filename)).toBe(400);
      expect(res.body.error, JSON.stringify(filename)).toBe('DAM_INVALID_FILENAME');
    }
    expect((await call('PATCH', `/dam/assets/${a.asset_id}`, { filename: 'x'.repeat(255) })).status).toBe(200);
    const none = await call('PATCH', `/dam/assets/${a.asset_id}`, {});
    expect([none.status, none.body.error]).toEqual([400, 'DAM_INVALID_PARAMS']);
    for (const folder of ['a/../b', '', 5, '/abs']) {
      const res = await call('PATCH', `/dam/assets/${a.asset_id}`, { destination_folder_id: folder });
      expect([res.status, res.body.error], JSON.stringify(folder)).toEqual([400, 'DAM_INVALID_PARAMS']);
    }
    const onto = await call('PATCH', `/dam/assets/${a.asset_id}`, { filename: 'taken.jpg', destination_folder_id: 'names' });
    expect([onto.status, onto.body.error]).toEqual([409, 'DAM_ASSET_EXISTS']);
    const unknown = await call('PATCH', '/dam/assets/AAAAAAAAAAAAAAAAAAAAAA', { filename: 'z.jpg' });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'DAM_ASSET_NOT_FOUND']);
  });
});

describe('DELETE /dam/assets/{id}', () => {
  it('deletes: the asset, its versions and its bytes are gone, and the path is free again', async () => {
    const data = await jpeg(13, 17, '#abcdef');
    const a = await storeOne('gone.jpg', data, { path: 'deletes/gone.jpg' });
    const blob = join(fx.dataDir, 'assets', 'blobs', a.sha256.slice(0, 2), a.sha256);
    expect(existsSync(blob)).toBe(true);
    const res = await call('DELETE', `/dam/assets/${a.asset_id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ ok: 'DAM_ASSET_DELETED', asset_id: a.asset_id });
    expect(new Date(String(res.body.deleted_at)).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(existsSync(blob)).toBe(false);

    expect((await call('GET', `/dam/assets/${a.asset_id}`)).body.error).toBe('DAM_ASSET_NOT_FOUND');
    // A deleted version is an error, never some other bytes.
    const version = await call('GET', `/dam/assets/${a.asset_id}`, { version_id: a.version_id });
    expect([version.status, version.body.error]).toEqual([404, 'DAM_ASSET_NOT_FOUND']);
    expect((await content(a.asset_id, a.version_id)).status).toBe(404);
    expect((await call('DELETE', `/dam/assets/${a.asset_id}`)).body.error).toBe('DAM_ASSET_NOT_FOUND');
    expect(((await call('GET', '/dam/assets', { prefix: 'deletes/' })).body.assets as Asset[]).length).toBe(0);

    const again = await storeOne('gone.jpg', data, { path: 'deletes/gone.jpg' });
    expect(again.asset_id).not.toBe(a.asset_id);
    expect((await content(again.asset_id)).bytes.equals(data)).toBe(true);
  });
});

describe('bulk move and bulk delete', () => {
  it('checks asset_ids: 1 to 100 unique ids of the pattern (DAM_INVALID_ASSET_IDS)', async () => {
    const a = await storeOne('b.jpg', await jpeg(5, 5), { path: 'bulk-ids/b.jpg' });
    const many = Array.from({ length: 101 }, (_, i) => `${String(i).padStart(21, 'A')}A`);
    for (const path of ['/dam/assets/bulk_move', '/dam/assets/bulk_delete']) {
      for (const asset_ids of [[], many, [a.asset_id, a.asset_id], ['nope'], 'single', undefined]) {
        const res = await call('POST', path, { asset_ids, destination_folder_id: null });
        expect([res.status, res.body.error], `${path} ${JSON.stringify(asset_ids)?.slice(0, 40)}`).toEqual([400, 'DAM_INVALID_ASSET_IDS']);
      }
    }
    const noFolder = await call('POST', '/dam/assets/bulk_move', { asset_ids: [a.asset_id] });
    expect([noFolder.status, noFolder.body.error]).toEqual([400, 'DAM_INVALID_PARAMS']);
  });

  it('moves up to 100 assets at once, all or none', async () => {
    const data = await jpeg(6, 6);
    const made: Asset[] = [];
    for (const path of ['bulk/one.jpg', 'bulk/sub/two.jpg', 'elsewhere/one.jpg']) made.push(await storeOne('x.jpg', data, { path }));
    const [one, two, otherOne] = made as [Asset, Asset, Asset];

    const unknown = await call('POST', '/dam/assets/bulk_move', { asset_ids: [one.asset_id, 'AAAAAAAAAAAAAAAAAAAAAA'], destination_folder_id: 'bulk/target' });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'DAM_ASSET_NOT_FOUND']);
    // Two files named one.jpg cannot land in one folder: nothing moves.
    const clash = await call('POST', '/dam/assets/bulk_move', { asset_ids: [one.asset_id, otherOne.asset_id], destination_folder_id: 'bulk/target' });
    expect([clash.status, clash.body.error]).toEqual([409, 'DAM_ASSET_EXISTS']);
    expect(((await call('GET', `/dam/assets/${one.asset_id}`)).body.asset as Asset).path).toBe('bulk/one.jpg');

    const moved = await call('POST', '/dam/assets/bulk_move', { asset_ids: [one.asset_id, two.asset_id], destination_folder_id: 'bulk/target' });
    expect(moved.status).toBe(200);
    // The spec's DAM_ASSET_MOVED shape: its fields for the (first) asset moved, every one in `assets`.
    expect(moved.body).toMatchObject({ ok: 'DAM_ASSET_MOVED', asset_id: one.asset_id, path: 'bulk/target/one.jpg', filename: 'one.jpg', folder_id: 'bulk/target', deleted_at: null });
    for (const key of ['asset', 'asset_id', 'deleted_at', 'filename', 'folder_id', 'message', 'ok', 'path', 'updated_at']) expect(moved.body).toHaveProperty(key);
    expect((moved.body.assets as Asset[]).map((a) => [a.asset_id, a.path])).toEqual([[one.asset_id, 'bulk/target/one.jpg'], [two.asset_id, 'bulk/target/two.jpg']]);
    const listing = await call('GET', '/dam/assets', { prefix: 'bulk/', delimiter: '/' });
    expect(listing.body.folders).toEqual(['bulk/target/']);

    const deleted = await call('POST', '/dam/assets/bulk_delete', { asset_ids: [one.asset_id, two.asset_id] });
    expect(deleted.status).toBe(200);
    expect(deleted.body.ok).toBe('DAM_ASSETS_DELETED');
    expect((deleted.body.assets as Body[]).map((a) => a.asset_id)).toEqual([one.asset_id, two.asset_id]);
    expect((deleted.body.assets as Body[]).every((a) => typeof a.deleted_at === 'string')).toBe(true);
    expect(((await call('GET', '/dam/assets', { prefix: 'bulk/' })).body.assets as Asset[]).length).toBe(0);
    const twice = await call('POST', '/dam/assets/bulk_delete', { asset_ids: [one.asset_id, otherOne.asset_id] });
    expect([twice.status, twice.body.error]).toEqual([404, 'DAM_ASSET_NOT_FOUND']);
    expect((await call('GET', `/dam/assets/${otherOne.asset_id}`)).status).toBe(200);
  });
});

describe('scopes', () => {
  it('reads with dam:read, writes need dam:write (INSUFFICIENT_AUTH_SCOPE)', async () => {
    const a = await storeOne('s.jpg', await jpeg(7, 7), { path: 'scopes/s.jpg' });
    const basic = `Basic ${Buffer.from(`${fx.service.authKey}:${fx.service.authSecret}`).toString('base64')}`;
    const minted = await fetch(`${fx.service.url}/token`, { method: 'POST', headers: { Authorization: basic }, body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'dam:read' }) });
    const token = String(((await minted.json()) as Body).access_token);
    const headers = { Authorization: `Bearer ${token}` };
    const read = await fetch(`${fx.service.url}/dam/assets/${a.asset_id}?params=${encodeURIComponent('{}')}`, { headers });
    expect(read.status).toBe(200);
    const write = await fetch(`${fx.service.url}/dam/assets/${a.asset_id}`, { method: 'DELETE', headers, body: new URLSearchParams({ params: '{}' }) });
    expect(write.status).toBe(403);
    expect(((await write.json()) as Body).error).toBe('INSUFFICIENT_AUTH_SCOPE');
  });
});

describe('/transloadit/import', () => {
  it('counts imported files toward auth.max_number_of_files ("uploaded or imported"), as uploads are counted', async () => {
    const one = await storeOne('one.jpg', await jpeg(20, 20), { path: 'limits/one.jpg' });
    const two = await storeOne('two.jpg', await jpeg(30, 30), { path: 'limits/two.jpg' });
    const steps = { imported: { robot: '/transloadit/import', asset_ids: [one.asset_id, two.asset_id] } };
    const run = async (max: number) =>
      waitForEnd(String((await postAssembly(fx.service.url, buildForm({ params: { auth: { key: fx.service.authKey, expires: inOneHourIso(), max_number_of_files: max }, steps }, secret: fx.service.authSecret }))).body.assembly_ssl_url));
    const over = await run(1);
    expect(over.error).toBe('MAX_NUMBER_OF_FILES_EXCEEDED');
    expect(String(over.message)).toContain('2 input files (0 uploaded, 2 imported)');
    expect((await run(2)).ok).toBe('ASSEMBLY_COMPLETED');
  });

  it('brings assets in by id (an exact older version) and by path, feeding a resize', async () => {
    const big = await jpeg(400, 200, '#336699');
    const newer = await jpeg(100, 300, '#993366');
    const a = await storeOne('big.jpg', big, { path: 'imports/big.jpg' });
    await storeOne('big.jpg', newer, { path: 'imports/big.jpg', conflict_strategy: 'overwrite' });
    const steps = {
      imported: { robot: '/transloadit/import', asset_ids: [a.asset_id], version_ids: [a.version_id], paths: ['imports/big.jpg'] },
      small: { robot: '/image/resize', use: 'imported', width: 80, height: 80, resize_strategy: 'fit' },
    };
    const params = { auth: { key: fx.service.authKey, expires: inOneHourIso() }, steps };
    const { body } = await postAssembly(fx.service.url, buildForm({ params, secret: fx.service.authSecret }));
    const status = await waitForEnd(String(body.assembly_ssl_url));
    expect(status.ok, JSON.stringify(status.error ?? status.message)).toBe('ASSEMBLY_COMPLETED');
    const small = (status.results as Record<string, Body[]>).small!;
    expect(small).toHaveLength(2);
    // The old version (400×200) and the current one (100×300), each fitted into 80×80.
    expect(small.map((f) => [(f.meta as Body).width, (f.meta as Body).height])).toEqual([[80, 40], [27, 80]]);

    const missing = { imported: { robot: '/transloadit/import', asset_ids: ['AAAAAAAAAAAAAAAAAAAAAA'] }, small: steps.small };
    const failed = await waitForEnd(String((await postAssembly(fx.service.url, buildForm({ params: { ...params, steps: missing }, secret: fx.service.authSecret }))).body.assembly_ssl_url));
    expect(failed.error).toBe('DAM_ASSET_NOT_FOUND');
    const badVersion = { imported: { robot: '/transloadit/import', asset_ids: [a.asset_id], version_ids: ['AAAAAAAAAAAAAAAAAAAAAA'] }, small: steps.small };
    const failedVersion = await waitForEnd(String((await postAssembly(fx.service.url, buildForm({ params: { ...params, steps: badVersion }, secret: fx.service.authSecret }))).body.assembly_ssl_url));
    expect(failedVersion.error).toBe('DAM_ASSET_VERSION_NOT_FOUND');
    const nothing = await postAssembly(fx.service.url, buildForm({ params: { ...params, steps: { imported: { robot: '/transloadit/import' } } }, secret: fx.service.authSecret }));
    expect(nothing.body.error).toBe('TRANSLOADIT_IMPORT_VALIDATION');
  });
});

describe('a plain signed client', () => {
  it('lists and reads assets with the vendor signer and fetch', async () => {
    const data = await jpeg(21, 21);
    const a = await storeOne('plain.jpg', data, { path: 'plain/p.jpg' });
    const signed = (extra: Body): URLSearchParams => {
      const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: inOneHourIso() }, ...extra });
      return new URLSearchParams({ params, signature: signParamsSync(params, fx.service.authSecret, 'sha384') });
    };
    const listed = (await (await fetch(`${fx.service.url}/dam/assets?${signed({ prefix: 'plain/' })}`)).json()) as Body;
    expect(listed).toMatchObject({ ok: 'DAM_ASSETS_LISTED', assets: [{ asset_id: a.asset_id, path: 'plain/p.jpg', sha256: sha256(data) }] });
    const read = (await (await fetch(`${fx.service.url}/dam/assets/${a.asset_id}?${signed({})}`)).json()) as Body;
    expect(read).toMatchObject({ ok: 'DAM_ASSET_FOUND', asset: { asset_id: a.asset_id, md5hash: md5(data) } });
    const bytes = Buffer.from(await (await fetch(`${fx.service.url}/dam/assets/${a.asset_id}/content?${signed({})}`)).arrayBuffer());
    expect(bytes.equals(data)).toBe(true);
  });
});

describe('restart', () => {
  it('keeps assets, versions, folders and bytes across a restart of the service', async () => {
    const dataDir = await tempDir('assets-restart-');
    const first = await startLocalService({ dataDir });
    const second = { current: null as Awaited<ReturnType<typeof startLocalService>> | null };
    // The helpers above talk to `fx`: point it at this service for the test, and back afterwards.
    const saved = fx;
    try {
      fx = { service: first, dataDir, stop: async () => undefined };
      const data = await jpeg(15, 15);
      const a = await storeOne('kept.jpg', data, { path: 'kept/a.jpg' });
      await first.close();
      second.current = await startLocalService({ dataDir, authKey: first.authKey, authSecret: first.authSecret });
      fx = { service: second.current, dataDir, stop: async () => undefined };
      const listed = await call('GET', '/dam/assets', { delimiter: '/' });
      expect(listed.body.folders).toEqual(['kept/']);
      expect(((await call('GET', `/dam/assets/${a.asset_id}`)).body.asset as Asset).version_id).toBe(a.version_id);
      expect((await content(a.asset_id)).bytes.equals(data)).toBe(true);
    } finally {
      fx = saved;
      await second.current?.close();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
