/**
 * P3 (issue 11), the core's part: 100,000 files queued and transferring. A folder of BENCH_FILES (100,000)
 * small files is walked (streaming, as the drafts' walk hands files over while it runs) into the transfer
 * engine; measured: the time from `start` to the first request on the wire (the first batch's create
 * request), the peak RSS of this process (the core) while the queue fills and transfers, and the time to
 * queue every file. Goals: first byte ≤ 2 s after start; core RSS < 500 MB; the service's RSS ≤ 1 GB and
 * ≥ 500 files/s end to end (issue 27). (The renderer's long tasks
 * are measured in a browser by the UI's own benchmark.)
 *
 *   npm run bench:transfer-scale
 *   BENCH_FILES=20000 BENCH_UNTIL=queued npm run bench:transfer-scale   # stop once every file is queued
 *
 * Reference in the same run: the same walk alone (no engine), to show what the queue costs on top.
 */
import { loadavg } from 'node:os';
import path from 'node:path';
import type { DraftFeed } from '../electron/core/transfers/draft-feed';
import { openEngine } from '../electron/core/transfers/testing/engine-fixture';
import { cpuSeconds, MiB as MB, profileArgs, rssOf, runBench, verdict, withBenchService } from './lib/bench-kit';
import { makeSmallFileTree, walkTree as walk } from './lib/file-tree';

const FILES = Number(process.env.BENCH_FILES ?? 100_000);
const UNTIL = process.env.BENCH_UNTIL ?? 'done';
/** Every this many files, the service's heap is measured after a full collection. */
const CHECKPOINT = Number(process.env.BENCH_CHECKPOINT ?? 10_000);

