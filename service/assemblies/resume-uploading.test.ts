// The service restarts (a crash, kill -9, the app's supervisor bringing it back) while an Assembly waits
// for its tus uploads: the Assembly waits again, a half-sent upload resumes from its offset, and the
// Assembly completes with every byte. Only an Assembly caught executing ends ASSEMBLY_CRASHED.
import { createHash } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { Upload } from 'tus-js-client';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalService } from '../index';
import { buildForm, getJson, jpeg, postAssembly, tempDir, waitForEnd } from '../testing/service-fixture';

const md5 = (data: Buffer) => createHash('md5').update(data).digest('hex');

function upload(data: Buffer, options: { endpoint: string; uploadUrl?: string; metadata: Record<string, string>; stopAfter?: number }): Promise<{ url: string; resumedFrom: number }> {
  return new Promise((resolve, reject) => {
    let resumedFrom = -1;
    const up: Upload = new Upload(data, {
      endpoint: options.endpoint,
      ...(options.uploadUrl ? { uploadUrl: options.uploadUrl } : {}),
      metadata: options.metadata,
      chunkSize: 64 * 1024,
      retryDelays: [],
      onError: reject,
      onProgress: (sent) => {
        if (resumedFrom < 0) resumedFrom = sent;
      },
      onChunkComplete: (_chunk, sent) => {
        if (options.stopAfter !== undefined && sent >= options.stopAfter && up.url) {
          const url = up.url;
          void up.abort().then(() => resolve({ url, resumedFrom }));
        }
      },
      onSuccess: () => resolve({ url: up.url ?? '', resumedFrom }),
    });
    up.start();
  });
}

describe('an Assembly waiting for uploads across a service restart', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('waits again after the restart, resumes the half-sent upload from its offset, and completes', async () => {
    const dataDir = await tempDir('svc-resume-');
    dirs.push(dataDir);
    const first = await startLocalService({ dataDir });
    const steps = { ':original': { robot: '/upload/handle', result: true } };
    const created = await postAssembly(first.url, buildForm({ params: { auth: { key: first.authKey }, steps }, fields: { num_expected_upload_files: '2' } }));
    expect(created.body.ok).toBe('ASSEMBLY_UPLOADING');
    const whole = await jpeg(300, 200);
    const half = Buffer.concat([await jpeg(600, 600), Buffer.alloc(768 * 1024, 7)]);
    const meta = (filename: string) => ({ assembly_url: String(created.body.assembly_url), fieldname: 'file', filename });
    await upload(whole, { endpoint: String(created.body.tus_url), metadata: meta('whole.jpg') });
    const partial = await upload(half, { endpoint: String(created.body.tus_url), metadata: meta('half.jpg'), stopAfter: 256 * 1024 });
    await first.close();
    await new Promise((r) => setTimeout(r, 200));

    const second = await startLocalService({ dataDir, port: first.port });
    try {
      const waiting = (await getJson(String(created.body.assembly_ssl_url))).body;
      expect(waiting.ok).toBe('ASSEMBLY_UPLOADING');
      expect(waiting.error).toBeUndefined();
      const head = await fetch(partial.url, { method: 'HEAD', headers: { 'Tus-Resumable': '1.0.0' } });
      const offset = Number(head.headers.get('upload-offset'));
      expect(offset).toBeGreaterThanOrEqual(256 * 1024);

      const resumed = await upload(half, { endpoint: String(created.body.tus_url), uploadUrl: partial.url, metadata: meta('half.jpg') });
      expect(resumed.resumedFrom).toBeGreaterThanOrEqual(offset);
      const done = await waitForEnd(String(created.body.assembly_ssl_url));
      expect(done.ok).toBe('ASSEMBLY_COMPLETED');
      const uploads = (done.uploads as { name: string; size: number; md5hash: string }[]).map((u) => [u.name, u.size, u.md5hash]).sort();
      expect(uploads).toEqual([
        ['half.jpg', half.length, md5(half)],
        ['whole.jpg', whole.length, md5(whole)],
      ]);
    } finally {
      await second.close();
    }
  });
});
