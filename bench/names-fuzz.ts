/**
 * Issue 24's long fuzz: 10,000 generated file names through the transfer engine into the local service and
 * back down through the results mirror, each checked against the service's own records — the name byte
 * for byte, the size and the md5 — and then on disk (the bytes; the name wherever it is safe on every OS).
 * Names from service/testing/file-names.ts `linuxFileName`: copies `(1)`, quotes, `* ! ' % ; ,`, emoji,
 * NFC and NFD (an NFD twin of some names in the same folder), right-to-left text, zero-width characters,
 * leading and trailing dots and spaces, up to 255 UTF-8 bytes, and control characters (Linux allows all
 * but NUL). Sizes on both sides of the multipart/tus threshold (2 KiB here).
 *
 * The reference, in the same run and drop by drop in turn: the same sizes under plain names (`f00001.bin`).
 * It prints cases, failures and their ratio (goal: 0 in 10,000), and the time of the names against the
 * plain names (names should cost nothing). Exits 1 when a name failed.
 *
 *   npm run bench:names-fuzz
 *   BENCH_NAMES=2000 BENCH_SEED=42 npm run bench:names-fuzz   # fewer names; replay a run's names
 */
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { mirrorResults } from '../electron/core/results-mirror';
import { safeSegment } from '../electron/core/results-mirror/mirror-paths';
import { feedOf, type DraftFile } from '../electron/core/transfers/draft-feed';
import { assembliesOf, openEngine } from '../electron/core/transfers/testing/engine-fixture';
import { linuxFileName } from '../service/testing/file-names';
import { fmt, runBench, seconds, withBenchService, type BenchService } from './lib/bench-kit';

const NAMES = Number(process.env.BENCH_NAMES ?? 10_000);
/** Files per drop (one folder, one transfer). */
const DROP = Number(process.env.BENCH_DROP ?? 1_000);
const SEED = process.env.BENCH_SEED ? Number(process.env.BENCH_SEED) : Date.now() % 2 ** 31;
/** Files up to this size go in the create request (multipart), larger ones by tus. */
const THRESHOLD = 2_048;
const STEPS = { ':original': { robot: '/upload/handle', result: true } };

interface Spec {
  name: string;
  size: number;
}
interface Made extends DraftFile {
  md5: string;
}
interface Failure {
  name: string;
  why: string;
}

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
const load = () => loadavg().map((l) => fmt(l, 1)).join(' ');

/** Drops of distinct names (by bytes); about one name in eight with an accent gets its NFD (or NFC) twin beside it. */
function makeDrops(): Spec[][] {
  const size = fc.oneof({ weight: 9, arbitrary: fc.integer({ min: 0, max: THRESHOLD }) }, { weight: 1, arbitrary: fc.integer({ min: THRESHOLD + 1, max: 4 * THRESHOLD }) });
  const pool = fc.sample(fc.record({ name: linuxFileName, size, twin: fc.integer({ min: 0, max: 7 }) }), { numRuns: NAMES * 2, seed: SEED });
  const drops: Spec[][] = [];
  let drop: Spec[] = [];
  let names = new Set<string>();
  let total = 0;
  const add = (s: Spec) => {
    if (total >= NAMES || names.has(s.name)) return;
    names.add(s.name);
    drop.push(s);
    total++;
    if (drop.length === DROP) {
      drops.push(drop);
      drop = [];
      names = new Set();
    }
  };
  for (const p of pool) {
    add({ name: p.name, size: p.size });
    const other = p.name.normalize(p.name === p.name.normalize('NFC') ? 'NFD' : 'NFC');
    if (p.twin === 0 && other !== p.name && Buffer.byteLength(other) <= 255 && drop.length > 0) add({ name: other, size: p.size });
    if (total >= NAMES) break;
  }
  if (drop.length > 0) drops.push(drop);
  if (total < NAMES) throw new Error(`only ${String(total)} distinct names from seed ${String(SEED)}`);
  return drops;
}

async function writeDrop(folder: string, specs: readonly Spec[], nameOf: (s: Spec, i: number) => string): Promise<Made[]> {
  await mkdir(folder, { recursive: true });
  const out: Made[] = [];
  for (const [i, s] of specs.entries()) {
    const name = nameOf(s, i);
    const bytes = Buffer.alloc(s.size);
    for (let j = 0; j < s.size; j++) bytes[j] = (i * 31 + j * 7 + s.name.length) & 0xff;
    const file = path.join(folder, name);
    await writeFile(file, bytes);
    out.push({ path: file, relativePath: `${path.basename(folder)}/${name}`, name, size: s.size, mime: null, mtimeMs: Date.now(), md5: md5(bytes) });
  }
  return out;
}

