// tus concatenation is not offered (docs/local-service.md "tus"): a client that reads Tus-Extension
// sends the file whole and the Assembly gets it; one that sends Upload-Concat regardless is told why.
import { createHash } from 'node:crypto';
import { Upload } from 'tus-js-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildForm, jpeg, postAssembly, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';

const TUS = { 'Tus-Resumable': '1.0.0' };
const meta = (fields: Record<string, string>): string =>
  Object.entries(fields)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

/** A tus client as the protocol describes one: it splits the file into partial uploads only when the server offers concatenation. */
async function sendFile(tusUrl: string, assemblyUrl: string, name: string, data: Buffer): Promise<{ concatenated: boolean; url: string }> {
  const options = await fetch(tusUrl, { method: 'OPTIONS', headers: TUS });
  const extensions = (options.headers.get('tus-extension') ?? '').split(',');
  const metadata = meta({ assembly_url: assemblyUrl, filename: name, fieldname: 'file' });
  const create = async (headers: Record<string, string>, body?: Buffer): Promise<string> => {
    const res = await fetch(tusUrl, {
      method: 'POST',
      headers: { ...TUS, ...headers, ...(body ? { 'Content-Type': 'application/offset+octet-stream' } : {}) },
      ...(body ? { body } : {}),
    });
    if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
    return res.headers.get('location') ?? '';
  };
  if (extensions.includes('concatenation')) {
    const half = Math.floor(data.length / 2);
    const parts = [data.subarray(0, half), data.subarray(half)];
    const partUrls = await Promise.all(parts.map((p) => create({ 'Upload-Concat': 'partial', 'Upload-Length': String(p.length) }, p)));
    return { concatenated: true, url: await create({ 'Upload-Concat': `final;${partUrls.join(' ')}`, 'Upload-Metadata': metadata }) };
  }
  return { concatenated: false, url: await create({ 'Upload-Length': String(data.length), 'Upload-Metadata': metadata }, data) };
}

describe('tus concatenation', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await startFixture();
  });
  afterAll(async () => {
    await fx.stop();
  });

  const createAssembly = async (): Promise<Record<string, unknown>> => {
    const steps = { small: { use: ':original', robot: '/image/resize', width: 32, height: 32 } };
    const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps }, fields: { tus_num_expected_upload_files: '1' } }));
    expect(created.body.ok).toBe('ASSEMBLY_UPLOADING');
    return created.body;
  };

  it('is not in Tus-Extension, so a client that checks it sends the file whole and the Assembly gets every byte', async () => {
    const assembly = await createAssembly();
    const data = await jpeg(300, 200);
    const sent = await sendFile(String(assembly.tus_url), String(assembly.assembly_ssl_url), 'photo.jpg', data);
    expect(sent.concatenated).toBe(false);
    const done = await waitForEnd(String(assembly.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    const uploads = done.uploads as { name: string; size: number; md5hash: string }[];
    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ name: 'photo.jpg', size: data.length, md5hash: createHash('md5').update(data).digest('hex') });
    expect((done.results as Record<string, unknown[]>).small).toHaveLength(1);
  });

  it('refuses Upload-Concat with TUS_CONCATENATION_UNSUPPORTED, which tus-js-client (parallelUploads) reports', async () => {
    const assembly = await createAssembly();
    const data = await jpeg(300, 200);
    const error = await new Promise<Error>((resolve, reject) => {
      new Upload(data, {
        endpoint: String(assembly.tus_url),
        parallelUploads: 2,
        retryDelays: [],
        metadata: { assembly_url: String(assembly.assembly_ssl_url), filename: 'photo.jpg' },
        onError: resolve,
        onSuccess: () => reject(new Error('a concatenated upload should be refused')),
      }).start();
    });
    expect(error.message).toContain('TUS_CONCATENATION_UNSUPPORTED');
    expect(error.message).toContain('400');
  });
});
