// An Assembly caught executing by a stop ends ASSEMBLY_CRASHED on the next start and is metered then, with
// what its robots had done before the stop; a further restart does not meter it again.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalService } from '../index';
import { writeVideo } from '../robots/test-files';
import { openDatabase } from '../store/database';
import { buildForm, getJson, inOneHourIso, jpeg, postAssembly, tempDir, waitForEnd } from '../testing/service-fixture';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('metering across a stop', () => {
  it('meters a crashed Assembly once, with the bytes its finished jobs processed', async () => {
    const dataDir = await tempDir('svc-crash-meter-');
    const srcDir = await tempDir('svc-crash-src-');
    dirs.push(dataDir, srcDir);
    const photo = await jpeg(200, 150);
    const video = await readFile(await writeVideo(join(srcDir, 'long.mp4'), 120));
    const first = await startLocalService({ dataDir });
    const steps = {
      ':original': { robot: '/upload/handle' },
      thumb: { use: ':original', robot: '/image/resize', width: 50, height: 50 },
      encoded: { use: ':original', robot: '/video/encode', preset: 'android-high', zoom: true },
    };
    const created = await postAssembly(
      first.url,
      buildForm({
        params: { auth: { key: first.authKey, expires: inOneHourIso() }, steps },
        secret: first.authSecret,
        files: [
          { field: 'f', name: 'photo.jpg', data: photo, type: 'image/jpeg' },
          { field: 'f', name: 'long.mp4', data: video, type: 'video/mp4' },
        ],
      }),
    );
    const url = String(created.body.assembly_ssl_url);
    // Stopped once the resize is done and the long encode runs.
    for (let i = 0; ; i++) {
      const s = (await getJson(url)).body;
      if ((s.results as Record<string, unknown[]> | undefined)?.thumb?.length) {
        expect(s.ok).toBe('ASSEMBLY_EXECUTING');
        break;
      }
      if (i > 300) throw new Error(`no resize result: ${JSON.stringify(s).slice(0, 300)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    await first.close();

    const second = await startLocalService({ dataDir });
    try {
      const ended = await waitForEnd(url.replace(first.url, second.url));
      expect(ended.error).toBe('ASSEMBLY_CRASHED');
    } finally {
      await second.close();
    }
    const third = await startLocalService({ dataDir });
    await third.close();
    const db = openDatabase(dataDir);
    try {
      const row = db.usage.get(String(created.body.assembly_id));
      expect(row).toMatchObject({ outcome: 'erroneous', errorCode: 'ASSEMBLY_CRASHED', filesUploaded: 2, bytesUploaded: photo.length + video.length, outputFiles: 1 });
      // The encode never finished: only the resize's input is counted.
      expect(row!.robots).toEqual({ '/image/resize': photo.length });
      const day = db.usage.buckets({ fromMs: Date.now() - 3600_000, toMs: Date.now() + 1000, bucketMs: 7200_000, region: null });
      expect(day.map((b) => b.assemblies)).toEqual([1]);
    } finally {
      db.close();
    }
  }, 60_000);
});
