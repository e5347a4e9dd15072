// A restart loses nothing acknowledged; an Assembly still waiting for uploads waits again (its uploads
// resume: see service/assemblies/resume-uploading.test.ts).
import { rm } from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalService } from '../index';
import { buildForm, getJson, jpeg, postAssembly, tempDir, waitForEnd } from '../testing/service-fixture';

describe('restart', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('keeps the account, finished Assemblies and their files, and the one still waiting for uploads', async () => {
    const dataDir = await tempDir('svc-restart-');
    dirs.push(dataDir);
    const first = await startLocalService({ dataDir });
    const key = first.authKey;
    const steps = { ':original': { robot: '/upload/handle' }, r: { use: ':original', robot: '/image/resize', width: 50 } };
    const done = await postAssembly(first.url, buildForm({ params: { auth: { key }, steps }, files: [{ field: 'f', name: 'a.jpg', data: await jpeg(200, 100), type: 'image/jpeg' }] }));
    const finished = await waitForEnd(String(done.body.assembly_ssl_url));
    expect(finished.ok).toBe('ASSEMBLY_COMPLETED');
    const running = await postAssembly(first.url, buildForm({ params: { auth: { key }, steps }, fields: { num_expected_upload_files: '1' } }));
    expect(running.body.ok).toBe('ASSEMBLY_UPLOADING');
    await first.close();
    // Let the client's pooled keep-alive sockets see the close before reusing the same port.
    await new Promise((r) => setTimeout(r, 200));

    const second = await startLocalService({ dataDir, port: first.port });
    try {
      expect(second.authKey).toBe(key);
      expect(second.authSecret).toBe(first.authSecret);
      const again = (await getJson(String(done.body.assembly_ssl_url))).body;
      expect(again.ok).toBe('ASSEMBLY_COMPLETED');
      expect(again.results).toEqual(finished.results);
      const resultUrl = String((finished.results as Record<string, { ssl_url: string }[]>).r![0]!.ssl_url);
      const file = await fetch(resultUrl);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe('image/jpeg');

      const waiting = (await getJson(String(running.body.assembly_ssl_url))).body;
      expect(waiting.ok).toBe('ASSEMBLY_UPLOADING');
      expect(waiting.error).toBeUndefined();
      // The old key keeps working after the restart.
      const more = await postAssembly(second.url, buildForm({ params: { auth: { key }, steps } }));
      expect(more.body.ok).toBe('ASSEMBLY_EXECUTING');
    } finally {
      await second.close();
    }
  });
});
