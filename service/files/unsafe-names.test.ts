// Finding 1 of issue 10, over real HTTP: a file name from outside (tus `filename`, a multipart part's
// name) must never become a path. The record keeps the name as the client sent it; on disk, every
// write stays inside the Assembly's folder, under a safe base name of at most 255 bytes.
import { open, readdir } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import { Upload } from 'tus-js-client';
import { afterEach, describe, expect, it } from 'vitest';
import { startLocalService } from '../index';
import { buildForm, getJson, jpeg, postAssembly, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';

const OPTIMIZE_AND_RESIZE = {
  ':original': { robot: '/upload/handle' },
  optimized: { use: ':original', robot: '/image/optimize' },
  resized: { use: ':original', robot: '/image/resize', width: 16, height: 16 },
};

/** Every file below `dir`, as paths relative to it. */
async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name))).sort();
}

async function sqliteHeader(path: string): Promise<string> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(16);
    await fh.read(buf, 0, 16, 0);
    return buf.toString('latin1');
  } finally {
    await fh.close();
  }
}

function tusUpload(endpoint: string, data: Buffer, metadata: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const upload = new Upload(data, { endpoint, metadata, retryDelays: [], onError: reject, onSuccess: () => resolve(upload.url ?? '') });
    upload.start();
  });
}

type FileRecord = { name: string; basename: string; ext: string; ssl_url: string };
const resultsOf = (status: Record<string, unknown>, step: string): FileRecord[] => (status.results as Record<string, FileRecord[]>)[step] ?? [];

