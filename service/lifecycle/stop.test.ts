// A stopped service writes nothing more into its data folder: the app removes or reopens that folder
// right after (a reset, a test's clean-up, the next start), and a late write fails that or is lost.
import { readdirSync, statSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startLocalService } from '../index';
import { buildForm, getJson, inOneHourIso, postAssembly, tempDir } from '../testing/service-fixture';
import { pbkdf2 } from 'node:crypto';
import sharp from 'sharp';

/**
 * Every path under `dir` with its size, sorted: what a later write would change. Read synchronously: an
 * asynchronous read would queue behind the very file work it is looking for.
 */
function snapshot(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((e) => {
      const path = join(e.parentPath, e.name);
      return `${path.slice(dir.length)} ${e.isFile() ? statSync(path, { throwIfNoEntry: false })?.size : 'dir'}`;
    })
    .sort();
}

describe('stopping the service', () => {
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown): void => {
    rejections.push(reason);
  };
  beforeEach(() => {
    rejections.length = 0;
    process.on('unhandledRejection', onRejection);
  });
  afterEach(() => {
    process.off('unhandledRejection', onRejection);
  });

  it('right after its start, has made what it makes at start before it says it stopped, with no error left behind', async () => {
    for (let round = 0; round < 3; round += 1) {
      const dataDir = await tempDir('svc-stop-');
      // A busy machine: file work the service queues at start waits behind these on Node's worker threads.
      const busy = Array.from({ length: 4 }, () => new Promise((r) => pbkdf2('x', 'y', 400_000, 32, 'sha256', r)));
      const service = await startLocalService({ dataDir });
      await service.close();
      const atStop = snapshot(dataDir);
      await Promise.all(busy);
      expect(snapshot(dataDir)).toEqual(atStop);
      await rm(dataDir, { recursive: true });
    }
    // An unhandled rejection is reported on a later turn of the event loop.
    await new Promise((r) => setTimeout(r, 50));
    expect(rejections.map(String)).toEqual([]);
  });

  it('while a step resizes a large image (which no abort stops), ends that step before it says it stopped', async () => {
    const dataDir = await tempDir('svc-stop-');
    const huge = await sharp({ create: { width: 5000, height: 3500, channels: 3, background: '#246' } }).png({ compressionLevel: 1 }).toBuffer();
    const service = await startLocalService({ dataDir });
    try {
      const params = {
        auth: { key: service.authKey, expires: inOneHourIso() },
        steps: { ':original': { robot: '/upload/handle' }, big: { use: ':original', robot: '/image/resize', width: 4500, height: 3000, format: 'png', result: true } },
      };
      const created = await postAssembly(service.url, buildForm({ params, files: [{ field: 'f', name: 'huge.png', data: huge, type: 'image/png' }] }));
      expect(created.status).toBe(200);
      const statusUrl = String(created.body.assembly_ssl_url);
      // The resize has begun once its step's folder is made.
      const stepStarted = (): boolean => snapshot(dataDir).some((l) => /\/results\/\d+-big dir$/.test(l));
      for (let i = 0; !stepStarted(); i += 1) {
        if (i > 1_500) throw new Error(`the resize never started: ${JSON.stringify((await getJson(statusUrl)).body.ok)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      await service.close();
    }
    const atStop = snapshot(dataDir);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(snapshot(dataDir)).toEqual(atStop);
    await rm(dataDir, { recursive: true });
    expect(rejections.map(String)).toEqual([]);
  });
});
