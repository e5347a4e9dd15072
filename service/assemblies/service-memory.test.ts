// Issue 27: the local service's memory depends on the work in flight, not on the work done. A 100,000-file
// run grew it to 8 GB (every small upload cost two 1 MiB hashing buffers, left to the allocator); a user's
// laptop would have killed it or swapped. Guard: after 5,000 files in 5 Assemblies the service holds about
// what it held after 500 — measured after a full collection, JS heap and resident memory both.
import { createHash, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildForm, inOneHourIso, postAssembly, tempDir, waitForEnd } from '../testing/service-fixture';
import { MEMORY_PROBE_ARGS, serviceMemory, type ServiceMemory } from '../testing/service-memory';
import { spawnService, type ServiceProcess } from '../testing/service-process';

const KEY = 'memory-key';
const SECRET = randomBytes(20).toString('hex');
const FILES_PER_ASSEMBLY = 1000;

/** 1,000 files as a folder of small photos and notes gives them: mostly 0.1–3 KB, one in a hundred over the 64 KiB hashed on threads. */
const files = Array.from({ length: FILES_PER_ASSEMBLY }, (_, i) => {
  const data = randomBytes(i % 100 === 99 ? 70_000 + i : 100 + ((i * 37) % 3000));
  return { field: `file_${String(i)}`, name: `clip-${String(i).padStart(4, '0')}${i % 3 === 0 ? '.jpg' : '.bin'}`, data, md5: createHash('md5').update(data).digest('hex') };
});

describe('the local service under many small files', () => {
  let dir: string;
  let service: ServiceProcess;
  beforeAll(async () => {
    dir = await tempDir('svc-memory-');
    service = await spawnService(['--port', '0', '--data-dir', dir, '--auth-key', KEY], { ASSEMBLYLINE_AUTH_SECRET: SECRET, MEMORY_PROBE_MS: '0' }, MEMORY_PROBE_ARGS);
  });
  afterAll(async () => {
    await service?.kill();
    await rm(dir, { recursive: true, force: true });
  });

  /** One Assembly of the first `count` files, to its end; every file listed once with the md5 of what was sent. */
  async function assembly(count: number): Promise<void> {
    const params = { auth: { key: KEY, expires: inOneHourIso() }, steps: { ':original': { robot: '/upload/handle' } } };
    const created = await postAssembly(service.url, buildForm({ params, secret: SECRET, files: files.slice(0, count) }));
    expect(created.status).toBe(200);
    const end = await waitForEnd(String(created.body.assembly_ssl_url), 120_000);
    expect(end.ok).toBe('ASSEMBLY_COMPLETED');
    const uploads = end.uploads as Array<{ field: string; md5hash: string }>;
    expect(uploads.map((u) => [u.field, u.md5hash])).toEqual(files.slice(0, count).map((f) => [f.field, f.md5]));
  }

  it('holds as much after 5,000 files in 5 Assemblies as after 500', async () => {
    await assembly(500);
    const after500 = await serviceMemory(service);
    const seen: ServiceMemory[] = [];
    for (let i = 0; i < 5; i++) {
      await assembly(FILES_PER_ASSEMBLY);
      seen.push(await serviceMemory(service));
      // Fail at the first Assembly past the bound: a leak of the old size would take gigabytes to finish the run.
      expect(seen.at(-1)!.rssMb, `resident memory after ${String((i + 1) * FILES_PER_ASSEMBLY)} files (after 500: ${String(after500.rssMb)} MB)`).toBeLessThan(after500.rssMb + 150);
    }
    const last = seen.at(-1)!;
    // What the service keeps of a finished Assembly lives in SQLite, not in its heap.
    expect(last.heapUsedMb, `heap after 5,000 files (after 500: ${String(after500.heapUsedMb)} MB)`).toBeLessThan(after500.heapUsedMb + 16);
  }, 600_000);
});