/** One drop through engine → service → mirror; the files that did not arrive once, whole, under their name. */
async function sendDrop(service: BenchService, dataDir: string, root: string, files: readonly Made[]): Promise<{ s: number; failures: Failure[] }> {
  const h = await openEngine(service, dataDir, { multipartMaxFileBytes: THRESHOLD });
  const failures: Failure[] = [];
  const fail = (f: Made, why: string) => failures.push({ name: f.name, why });
  try {
    const start = process.hrtime.bigint();
    const started = await h.engine.start({ instructions: { steps: STEPS }, feed: feedOf(path.basename(root), files) });
    if (!started.ok) throw new Error(started.error.message);
    await h.engine.settled(started.value.id);
    const statuses = await assembliesOf(h, started.value.id);
    const out = path.join(root, 'out');
    const written: string[] = [];
    const mirrored = await mirrorResults(
      statuses.map((status) => ({ assemblyId: status.assembly_id ?? '', status, inputs: [] })),
      { outputDir: out, layout: 'flat', conflict: 'keep-both', onFile: (_e, o) => void (o.kind === 'written' && written.push(o.path)) },
    );
    const s = seconds(start);
    for (const e of mirrored.errors) failures.push({ name: e.path, why: `mirror: ${e.code} ${e.message}` });

    // The engine: every row verified.
    const rows = h.engine.rows({ transferId: started.value.id, offset: 0, limit: files.length + 10 }).rows;
    const rowState = new Map(rows.map((r) => [r.relativePath, `${r.state}${r.error ? `: ${r.error}` : ''}`]));
    // The service's records: each file once, by the name's bytes, size and md5.
    const recorded = new Map<string, number>();
    for (const st of statuses) {
      if (st.ok !== 'ASSEMBLY_COMPLETED') failures.push({ name: `(Assembly ${st.assembly_id ?? '?'})`, why: `${st.ok ?? st.error ?? '?'} ${st.message ?? ''}` });
      for (const u of st.uploads ?? []) recorded.set(`${hex(u.name ?? '')}|${u.size}|${u.md5hash}`, (recorded.get(`${hex(u.name ?? '')}|${u.size}|${u.md5hash}`) ?? 0) + 1);
    }
    // On disk: the bytes of every file; its name where that name is safe on every OS and unique without case.
    const onDisk = new Map<string, string>();
    for (const p of written) onDisk.set(path.basename(p), md5(await readFile(p)));
    const diskMd5 = new Map<string, number>();
    for (const m of onDisk.values()) diskMd5.set(m, (diskMd5.get(m) ?? 0) + 1);
    const lower = new Map<string, number>();
    for (const f of files) lower.set(safeSegment(f.name).toLowerCase(), (lower.get(safeSegment(f.name).toLowerCase()) ?? 0) + 1);
    for (const f of files) {
      const state = rowState.get(f.relativePath);
      if (state !== 'verified') fail(f, `row ${state ?? 'missing'}`);
      const n = recorded.get(`${hex(f.name)}|${f.size}|${f.md5}`) ?? 0;
      if (n !== 1) fail(f, `${String(n)} times in the service's records`);
      const left = diskMd5.get(f.md5) ?? 0;
      if (left === 0) fail(f, 'its bytes are not in the mirror');
      else diskMd5.set(f.md5, left - 1);
      const portable = safeSegment(f.name) === f.name && lower.get(f.name.toLowerCase()) === 1;
      if (portable && onDisk.get(f.name) !== f.md5) fail(f, `mirrored ${onDisk.has(f.name) ? 'with other bytes' : 'under another name'}`);
    }
    await rm(out, { recursive: true, force: true });
    return { s, failures };
  } finally {
    await h.close();
  }
}

async function main(): Promise<void> {
  const drops = makeDrops();
  const nfd = drops.flat().filter((s) => s.name !== s.name.normalize('NFC')).length;
  // eslint-disable-next-line no-control-regex
  const controls = drops.flat().filter((s) => /[\u0001-\u001f\u007f-\u009f]/.test(s.name)).length;
  const tus = drops.flat().filter((s) => s.size > THRESHOLD).length;
  console.log(`names-fuzz: ${String(NAMES)} names in ${String(drops.length)} drops, seed ${String(SEED)} (${String(nfd)} not NFC, ${String(controls)} with control characters, ${String(tus)} by tus); load ${load()}`);
  await withBenchService('bench-names-fuzz-', async (dir, service) => {
    let namesS = 0;
    let plainS = 0;
    const failures: Failure[] = [];
    for (const [k, drop] of drops.entries()) {
      const plainRoot = path.join(dir, `plain-${String(k)}`);
      const plain = await writeDrop(path.join(plainRoot, 'drop'), drop, (_s, i) => `f${String(i).padStart(5, '0')}.bin`);
      const ref = await sendDrop(service, path.join(dir, `engine-plain-${String(k)}`), plainRoot, plain);
      if (ref.failures.length > 0) throw new Error(`the reference failed: ${JSON.stringify(ref.failures.slice(0, 3))}`);
      plainS += ref.s;
      await rm(plainRoot, { recursive: true, force: true });

      const namesRoot = path.join(dir, `names-${String(k)}`);
      const named = await writeDrop(path.join(namesRoot, 'drop'), drop, (s) => s.name);
      const got = await sendDrop(service, path.join(dir, `engine-names-${String(k)}`), namesRoot, named);
      namesS += got.s;
      failures.push(...got.failures);
      await rm(namesRoot, { recursive: true, force: true });
      console.log(`  drop ${String(k + 1)}/${String(drops.length)}: ${String(drop.length)} names ${fmt(got.s)} s, plain ${fmt(ref.s)} s, ${String(got.failures.length)} failures; load ${load()}`);
    }
    const failedNames = new Set(failures.map((f) => f.name)).size;
    console.log(`\ncases ${String(NAMES)}, failed ${String(failedNames)} (ratio ${(failedNames / NAMES).toExponential(1)}; goal 0) — ${failedNames === 0 ? 'meets' : 'MISSES'}`);
    console.log(`time: names ${fmt(namesS)} s, plain names ${fmt(plainS)} s, ratio ${fmt(namesS / plainS, 2)} (start → every Assembly completed → results mirrored; the checks after); load ${load()}`);
    for (const f of failures.slice(0, 20)) console.log(`  ${JSON.stringify(f.name)}: ${f.why}`);
    if (failedNames > 0) process.exitCode = 1;
  });
}

runBench(main);
