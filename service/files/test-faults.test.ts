// The test-only corruption fault: only when a test asks, only the first upload of that name, tus and
// multipart alike; the stored bytes differ in one byte, so the record's md5hash differs from the client's.
import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Upload } from 'tus-js-client';
import { afterEach, describe, expect, it } from 'vitest';
import { buildForm, postAssembly, startFixture, tempDir, waitForEnd, type Fixture } from '../testing/service-fixture';
import { spawnService, type ServiceProcess } from '../testing/service-process';
import { CORRUPT_FAULT_ENV, DROP_FAULT_ENV, DROP_TIMES_ENV, faultConfig, testFaults } from './test-faults';

const md5 = (data: Buffer): string => createHash('md5').update(data).digest('hex');
const steps = { ':original': { robot: '/upload/handle' } };
type UploadRecord = { name: string; md5hash: string; size: number; ssl_url: string };

function tusUpload(data: Buffer, endpoint: string, metadata: Record<string, string>): Promise<void> {
  return new Promise((resolve, reject) => {
    new Upload(data, { endpoint, metadata, chunkSize: 16 * 1024, retryDelays: [], onError: reject, onSuccess: () => resolve() }).start();
  });
}

async function multipartOnce(base: string, key: string, name: string, data: Buffer): Promise<UploadRecord> {
  const created = await postAssembly(base, buildForm({ params: { auth: { key }, steps }, files: [{ field: 'file', name, data }] }));
  const done = await waitForEnd(String(created.body.assembly_ssl_url));
  return (done.uploads as UploadRecord[])[0]!;
}

async function tusOnce(base: string, key: string, name: string, data: Buffer): Promise<UploadRecord> {
  const created = await postAssembly(base, buildForm({ params: { auth: { key }, steps }, fields: { num_expected_upload_files: '1' } }));
  await tusUpload(data, String(created.body.tus_url), { assembly_url: String(created.body.assembly_url), fieldname: 'file', filename: name });
  const done = await waitForEnd(String(created.body.assembly_ssl_url));
  return (done.uploads as UploadRecord[])[0]!;
}

/** How many bytes differ between two buffers of the same length. */
const differing = (a: Buffer, b: Buffer): number => a.reduce((n, byte, i) => n + (byte === b[i] ? 0 : 1), 0);

