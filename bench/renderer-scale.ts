/**
 * P3 (issue 11), the renderer's part: 100,000 files queued and transferring, and no long task (> 50 ms) in
 * the page. The real app: the production build of the renderer in headless Chromium (/usr/bin/chromium),
 * the browser host, core and its embedded local service. A folder of BENCH_FILES (100,000) small files in
 * bench/.tmp (kept for the next run) is added to the Upload view's draft as a picked folder (core walks
 * it), "Just store the originals" is chosen and Start pressed, as a user would; the Transfers view then
 * scrolls its list (BENCH_SCROLL_PX per frame, up and down) while the queue transfers.
 *
 * A PerformanceObserver for 'longtask' records, per phase:
 * - **transferring**: from Start until every file is verified (at most BENCH_MAX_S seconds), scrolling;
 * - reference **bare page**: the same observer in an empty page of the same browser, at the same time,
 *   doing nothing (what the starved machine alone costs a page);
 * - reference **finished**: the Transfers view with the queue done, scrolling as before, BENCH_IDLE_S s.
 * Goal: no long task over 50 ms while transferring. `BENCH_PROFILE=1` also records a CPU profile of the
 * page (CDP Profiler) during the transfer and prints where its time went (bench/.tmp/renderer-scale.cpuprofile).
 *
 *   npm run -s build && npm run bench:renderer-scale
 *   BENCH_FILES=20000 npm run bench:renderer-scale
 *
 * The folder is added through the host, as Electron's picker does (core registers the root, the page
 * gets a handle): the browser host's own folder picking is checked by e2e/specs/folder-pick.spec.ts, and
 * Chromium's cost of reading a picked folder is its own, not the queue's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { access, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from 'playwright-core';
import { createRecordingDesktop } from '../electron/core/ports/recording-desktop';
import { createFileSecretStore } from '../electron/core/vault/file-secret-store';
import { launchBrowserApp, type BrowserApp } from '../electron/web/launch';
import { cpuSeconds, fmt, ROOT, runBench, verdict } from './lib/bench-kit';
import { collectLongTasks, observeLongTasks, type LongTasks } from './lib/app-kit';
import { makeSmallFileTree } from './lib/file-tree';
import { summarizeProfile, type CpuProfile } from './lib/profile-summary';
import { summarizeTrace, type TraceEvent } from './lib/trace-summary';

const FILES = Number(process.env.BENCH_FILES ?? 100_000);
const MAX_S = Number(process.env.BENCH_MAX_S ?? 600);
const IDLE_S = Number(process.env.BENCH_IDLE_S ?? 20);
const SCROLL_PX = Number(process.env.BENCH_SCROLL_PX ?? 60);
const PROFILE = process.env.BENCH_PROFILE === '1';
/** BENCH_TRACE=1: a Chromium trace of the transferring phase, its main-thread time by kind of work. */
const TRACE = process.env.BENCH_TRACE === '1';
/**
 * BENCH_BUSY_MS=n: one more reference, a page in its own renderer process spending n ms of plain
 * JavaScript per animation frame (set it to the Transfers view's own CPU per frame, from the trace): the
 * long tasks a page that busy gets from the machine alone.
 */
const BUSY_MS = Number(process.env.BENCH_BUSY_MS ?? 0);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const TMP = path.join(ROOT, 'bench/.tmp');
const LIMIT_MS = 50;

/** The browser globals the page-side code uses (this file is typed for Node, without the DOM's types). */
interface PageGlobals {
  __scrolling: boolean;
}

/**
 * CPU seconds used so far by the browser's processes (renderers, GPU/display compositor, browser): the
 * Chromium descendants of this process, from /proc. Painting and compositing in software (no GPU here)
 * costs CPU outside the page's main thread too, on the same two cores.
 */
function browserCpuSeconds(): number {
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      parent.set(Number(name), Number(fields[1]));
      comm.set(Number(name), stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
    } catch {
      // gone meanwhile
    }
  }
  const isOurs = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const [pid, name] of comm) if (/chrom/i.test(name) && isOurs(pid)) total += cpuSeconds(pid);
  return total;
}

/**
 * Scrolls the queue list up and down by `px` per animation frame until stopped (the user flicking through
 * it). A string: tsx names inner functions with a helper the page does not have.
 */
const startScrolling = (page: Page, px: number) =>
  page.evaluate(`(() => {
    let el = document.querySelector('[role="grid"][aria-label="Files in the transfer queue"]');
    while (el && el.scrollHeight <= el.clientHeight) el = el.parentElement;
    if (!el) throw new Error('no scrollable queue list');
    let dir = 1;
    globalThis.__scrolling = true;
    const frame = () => {
      if (!globalThis.__scrolling) return;
      const max = el.scrollHeight - el.clientHeight;
      if (el.scrollTop + ${String(px)} * dir > max || el.scrollTop + ${String(px)} * dir < 0) dir = -dir;
      el.scrollTop += ${String(px)} * dir;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })()`);
