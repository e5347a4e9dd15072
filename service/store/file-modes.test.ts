// Finding 5 of issue 10: the service's data folder and database (every Auth Secret, every Template
// credential) were world-readable. After a real start they are 0700/0600, and a start over an older,
// world-readable install tightens them.
import { chmod, mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { signParams } from '../auth/signature';
import { startLocalService, type LocalService } from '../index';
import { startFixture, tempDir, type Fixture } from '../testing/service-fixture';

const modeOf = async (p: string): Promise<number> => (await stat(p)).mode & 0o777;
const octal = (m: number): string => m.toString(8);

let fx: Fixture | null = null;
afterEach(async () => {
  await fx?.stop();
  fx = null;
});

/** A service started here, stopped (and its folder removed) after the test. */
const track = (service: LocalService, dataDir: string): Fixture => ({
  service,
  dataDir,
  stop: async () => {
    await service.close();
    await rm(dataDir, { recursive: true, force: true });
  },
});

async function modes(dataDir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = { '.': octal(await modeOf(dataDir)) };
  for (const name of await readdir(dataDir)) if (name.startsWith('service.sqlite')) out[name] = octal(await modeOf(join(dataDir, name)));
  return out;
}

describe('file modes of the service data', () => {
  it('creates the data folder 0700 and the database with its -wal and -shm 0600, credentials included', async () => {
    fx = await startFixture();
    // A Template credential holds a third-party secret: written through the real endpoint.
    const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: new Date(Date.now() + 60_000).toISOString() }, name: 'my-bucket', type: 's3', content: { key: 'AKIA', secret: 's3-secret' } });
    const res = await fetch(`${fx.service.url}/template_credentials`, { method: 'POST', body: new URLSearchParams({ params, signature: signParams(params, fx.service.authSecret) }) });
    expect(res.status).toBe(200);
    expect(await modes(fx.dataDir)).toEqual({ '.': '700', 'service.sqlite': '600', 'service.sqlite-wal': '600', 'service.sqlite-shm': '600' });
  });

  it('tightens a world-readable folder, database and leftover -wal/-shm of an older install on start', async () => {
    const dataDir = await tempDir('svc-modes-');
    const first = await startLocalService({ dataDir });
    await first.close();
    // As an older version (or a crash) left it: 0755 folder, 0644 files, side files still there.
    await chmod(dataDir, 0o755);
    await chmod(join(dataDir, 'service.sqlite'), 0o644);
    for (const side of ['-wal', '-shm']) await writeFile(join(dataDir, `service.sqlite${side}`), '', { mode: 0o644 });
    const service = await startLocalService({ dataDir });
    fx = track(service, dataDir);
    expect(await modes(dataDir)).toEqual({ '.': '700', 'service.sqlite': '600', 'service.sqlite-wal': '600', 'service.sqlite-shm': '600' });
  });

  it("leaves the mode of a folder that already held other things (--data-dir ~), but not the database's", async () => {
    const dataDir = await tempDir('svc-shared-');
    await writeFile(join(dataDir, 'notes.txt'), 'mine');
    await mkdir(join(dataDir, 'projects'));
    await chmod(dataDir, 0o755);
    const service = await startLocalService({ dataDir });
    fx = track(service, dataDir);
    expect(await modes(dataDir)).toEqual({ '.': '755', 'service.sqlite': '600', 'service.sqlite-wal': '600', 'service.sqlite-shm': '600' });
    // Nor on the next start, now that the database is there too.
    await service.close();
    const again = await startLocalService({ dataDir });
    fx = track(again, dataDir);
    expect((await modes(dataDir))['.']).toBe('755');
  });
});