describe('ASSEMBLYLINE_TEST_FAULT_CORRUPT', () => {
  let fx: Fixture | null = null;
  let svc: ServiceProcess | null = null;
  let svcDir: string | null = null;
  afterEach(async () => {
    delete process.env[CORRUPT_FAULT_ENV];
    delete process.env[DROP_FAULT_ENV];
    await fx?.stop();
    await svc?.kill();
    if (svcDir) await rm(svcDir, { recursive: true, force: true });
    fx = null;
    svc = null;
    svcDir = null;
  });

  it('is honoured only under NODE_ENV=test or --test-faults, and only when set', () => {
    expect(faultConfig({}, [])).toBeNull();
    expect(faultConfig({ [CORRUPT_FAULT_ENV]: 'a.bin', NODE_ENV: 'test' }, [])).toEqual({ corruptName: 'a.bin', dropName: null, dropTimes: null });
    expect(faultConfig({ [CORRUPT_FAULT_ENV]: 'a.bin' }, ['node', 'cli.ts', '--test-faults'])).toEqual({ corruptName: 'a.bin', dropName: null, dropTimes: null });
    expect(faultConfig({ [CORRUPT_FAULT_ENV]: 'a.bin', NODE_ENV: 'production' }, ['node', 'cli.ts'])).toMatchObject({ refused: expect.stringContaining('ignored') });
    expect(faultConfig({ [DROP_FAULT_ENV]: 'gone.txt', NODE_ENV: 'production' }, ['node', 'cli.ts'])).toEqual({ refused: `${DROP_FAULT_ENV} is set but ignored: test faults need NODE_ENV=test or --test-faults.` });
    const faults = testFaults(faultConfig({ [CORRUPT_FAULT_ENV]: 'a.bin', NODE_ENV: 'test' }, []));
    expect([faults.takeCorrupt('b.bin'), faults.takeCorrupt('a.bin'), faults.takeCorrupt('a.bin'), faults.takeCorrupt(null)]).toEqual([false, true, false, false]);
    const twice = testFaults(faultConfig({ [DROP_FAULT_ENV]: 'gone.txt', [DROP_TIMES_ENV]: '2', NODE_ENV: 'test' }, []));
    expect(['a.txt', 'gone.txt', 'gone.txt', 'gone.txt'].map((n) => twice.takeDrop(n))).toEqual([false, true, true, false]);
    const always = testFaults(faultConfig({ [DROP_FAULT_ENV]: 'gone.txt', NODE_ENV: 'test' }, []));
    expect(Array.from({ length: 5 }, () => always.takeDrop('gone.txt'))).toEqual([true, true, true, true, true]);
  });

  it('flips one byte of the first multipart upload of that name, and stores later ones intact', async () => {
    process.env[CORRUPT_FAULT_ENV] = 'take 2.bin';
    fx = await startFixture();
    const data = randomBytes(50_000);
    const other = await multipartOnce(fx.service.url, fx.service.authKey, 'other.bin', data);
    expect(other.md5hash).toBe(md5(data));
    const first = await multipartOnce(fx.service.url, fx.service.authKey, 'take 2.bin', data);
    expect(first.size).toBe(data.length);
    expect(first.md5hash).not.toBe(md5(data));
    const stored = Buffer.from(await (await fetch(first.ssl_url)).arrayBuffer());
    expect(differing(stored, data)).toBe(1);
    expect(md5(stored)).toBe(first.md5hash);
    const again = await multipartOnce(fx.service.url, fx.service.authKey, 'take 2.bin', data);
    expect(again.md5hash).toBe(md5(data));
  });

  it('flips one byte of the first tus upload of that name, whose md5hash then tells it', async () => {
    process.env[CORRUPT_FAULT_ENV] = 'clip.bin';
    fx = await startFixture();
    const data = randomBytes(100_000);
    const first = await tusOnce(fx.service.url, fx.service.authKey, 'clip.bin', data);
    expect(first.md5hash).not.toBe(md5(data));
    const stored = Buffer.from(await (await fetch(first.ssl_url)).arrayBuffer());
    expect(differing(stored, data)).toBe(1);
    expect(md5(stored)).toBe(first.md5hash);
    const again = await tusOnce(fx.service.url, fx.service.authKey, 'clip.bin', data);
    expect(again.md5hash).toBe(md5(data));
  });

  it('ASSEMBLYLINE_TEST_FAULT_DROP: an Assembly completes without the multipart and tus uploads of that name', async () => {
    process.env[DROP_FAULT_ENV] = 'gone.txt';
    fx = await startFixture();
    const data = randomBytes(1_000);
    const created = await postAssembly(fx.service.url, buildForm({ params: { auth: { key: fx.service.authKey }, steps }, fields: { num_expected_upload_files: '2' }, files: [{ field: 'a', name: 'kept.txt', data }, { field: 'b', name: 'gone.txt', data }] }));
    await tusUpload(data, String(created.body.tus_url), { assembly_url: String(created.body.assembly_url), fieldname: 'c', filename: 'gone.txt' });
    await tusUpload(data, String(created.body.tus_url), { assembly_url: String(created.body.assembly_url), fieldname: 'd', filename: 'also kept.txt' });
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    expect((done.uploads as UploadRecord[]).map((u) => u.name).sort()).toEqual(['also kept.txt', 'kept.txt']);
  });

  it('is refused, with a warning, by a service run outside tests without --test-faults', async () => {
    svcDir = await tempDir('svc-fault-');
    svc = await spawnService(['--port', '0', '--data-dir', svcDir, '--auth-key', 'fault-key'], {
      NODE_ENV: 'production',
      [CORRUPT_FAULT_ENV]: 'clip.bin',
    });
    expect(svc.output()).toContain(`${CORRUPT_FAULT_ENV} is set but ignored`);
    const data = randomBytes(20_000);
    const record = await multipartOnce(svc.url, 'fault-key', 'clip.bin', data);
    expect(record.md5hash).toBe(md5(data));
  });
});
