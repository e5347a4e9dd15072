// tus concatenation (issue 25): the spec's Tus-Extension lists it, and tus-js-client's parallelUploads
// sends a file as partial uploads side by side and a final upload naming them. Invariant: whatever the
// sizes and the split, the Assembly gets the file once with the md5 and size of the bytes sent, and no
// part is left on disk. Real service over real HTTP, tus-js-client as foreign clients run it.
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildForm, jpeg, postAssembly, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';
import { distinctBytes as bytes, uploadMetadata as meta } from '../testing/tus-test-data';

const TUS = { 'Tus-Resumable': '1.0.0' };
const md5 = (b: Buffer): string => createHash('md5').update(b).digest('hex');

/** tus-js-client as a foreign client runs it with parallelUploads; partials name their Assembly. */
function parallelUpload(assembly: Record<string, unknown>, data: Buffer, name: string, o: { parts: number; boundaries?: { start: number; end: number }[]; chunkSize?: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const assemblyUrl = String(assembly.assembly_ssl_url);
    const upload = new Upload(data, {
      endpoint: String(assembly.tus_url),
      parallelUploads: o.parts,
      ...(o.boundaries ? { parallelUploadBoundaries: o.boundaries } : {}),
      ...(o.chunkSize ? { chunkSize: o.chunkSize } : {}),
      retryDelays: [],
      metadata: { assembly_url: assemblyUrl, filename: name, fieldname: 'file' },
      metadataForPartialUploads: { assembly_url: assemblyUrl },
      onError: reject,
      onSuccess: () => resolve(upload.url ?? ''),
    });
    upload.start();
  });
}