async function main(): Promise<void> {
  await withBenchService('bench-transfer-scale-', async (dir, service) => {
    const root = path.join(dir, 'shoot');
    console.log(`writing ${String(FILES)} files…`);
    await makeSmallFileTree(root, FILES);

    let t0 = process.hrtime.bigint();
    let n = 0;
    for await (const _ of walk(root)) n++;
    const walkS = Number(process.hrtime.bigint() - t0) / 1e9;
    console.log(`reference: the walk alone: ${String(n)} files in ${walkS.toFixed(2)} s`);

    const h = await openEngine(service, path.join(dir, 'core'));
    let peak = process.memoryUsage().rss;
    let servicePeak = 0;
    const servicePid = service.child.pid;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
      const r = rssOf(servicePid);
      if (r > servicePeak) servicePeak = r;
    }, 100);
    /** The service's last memory line of a kind (memory-probe.mjs): `tick` every 2 s, `gc` after a full collection. */
    const probe = (kind: 'tick' | 'gc'): string => {
      const out = service.output();
      const at = out.lastIndexOf(`memory-probe ${kind} `);
      return at < 0 ? '' : out.slice(at + 14 + kind.length, out.indexOf('\n', at));
    };
    let done = 0;
    let nextCheckpoint = CHECKPOINT;
    const gcLines: string[] = [];
    const progressLog = setInterval(() => {
      console.log(`  … ${String(done)} files verified; service RSS ${(rssOf(servicePid) / MB).toFixed(0)} MB (peak ${(servicePeak / MB).toFixed(0)}), CPU ${cpuSeconds(servicePid).toFixed(1)} s [${probe('tick')}]; core RSS ${(process.memoryUsage().rss / MB).toFixed(0)} MB`);
    }, 10_000);
    try {
      const feed: DraftFeed = { label: 'shoot', files: walk(root), skip: { include: [], exclude: [], skipHidden: true, minBytes: null, maxBytes: null, skipUnchanged: false } };
      t0 = process.hrtime.bigint();
      const started = await h.engine.start({ instructions: { steps: { ':original': { robot: '/upload/handle' } } }, feed });
      if (!started.ok) throw new Error(started.error.message);
      const id = started.value.id;
      let firstByteS: number | null = null;
      let queuedS: number | null = null;
      /** Files verified per second, start to done (issue 27's goal: ≥ 500 end to end). */
      let rate = null as number | null;
      // Until the first request: poll (little is queued yet). Then follow transfers:changed as the page
      // does: polling overview() for 100,000 rows many times a second would itself be the load measured.
      while (firstByteS === null) {
        if (h.engine.batchesOf(id).some((b) => b.state !== 'queued')) firstByteS = Number(process.hrtime.bigint() - t0) / 1e9;
        else await new Promise((r) => setTimeout(r, 10));
      }
      await new Promise<void>((resolve) => {
        const off = h.events.on((name, payload) => {
          if (name !== 'transfers:changed') return;
          const t = (payload as { transfers: Array<{ id: string; scanning: boolean; state: string; filesTotal: number; filesDone: number; filesFailed: number }> }).transfers.find((x) => x.id === id);
          if (!t) return;
          const elapsed = Number(process.hrtime.bigint() - t0) / 1e9;
          done = t.filesDone;
          if (done >= nextCheckpoint) {
            // The service's heap after a full collection: what it retains, against the files done.
            nextCheckpoint += CHECKPOINT;
            const at = done;
            service.child.kill('SIGUSR2');
            setTimeout(() => {
              gcLines.push(`${String(at)} files: ${probe('gc')}`);
              console.log(`  service after a full GC at ${gcLines.at(-1)!}`);
            }, 1500);
          }
          if (queuedS === null && !t.scanning) {
            queuedS = elapsed;
            console.log(`all ${String(t.filesTotal)} files queued after ${queuedS.toFixed(2)} s (${String(t.filesDone)} already sent); RSS peak so far ${(peak / MB).toFixed(0)} MB`);
            if (UNTIL === 'queued') return void (off(), resolve());
          }
          if (t.state === 'done') {
            rate = t.filesDone / elapsed;
            console.log(`done: ${String(t.filesDone)} files (${String(t.filesFailed)} failed) in ${elapsed.toFixed(1)} s = ${rate.toFixed(0)} files/s`);
            for (const b of h.engine.batchesOf(id).filter((x) => x.state !== 'completed').slice(0, 5)) console.log(`  batch ${String(b.seq)} ${b.state}: ${b.error?.message ?? ''}`);
            off();
            resolve();
          }
        });
      });
      const rowsStart = process.hrtime.bigint();
      const page = h.engine.rows({ offset: 50_000, limit: 200, search: 'clip-09' });
      const rowsMs = Number(process.hrtime.bigint() - rowsStart) / 1e6;
      console.log(`transfers:rows (offset 50,000, search) over ${String(page.total)} matches: ${rowsMs.toFixed(1)} ms`);
      console.log('');
      console.log(`first request on the wire: ${(firstByteS ?? NaN).toFixed(2)} s after start (${verdict(firstByteS !== null && firstByteS <= 2)} the goal of ≤ 2 s)`);
      const mem = process.memoryUsage();
      console.log(`at the end: RSS ${(mem.rss / MB).toFixed(0)} MB, heap used ${(mem.heapUsed / MB).toFixed(0)} MB, external ${(mem.external / MB).toFixed(0)} MB, array buffers ${(mem.arrayBuffers / MB).toFixed(0)} MB`);
      console.log(`core RSS peak: ${(peak / MB).toFixed(0)} MB (${verdict(peak < 500 * MB)} the goal of < 500 MB)`);
      console.log(`service RSS peak: ${(servicePeak / MB).toFixed(0)} MB (${verdict(servicePeak <= 1024 * MB)} the goal of ≤ 1 GB); service CPU ${cpuSeconds(servicePid).toFixed(1)} s`);
      if (rate !== null) console.log(`end to end: ${rate.toFixed(0)} files/s (${verdict(rate >= 500)} the goal of ≥ 500 files/s; load ${loadavg()[0]!.toFixed(1)})`);
      if (queuedS !== null) console.log(`queueing cost: ${(queuedS / walkS).toFixed(2)} × the walk alone`);
    } finally {
      clearInterval(sampler);
      clearInterval(progressLog);
      await h.close();
    }
  }, { nodeArgs: [...profileArgs(), '--expose-gc', '--import', new URL('../service/testing/memory-probe.mjs', import.meta.url).pathname] });
}

runBench(main);