describe('file names from outside never become paths', () => {
  let fx: Fixture;
  afterEach(async () => {
    await fx?.stop();
  });

  /** New files since `before` must all be in the Assembly's folder or tus' own folder. */
  const expectWritesInside = (before: string[], after: string[], assemblyId: string) => {
    const added = after.filter((p) => !before.includes(p));
    expect(added.length).toBeGreaterThan(0);
    const outside = added.filter((p) => !p.startsWith(`assemblies${sep}${assemblyId}${sep}`) && !p.startsWith(`tus${sep}`));
    expect(outside).toEqual([]);
  };

  /** The database is still a database, and a restarted service on the same folder still knows the Assembly. */
  const expectDatabaseIntact = async (assemblyId: string, names: string[]) => {
    expect(await sqliteHeader(join(fx.dataDir, 'service.sqlite'))).toBe('SQLite format 3\0');
    await fx.service.close();
    const again = await startLocalService({ dataDir: fx.dataDir });
    try {
      const { status, body } = await getJson(`${again.url}/assemblies/${assemblyId}`);
      expect(status).toBe(200);
      expect(body.ok).toBe('ASSEMBLY_COMPLETED');
      expect((body.uploads as FileRecord[]).map((u) => u.name).sort()).toEqual([...names].sort());
    } finally {
      await again.close();
    }
    // Closed above; the fixture's stop() then only removes the folder.
    fx.service = { ...fx.service, close: async () => undefined };
  };

  it('a tus filename "../../service.sqlite" through /image/optimize and /image/resize writes only inside the Assembly', async () => {
    fx = await startFixture();
    const names = ['../../service.sqlite', '../../../../../service.sqlite'];
    const before = await listFiles(fx.dataDir);
    const created = await postAssembly(
      fx.service.url,
      buildForm({ params: { auth: { key: fx.service.authKey }, steps: OPTIMIZE_AND_RESIZE }, fields: { num_expected_upload_files: String(names.length) } }),
    );
    expect(created.body.ok).toBe('ASSEMBLY_UPLOADING');
    const image = await jpeg(40, 30);
    for (const filename of names) await tusUpload(String(created.body.tus_url), image, { assembly_url: String(created.body.assembly_url), fieldname: 'file', filename });
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.error).toBeUndefined();
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');

    // The records keep the names as sent; the optimized copies are served under them.
    expect((done.uploads as FileRecord[]).map((u) => u.name).sort()).toEqual([...names].sort());
    const optimized = resultsOf(done, 'optimized');
    expect(optimized.map((r) => r.name).sort()).toEqual([...names].sort());
    for (const r of optimized) {
      const res = await fetch(r.ssl_url);
      expect(res.headers.get('content-type')).toBe('image/jpeg');
      expect(Buffer.from(await res.arrayBuffer()).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    }
    expect(resultsOf(done, 'resized')).toHaveLength(2);

    // The service's database was the target: it must still be one.
    expect(await sqliteHeader(join(fx.dataDir, 'service.sqlite'))).toBe('SQLite format 3\0');
    const id = String(created.body.assembly_id);
    const after = await listFiles(fx.dataDir);
    expectWritesInside(before, after, id);
    // Each result sits in its step's folder under the safe base name, never a level up.
    const results = after.filter((p) => p.startsWith(join('assemblies', id, 'results')));
    expect(results.filter((p) => p.includes(`${sep}1-optimized${sep}`)).map((p) => basename(p))).toEqual(['service.sqlite', 'service.sqlite']);
    expect(results.filter((p) => p.includes(`${sep}2-resized${sep}`)).map((p) => basename(p))).toEqual(['service.jpg', 'service.jpg']);
    expect(results.every((p) => p.split(sep).length === 6)).toBe(true);
    await expectDatabaseIntact(id, names);
  });

  it('a multipart file part named "../../../../../service.sqlite" (no filename) writes only inside the Assembly', async () => {
    fx = await startFixture();
    const partName = '../../../../../service.sqlite';
    const before = await listFiles(fx.dataDir);
    const boundary = 'names-attack-boundary';
    const params = JSON.stringify({ auth: { key: fx.service.authKey }, steps: OPTIMIZE_AND_RESIZE });
    const body = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="params"\r\n\r\n${params}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${partName}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
      await jpeg(40, 30),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await fetch(`${fx.service.url}/assemblies`, { method: 'POST', body, headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` } });
    const created = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(200);
    const done = await waitForEnd(String(created.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    // Without a filename the part's name is the file's name (as the real service does).
    expect((done.uploads as FileRecord[])[0]!.name).toBe(partName);
    expect(resultsOf(done, 'optimized')[0]!.name).toBe(partName);

    expect(await sqliteHeader(join(fx.dataDir, 'service.sqlite'))).toBe('SQLite format 3\0');
    const id = String(created.assembly_id);
    expectWritesInside(before, await listFiles(fx.dataDir), id);
    await expectDatabaseIntact(id, [partName]);
  });

  it('a name over 255 bytes is processed: the record keeps it whole, the disk name is cut to 255 bytes with its extension', async () => {
    fx = await startFixture();
    const long = `${'é'.repeat(140)} ${'x'.repeat(20)}.jpg`; // 305 bytes
    expect(Buffer.byteLength(long)).toBeGreaterThan(255);
    const created = await postAssembly(
      fx.service.url,
      buildForm({ params: { auth: { key: fx.service.authKey }, steps: OPTIMIZE_AND_RESIZE }, fields: { num_expected_upload_files: '1' } }),
    );
    await tusUpload(String(created.body.tus_url), await jpeg(40, 30), { assembly_url: String(created.body.assembly_url), filename: long });
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.message).toBe('The Assembly was successfully completed.');
    expect((done.uploads as FileRecord[])[0]!.name).toBe(long);
    const optimized = resultsOf(done, 'optimized')[0]!;
    expect(optimized.name).toBe(long);
    expect((await fetch(optimized.ssl_url)).status).toBe(200);
    expect(resultsOf(done, 'resized')[0]!.name).toBe(long);

    const onDisk = (await listFiles(join(fx.dataDir, 'assemblies', String(created.body.assembly_id), 'results'))).map((p) => basename(p));
    expect(onDisk).toHaveLength(2);
    for (const name of onDisk) {
      expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
      expect(name).toMatch(/^é+\.jpg$/u);
    }
  });

  it('names with : ? # % and \\ keep them in the record and in served URLs; on disk they get the safe base name', async () => {
    fx = await startFixture();
    const names = ['100% #1: really?.jpg', 'back\\slash.jpg'];
    const created = await postAssembly(
      fx.service.url,
      buildForm({ params: { auth: { key: fx.service.authKey }, steps: OPTIMIZE_AND_RESIZE }, fields: { num_expected_upload_files: '2' } }),
    );
    for (const filename of names) await tusUpload(String(created.body.tus_url), await jpeg(40, 30), { assembly_url: String(created.body.assembly_url), filename });
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    expect((done.uploads as FileRecord[]).map((u) => u.name).sort()).toEqual([...names].sort());
    const optimized = resultsOf(done, 'optimized');
    expect(optimized.map((r) => r.name).sort()).toEqual([...names].sort());
    expect(resultsOf(done, 'resized').map((r) => r.name).sort()).toEqual(['100% #1: really?.jpg', 'back\\slash.jpg']);
    for (const r of optimized) {
      const res = await fetch(r.ssl_url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe(`inline; filename*=UTF-8''${encodeURIComponent(r.name)}`);
    }
    const onDisk = (await listFiles(join(fx.dataDir, 'assemblies', String(created.body.assembly_id), 'results'))).map((p) => basename(p)).sort();
    expect(onDisk).toEqual(['100% #1: really?.jpg', '100% #1: really?.jpg', 'slash.jpg', 'slash.jpg']);
  });

  it('a file named ".." keeps its name in the record and is served at its URL', async () => {
    fx = await startFixture();
    const created = await postAssembly(
      fx.service.url,
      buildForm({ params: { auth: { key: fx.service.authKey }, steps: OPTIMIZE_AND_RESIZE }, fields: { num_expected_upload_files: '1' } }),
    );
    await tusUpload(String(created.body.tus_url), await jpeg(40, 30), { assembly_url: String(created.body.assembly_url), filename: '..' });
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    const upload = (done.uploads as FileRecord[])[0]!;
    const optimized = resultsOf(done, 'optimized')[0]!;
    expect([upload.name, optimized.name]).toEqual(['..', '..']);
    for (const file of [upload, optimized]) {
      const res = await fetch(file.ssl_url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-disposition')).toBe("inline; filename*=UTF-8''..");
    }
  });

  it('a Template field interpolated into archive_name cannot name a path either', async () => {
    fx = await startFixture();
    const created = await postAssembly(
      fx.service.url,
      buildForm({
        params: {
          auth: { key: fx.service.authKey },
          fields: { label: '../../../../../service.sqlite' },
          steps: { ':original': { robot: '/upload/handle' }, zipped: { use: ':original', robot: '/file/compress', format: 'zip', archive_name: '${fields.label}' } },
        },
        files: [{ field: 'file', name: 'a.jpg', data: await jpeg(10, 10) }],
      }),
    );
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    expect(await sqliteHeader(join(fx.dataDir, 'service.sqlite'))).toBe('SQLite format 3\0');
    const onDisk = await listFiles(join(fx.dataDir, 'assemblies', String(created.body.assembly_id), 'results'));
    expect(onDisk.map((p) => basename(p))).toEqual(['service.sqlite.zip']);
  });
});