describe('tus concatenation', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(async () => {
    await fx.stop();
  });

  const createAssembly = async (files = 1, steps: Record<string, unknown> = { ':original': { robot: '/upload/handle' } }): Promise<Record<string, unknown>> => {
    const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps }, fields: { tus_num_expected_upload_files: String(files) } }));
    expect(created.body.ok).toBe('ASSEMBLY_UPLOADING');
    return created.body;
  };
  const tusFiles = async (): Promise<string[]> => (await readdir(join(fx.dataDir, 'tus'))).filter((f) => !f.endsWith('.json'));
  const createPart = (assembly: Record<string, unknown>, body: Buffer, metadata: string | null = meta({ assembly_url: String(assembly.assembly_ssl_url) })) =>
    fetch(String(assembly.tus_url), {
      method: 'POST',
      headers: { ...TUS, 'Upload-Concat': 'partial', 'Upload-Length': String(body.length), 'Content-Type': 'application/offset+octet-stream', ...(metadata ? { 'Upload-Metadata': metadata } : {}) },
      body,
    });

  it('advertises concatenation in the spec\'s Tus-Extension', async () => {
    const res = await fetch(`${fx.service.url}/resumable/files/`, { method: 'OPTIONS', headers: TUS });
    expect(res.headers.get('tus-extension')).toBe('creation,creation-with-upload,termination,concatenation,creation-defer-length');
  });

  it('takes a file from tus-js-client with parallelUploads: the Assembly gets it once, with its md5 and size, and runs its steps', async () => {
    const assembly = await createAssembly(1, { ':original': { robot: '/upload/handle' }, small: { use: ':original', robot: '/image/resize', width: 32, height: 32 } });
    const data = await jpeg(640, 480);
    const url = await parallelUpload(assembly, data, 'photo.jpg', { parts: 3 });
    const done = await waitForEnd(String(assembly.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    const uploads = done.uploads as Record<string, unknown>[];
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ name: 'photo.jpg', size: data.length, md5hash: md5(data), is_tus_file: true, tus_upload_url: url, mime: 'image/jpeg' });
    expect(uploads[0]!.sha256).toBe(createHash('sha256').update(data).digest('hex'));
    expect((done.results as Record<string, unknown[]>).small).toHaveLength(1);
    expect(done).toMatchObject({ expected_tus_uploads: 1, started_tus_uploads: 1, finished_tus_uploads: 1 });
    // The file's bytes once (plus the creating request's body), not once per part and once more for the final.
    expect(Number(done.bytes_received) - data.length).toBeGreaterThanOrEqual(0);
    expect(Number(done.bytes_received) - data.length).toBeLessThan(2048);
    // The parts were joined into the final upload and removed (after the final's answer).
    await expect.poll(tusFiles, { timeout: 10_000 }).toEqual([url.slice(url.lastIndexOf('/') + 1)]);
  });

  it('joins any split of any file in order (fast-check over sizes, part counts and boundaries)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 300_000 }),
        fc.integer({ min: 1, max: 6 }),
        fc.integer({ min: 1, max: 2 ** 31 }),
        fc.boolean(),
        async (size, wanted, seed, uneven) => {
          const data = bytes(size, seed);
          const parts = Math.min(wanted, size);
          // Uneven: cut points of the generator's choosing, as parallelUploadBoundaries allows.
          let boundaries: { start: number; end: number }[] | undefined;
          if (uneven && parts > 1) {
            const cuts = [...new Set(Array.from({ length: parts - 1 }, (_, i) => 1 + ((seed * (i + 7)) % (size - 1))))].sort((a, b) => a - b);
            const edges = [0, ...cuts, size];
            boundaries = edges.slice(1).map((end, i) => ({ start: edges[i]!, end }));
          }
          const assembly = await createAssembly();
          await parallelUpload(assembly, data, 'blob.bin', { parts: boundaries?.length ?? parts, ...(boundaries ? { boundaries } : {}), chunkSize: 64 * 1024 });
          const done = await waitForEnd(String(assembly.assembly_ssl_url));
          expect(done.ok).toBe('ASSEMBLY_COMPLETED');
          const uploads = done.uploads as Record<string, unknown>[];
          expect(uploads.map((u) => [u.size, u.md5hash])).toEqual([[size, md5(data)]]);
        },
      ),
      { numRuns: 12 },
    );
  });

  it('follows the protocol by hand: parts created with their bytes (creation-with-upload), then the final upload', async () => {
    const assembly = await createAssembly();
    const data = bytes(10_000, 7);
    const partUrls: string[] = [];
    for (const part of [data.subarray(0, 4000), data.subarray(4000)]) {
      const res = await createPart(assembly, part);
      expect(res.status).toBe(201);
      expect(res.headers.get('upload-offset')).toBe(String(part.length));
      partUrls.push(res.headers.get('location')!);
    }
    // A HEAD on a part says where it stands.
    const head = await fetch(partUrls[0]!, { method: 'HEAD', headers: TUS });
    expect([head.status, head.headers.get('upload-offset'), head.headers.get('upload-length')]).toEqual([200, '4000', '4000']);
    const final = await fetch(String(assembly.tus_url), {
      method: 'POST',
      // Relative part URLs are allowed by the protocol.
      headers: { ...TUS, 'Upload-Concat': `final;${partUrls.map((u) => new URL(u).pathname).join(' ')}`, 'Upload-Metadata': meta({ assembly_url: String(assembly.assembly_ssl_url), filename: 'joined.bin' }) },
    });
    expect(final.status, await final.clone().text()).toBe(201);
    const finalHead = await fetch(final.headers.get('location')!, { method: 'HEAD', headers: TUS });
    expect([finalHead.headers.get('upload-offset'), finalHead.headers.get('upload-length')]).toEqual(['10000', '10000']);
    const done = await waitForEnd(String(assembly.assembly_ssl_url));
    expect((done.uploads as Record<string, unknown>[]).map((u) => [u.name, u.size, u.md5hash])).toEqual([['joined.bin', 10_000, md5(data)]]);
    // A joined part is gone: a second final of the same parts finds nothing.
    expect((await fetch(partUrls[0]!, { method: 'HEAD', headers: TUS })).status).toBe(404);
  });

  it('takes no part that names no waiting Assembly, and no final that joins what it may not', async () => {
    const before = await tusFiles();
    const assembly = await createAssembly();
    const stray = await createPart(assembly, bytes(100, 1), null);
    expect(stray.status).toBe(400);
    expect(((await stray.json()) as { error: string; message: string }).message).toContain('metadataForPartialUploads');
    expect(await tusFiles()).toEqual(before);

    const other = await createAssembly();
    const foreign = (await createPart(other, bytes(100, 2))).headers.get('location')!;
    const unfinished = await fetch(String(assembly.tus_url), {
      method: 'POST',
      headers: { ...TUS, 'Upload-Concat': 'partial', 'Upload-Length': '500', 'Upload-Metadata': meta({ assembly_url: String(assembly.assembly_ssl_url) }) },
    });
    const cases: [string, number, string][] = [
      [`final;${foreign}`, 400, 'TUS_CONCATENATION_INVALID'],
      [`final;${unfinished.headers.get('location')!}`, 400, 'TUS_PARTIAL_UPLOAD_UNFINISHED'],
      ['final;http://elsewhere.example/files/abc', 400, 'TUS_CONCATENATION_INVALID'],
      ['final;', 400, 'TUS_CONCATENATION_INVALID'],
      ['whole', 400, 'TUS_CONCATENATION_INVALID'],
    ];
    for (const [concat, status, code] of cases) {
      const res = await fetch(String(assembly.tus_url), { method: 'POST', headers: { ...TUS, 'Upload-Concat': concat, 'Upload-Metadata': meta({ assembly_url: String(assembly.assembly_ssl_url) }) } });
      expect([res.status, ((await res.json()) as { error: string }).error], concat).toEqual([status, code]);
    }
    // Once the Assembly no longer waits (canceled), neither parts nor bytes for them are taken.
    await fetch(String(other.assembly_ssl_url), { method: 'DELETE' });
    const late = await createPart(other, bytes(10, 3));
    expect([late.status, ((await late.json()) as { error: string }).error]).toEqual([400, 'ASSEMBLY_NOT_UPLOADING']);
    const patch = await fetch(foreign, { method: 'PATCH', headers: { ...TUS, 'Upload-Offset': '100', 'Content-Type': 'application/offset+octet-stream' }, body: Buffer.alloc(1) });
    expect([patch.status, ((await patch.json()) as { error: string }).error]).toEqual([410, 'ASSEMBLY_NOT_UPLOADING']);
  });

  it('counts a part bigger than auth.max_size as the file would be: refused before a byte is stored', async () => {
    const created = await postAssembly(
      fx.service.url,
      buildForm({ params: { auth: { key: fx.service.authKey, max_size: 1000 }, steps: { ':original': { robot: '/upload/handle' } } }, fields: { tus_num_expected_upload_files: '1' } }),
    );
    const res = await fetch(String(created.body.tus_url), {
      method: 'POST',
      headers: { ...TUS, 'Upload-Concat': 'partial', 'Upload-Length': '5000', 'Upload-Metadata': meta({ assembly_url: String(created.body.assembly_ssl_url) }) },
    });
    expect([res.status, ((await res.json()) as { error: string }).error]).toEqual([413, 'MAX_SIZE_EXCEEDED']);
  });
});
