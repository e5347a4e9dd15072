/**
 * Stored-asset listing at scale (issue 14: "listing 100,000 assets by prefix must stay fast"). The local
 * service runs in its own process; 100,000 assets (`BENCH_ASSETS`) are seeded through the service's own
 * asset store (the same code /transloadit/store uses, so the folder counts and indexes are the real ones)
 * into 100 top-level folders × 10 subfolders. Then, alternating, each timed over `BENCH_ROUNDS` (default
 * 40) signed requests, median in ms:
 *
 *   - reference: `GET /assemblies` first page (50 Assemblies exist);
 *   - `GET /dam/assets` with a folder prefix (1,000 assets below it), first page of 100;
 *   - the same with `delimiter=/` at the root (100 folders, the root's own assets);
 *   - page 8 of a prefix by cursor (the cursor is a seek, not an offset);
 *   - the whole workspace, a page of 500 (the largest page; shown, not part of the goal: it carries 10×
 *     the records of the reference page).
 *
 * It prints each row's ratio to the reference. Goal: every default-size listing ≤ 2 × the Assemblies page.
 *
 *   npm run bench:asset-list
 *   BENCH_ASSETS=20000 npm run bench:asset-list
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { openAssetStore } from '../service/assets/asset-store';
import { signParams } from '../service/auth/signature';
import { fmt, runBench, seconds, verdict, withBenchService, type BenchService } from './lib/bench-kit';

const ASSETS = Number(process.env.BENCH_ASSETS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 40);
const ASSEMBLIES = 50;
const GOAL = 2;

const signedUrl = (s: BenchService, p: string, extra: Record<string, unknown> = {}): string => {
  const params = JSON.stringify({ auth: { key: s.authKey, expires: new Date(Date.now() + 3600_000).toISOString() }, ...extra });
  return `${s.url}${p}?${new URLSearchParams({ params, signature: signParams(params, s.authSecret, 'sha384') })}`;
};

async function getOk(url: string): Promise<Record<string, unknown>> {
  const res = await fetch(url);
  const body = (await res.json()) as Record<string, unknown>;
  if (res.status !== 200) throw new Error(`${url.split('?')[0]}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  return body;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function seed(dataDir: string, dir: string): Promise<number> {
  const file = path.join(dir, 'seed.bin');
  await writeFile(file, Buffer.alloc(2048, 7));
  const store = openAssetStore(dataDir);
  const t0 = process.hrtime.bigint();
  const sha256 = 'a'.repeat(64);
  try {
    for (let i = 0; i < ASSETS; i++) {
      const top = String(i % 100).padStart(3, '0');
      const sub = String(Math.floor(i / 100) % 10);
      const where = i % 1000 === 0 ? `root-${i}.bin` : `folder-${top}/sub-${sub}/file-${String(i).padStart(6, '0')}.bin`;
      const r = await store.store('local', where, { localPath: file, size: 2048, mime: 'application/octet-stream', md5hash: 'b'.repeat(32), sha256 }, 'error', Date.now());
      if (!r.ok) throw new Error(`seed: ${where} exists`);
    }
  } finally {
    store.close();
  }
  return seconds(t0);
}

async function main(): Promise<void> {
  await withBenchService('bench-assets-', async (dir, service) => {
    console.log(`Seeding ${ASSETS.toLocaleString('en')} assets…`);
    const seeded = await seed(path.join(dir, 'service'), dir);
    console.log(`  seeded in ${fmt(seeded)} s (${fmt(ASSETS / seeded, 0)} assets/s)`);
    for (let i = 0; i < ASSEMBLIES; i++) {
      const params = JSON.stringify({ auth: { key: service.authKey, expires: new Date(Date.now() + 3600_000).toISOString() }, steps: { ':original': { robot: '/upload/handle' } } });
      const form = new FormData();
      form.set('params', params);
      form.set('signature', signParams(params, service.authSecret, 'sha384'));
      await fetch(`${service.url}/assemblies`, { method: 'POST', body: form });
    }

    // The cursor of page 8 of one folder, found once (following it is what is timed).
    let cursor: unknown = null;
    for (let page = 1; page < 8; page++) cursor = (await getOk(signedUrl(service, '/dam/assets', { prefix: 'folder-042/', limit: 100, ...(cursor ? { cursor } : {}) }))).next_cursor;
    const rows: { name: string; url: () => string; check(body: Record<string, unknown>): void; goal?: false }[] = [
      { name: 'GET /assemblies, first page (reference)', url: () => signedUrl(service, '/assemblies'), check: () => undefined },
      { name: 'GET /dam/assets prefix (1,000 below), 100', url: () => signedUrl(service, '/dam/assets', { prefix: 'folder-042/', limit: 100 }), check: (b) => expectCount(b, Math.min(100, Math.floor(ASSETS / 100) - 1)) },
      { name: 'GET /dam/assets root, delimiter "/"', url: () => signedUrl(service, '/dam/assets', { delimiter: '/' }), check: (b) => expectFolders(b, 100) },
      { name: 'GET /dam/assets prefix, page 8 by cursor', url: () => signedUrl(service, '/dam/assets', { prefix: 'folder-042/', limit: 100, cursor }), check: (b) => expectCount(b, ASSETS >= 100_000 ? 100 : 0) },
      { name: 'GET /dam/assets workspace, 500', url: () => signedUrl(service, '/dam/assets', { limit: 500 }), check: (b) => expectCount(b, Math.min(500, ASSETS)), goal: false },
    ];
    const times = rows.map(() => [] as number[]);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, row] of rows.entries()) {
        const url = row.url();
        const t0 = process.hrtime.bigint();
        const body = await getOk(url);
        times[i]!.push(seconds(t0) * 1000);
        if (round === 0) row.check(body);
      }
    }
    const reference = median(times[0]!);
    console.log(`\n${ASSETS.toLocaleString('en')} assets, ${ROUNDS} rounds, medians:`);
    let worst = 0;
    for (const [i, row] of rows.entries()) {
      const ms = median(times[i]!);
      const ratio = ms / reference;
      if (i > 0 && row.goal !== false) worst = Math.max(worst, ratio);
      console.log(`  ${row.name.padEnd(46)} ${fmt(ms, 2).padStart(8)} ms   ×${fmt(ratio, 2)}${row.goal === false ? '  (not in the goal)' : ''}`);
    }
    console.log(`\nWorst listing / Assemblies page: ${fmt(worst, 2)} (goal ≤ ${GOAL}: ${verdict(worst <= GOAL)})`);
  });
}

/** At least `n` assets came back (a smaller seed has fewer per folder). */
function expectCount(body: Record<string, unknown>, n: number): void {
  const got = (body.assets as unknown[]).length;
  if (got < n) throw new Error(`expected ${n} assets, got ${got}`);
}

function expectFolders(body: Record<string, unknown>, n: number): void {
  const got = (body.folders as unknown[]).length;
  if (got !== n) throw new Error(`expected ${n} folders, got ${got}`);
}

runBench(main);