const stopScrolling = (page: Page) => page.evaluate(() => void ((globalThis as unknown as PageGlobals).__scrolling = false));

const line = (name: string, t: LongTasks, seconds: number) =>
  `${name.padEnd(34)} ${String(t.count).padStart(5)} long tasks in ${fmt(seconds, 0).padStart(4)} s  max ${fmt(t.max, 0).padStart(4)} ms  p95 ${fmt(t.p95, 0).padStart(4)} ms  > 50 ms: ${String(t.over50).padStart(4)}  total ${fmt(t.totalMs / 1000, 2)} s`;

/** Where the page's main thread spent the traced time (lib/trace-summary.ts), on the thread that scrolled. */
function mainThreadTime(trace: { traceEvents: TraceEvent[] }): string[] {
  // The app's main thread: the busiest renderer main thread that dispatched scroll events (the references do not scroll).
  const key = (e: TraceEvent) => `${String(e.pid)}:${String(e.tid)}`;
  const scrolled = new Set(trace.traceEvents.filter((e) => e.name === 'EventDispatch' && e.args?.data?.type === 'scroll').map(key));
  const mains = new Set(trace.traceEvents.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map(key).filter((k) => scrolled.has(k)));
  const busy = new Map<string, number>();
  for (const e of trace.traceEvents) if (e.name === 'RunTask' && e.dur && mains.has(key(e))) busy.set(key(e), (busy.get(key(e)) ?? 0) + e.dur);
  const thread = [...busy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
  return summarizeTrace(trace.traceEvents, LIMIT_MS, thread);
}

async function main(): Promise<void> {
  // BENCH_RENDERER_DIR: another build of the renderer (e.g. `vite build --minify false`, for readable profiles).
  const rendererDir = process.env.BENCH_RENDERER_DIR ?? path.join(ROOT, 'dist/renderer');
  const pageBridgeFile = path.join(ROOT, 'dist/web/page-bridge.js');
  await access(pageBridgeFile).catch(() => {
    throw new Error('dist/ is missing: run `npm run -s build` first.');
  });
  const root = path.join(TMP, `renderer-scale-${String(FILES)}`, 'shoot');
  console.log(`folder: ${String(FILES)} small files in ${path.relative(ROOT, root)} (made once, kept)…`);
  // .txt: the service probes media files with ffprobe, a process per file; the page's work is the same.
  await makeSmallFileTree(root, FILES, { reuse: true, ext: '.txt' });

  const dir = await mkdtemp(path.join(tmpdir(), 'bench-renderer-scale-'));
  let app: BrowserApp | null = null;
  let browser: Browser | null = null;
  try {
    const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    app = await launchBrowserApp({
      dataDir: path.join(dir, 'data'),
      downloadsDir: path.join(dir, 'downloads'),
      rendererDir,
      pageBridgeFile,
      version,
      secretStore: createFileSecretStore(path.join(dir, 'secrets.json')),
      desktop: createRecordingDesktop(),
      // On a starved machine a busy service answers health checks late; a restart mid-run would spoil the run.
      localService: { supervision: { healthTimeoutMs: 30_000, maxHealthFailures: 10 } },
    });
    const stop = () => void Promise.allSettled([browser?.close(), app?.close()]).finally(() => process.exit(130));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const ui = await context.newPage();
    const errors: string[] = [];
    ui.on('pageerror', (e) => errors.push(e.message));
    await ui.goto(app.host.url);
    await ui.getByRole('button', { name: /^Start/ }).waitFor();

    // The bare page: its own context (its own renderer process), in the same browser.
    const bare = await (await browser.newContext()).newPage();
    await bare.setContent('<!doctype html><title>bare</title><p>nothing</p>');
    const busy = BUSY_MS > 0 ? await (await browser.newContext()).newPage() : null;
    if (busy) {
      await busy.setContent('<!doctype html><title>busy</title><p>busy</p>');
      await busy.evaluate(`(() => {
        const frame = () => { const end = performance.now() + ${String(BUSY_MS)}; while (performance.now() < end); requestAnimationFrame(frame); };
        requestAnimationFrame(frame);
      })()`);
    }

    // The folder as a picked root (Electron's preload registers real paths the same way).
    const handle = app.core.files.register(root);
    const added = await ui.evaluate(async (h) => {
      const bridge = (globalThis as unknown as { assemblyline: { invoke(c: string, r: unknown): Promise<{ ok: boolean }> } }).assemblyline;
      return (await bridge.invoke('drafts:add', { handles: [h] })).ok;
    }, handle);
    if (!added) throw new Error('drafts:add refused the folder');
    const startButton = ui.getByRole('button', { name: `Start · ${FILES.toLocaleString('en-US')} files` });
    const t0 = Date.now();
    await ui.getByText('Just store the originals').click();
    await startButton.waitFor({ timeout: 300_000 });
    console.log(`draft walked and planned: ${fmt((Date.now() - t0) / 1000, 1)} s`);

    let cdp: CDPSession | null = null;
    if (PROFILE) {
      cdp = await context.newCDPSession(ui);
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 500 });
    }
    await observeLongTasks(ui);
    await observeLongTasks(bare);
    if (busy) await observeLongTasks(busy);
    const started = Date.now();
    const cpuAtStart = browserCpuSeconds();
    await startButton.click();
    await ui.getByRole('heading', { name: 'Transfers' }).waitFor();
    await ui.getByRole('grid', { name: 'Files in the transfer queue' }).getByTestId('transfer-batch').first().waitFor();
    if (cdp) await cdp.send('Profiler.start');
    if (TRACE) await browser.startTracing(ui, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
    await startScrolling(ui, SCROLL_PX);

    // Until every file is verified (the engine's own count), or the time is up.
    let verified = 0;
    for (let tick = 1; ; tick++) {
      verified = app.core.transfers.rows({ offset: 0, limit: 1, states: ['verified'] }).total;
      if (verified >= FILES || Date.now() - started > MAX_S * 1000) break;
      await new Promise((r) => setTimeout(r, 1000));
      if (tick % 15 === 0) {
        const { totals, batches } = app.core.transfers.overview();
        const states = new Map<string, number>();
        for (const b of batches) states.set(b.state, (states.get(b.state) ?? 0) + 1);
        console.log(`  ${String(tick)} s: ${String(totals.filesDone)} done, ${String(totals.filesActive)} active, ${String(totals.filesQueued)} queued, ${String(totals.filesFailed)} failed; batches ${[...states].map(([k, v]) => `${k} ${String(v)}`).join(', ')}`);
      }
    }
    const transferS = (Date.now() - started) / 1000;
    const transferCpu = browserCpuSeconds() - cpuAtStart;
    await stopScrolling(ui);
    const transferring = await collectLongTasks(ui);
    let traceLines: string[] = [];
    if (TRACE) {
      const raw = await browser.stopTracing();
      await writeFile(path.join(TMP, 'renderer-scale-trace.json'), raw);
      traceLines = mainThreadTime(JSON.parse(raw.toString()) as { traceEvents: TraceEvent[] });
    }
    const bareTasks = await collectLongTasks(bare);
    const busyTasks = busy ? await collectLongTasks(busy) : null;
    await busy?.close();
    let profileLines: string[] = [];
    if (cdp) {
      const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
      await writeFile(path.join(TMP, 'renderer-scale.cpuprofile'), JSON.stringify(profile));
      profileLines = summarizeProfile(profile);
    }

    await new Promise((r) => setTimeout(r, 2000));
    await observeLongTasks(ui);
    const cpuAtIdle = browserCpuSeconds();
    await startScrolling(ui, SCROLL_PX);
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    await stopScrolling(ui);
    const finishedCpu = browserCpuSeconds() - cpuAtIdle;
    const finished = await collectLongTasks(ui);

    console.log('');
    console.log(`${String(verified)} of ${String(FILES)} files verified after ${fmt(transferS, 1)} s (${fmt(verified / transferS, 0)} files/s), the list scrolled ${String(SCROLL_PX)} px per frame`);
    console.log(line('transferring (Transfers view)', transferring, transferS));
    console.log(line('reference: bare page, same time', bareTasks, transferS));
    if (busyTasks) console.log(line(`reference: ${String(BUSY_MS)} ms of JS per frame`, busyTasks, transferS));
    console.log(line('reference: queue finished', finished, IDLE_S));
    console.log(`browser CPU (all Chromium processes) per second: transferring ${fmt(transferCpu / transferS, 2)} s, queue finished ${fmt(finishedCpu / IDLE_S, 2)} s`);
    for (const l of profileLines) console.log(l);
    for (const l of traceLines) console.log(l);
    if (errors.length > 0) console.log(`page errors: ${errors.join(' | ')}`);
    console.log('');
    console.log(`longest renderer task while transferring: ${fmt(transferring.max, 0)} ms (${verdict(transferring.max <= LIMIT_MS)} the goal of ≤ 50 ms); the bare page's longest: ${fmt(bareTasks.max, 0)} ms`);
    console.log(`long-task time per second: transferring ${fmt(transferring.totalMs / transferS, 1)} ms, bare page ${fmt(bareTasks.totalMs / transferS, 1)} ms, finished ${fmt(finished.totalMs / IDLE_S, 1)} ms`);
    if (verified < FILES) console.log(`NOTE: the transfer did not finish within ${String(MAX_S)} s`);
  } finally {
    await browser?.close();
    await app?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

runBench(main);
