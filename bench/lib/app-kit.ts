// The real app for a renderer benchmark: the production build of the renderer in headless Chromium
// (/usr/bin/chromium, playwright-core), the browser host, core and its embedded local service, as
// `npm start` runs them (bench/renderer-scale.ts started them the same way). Plus what the page-side
// measurements share: long tasks (PerformanceObserver 'longtask') and percentiles.
import { readFileSync } from 'node:fs';
import { access, mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createApiClient, type ApiClient } from '../../electron/core/api/api-client';
import { createRecordingDesktop } from '../../electron/core/ports/recording-desktop';
import { createFileSecretStore } from '../../electron/core/vault/file-secret-store';
import { launchBrowserApp, type BrowserApp } from '../../electron/web/launch';
import { fmt, ROOT } from './bench-kit';
import { summarizeProfile, type CpuProfile } from './profile-summary';
import { PAGE_MARK, summarizeTrace, type TraceEvent } from './trace-summary';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const LONG_TASK_MS = 50;

export interface BenchApp {
  app: BrowserApp;
  /** The app's local service, signed with the Local workspace's key and secret (as any client here would be). */
  api: ApiClient;
  authKey: string;
  authSecret: string;
  close(): Promise<void>;
}

/**
 * Core + browser host + embedded local service on `dir` (kept: a second launch on the same dir finds the
 * same service data, key and secret). Needs `npm run -s build` first.
 */
export async function launchBenchApp(dir: string): Promise<BenchApp> {
  const pageBridgeFile = path.join(ROOT, 'dist/web/page-bridge.js');
  await access(pageBridgeFile).catch(() => {
    throw new Error('dist/ is missing: run `npm run -s build` first.');
  });
  const version = (JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const app = await launchBrowserApp({
    dataDir: path.join(dir, 'data'),
    downloadsDir: path.join(dir, 'downloads'),
    rendererDir: process.env.BENCH_RENDERER_DIR ?? path.join(ROOT, 'dist/renderer'),
    pageBridgeFile,
    serviceEntry: path.join(ROOT, 'dist/electron/service-child.cjs'),
    version,
    secretStore: createFileSecretStore(path.join(dir, 'secrets.json')),
    desktop: createRecordingDesktop(),
    // On a starved machine a busy service answers health checks late; a restart mid-run would spoil the run.
    localService: { supervision: { healthTimeoutMs: 30_000, maxHealthFailures: 10 } },
  });
  const workspaces = await app.core.handlers['workspaces:list']({});
  const authKey = workspaces.ok ? (workspaces.value[0]?.authKey ?? '') : '';
  // The file secret store is not a secure vault, so core keeps Local's secret in memory only: read it where
  // the service keeps it (its own account table; the benchmark is this machine's admin).
  const authSecret = (await app.core.vault.get('local')) ?? serviceSecret(dir, authKey);
  const endpoint = app.core.localServiceUrl;
  if (!authKey || !authSecret || !endpoint) throw new Error('the app started without its local service, key or secret');
  const api = createApiClient({ endpoint, authKey, getSecret: async () => authSecret });
  return { app, api, authKey, authSecret, close: () => app.close() };
}

/** The embedded service's data folder under a bench app's dir (core puts it at `<dataDir>/local-service`). */
export const serviceDataDir = (dir: string) => path.join(dir, 'data', 'local-service');

function serviceSecret(dir: string, authKey: string): string {
  const db = new Database(path.join(serviceDataDir(dir), 'service.sqlite'), { readonly: true });
  try {
    const row = db.prepare('SELECT auth_secret AS secret FROM account WHERE auth_key = ?').get(authKey) as { secret: string } | undefined;
    return row?.secret ?? '';
  } finally {
    db.close();
  }
}

export interface BenchBrowser {
  browser: Browser;
  /** The app's page, loaded and connected to core. */
  ui: Page;
  /** An empty page in its own context (its own renderer process), for same-run references. */
  bare: Page;
  errors: string[];
  close(): Promise<void>;
}

export async function openBenchBrowser(app: BrowserApp): Promise<BenchBrowser> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
  const context: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const ui = await context.newPage();
  const errors: string[] = [];
  ui.on('pageerror', (e) => errors.push(e.message));
  await ui.goto(app.host.url);
  await ui.getByRole('button', { name: 'Activity' }).waitFor();
  const bare = await (await browser.newContext()).newPage();
  await bare.setContent('<!doctype html><title>bare</title><p>nothing</p>');
  return { browser, ui, bare, errors, close: () => browser.close() };
}

export interface LongTasks {
  count: number;
  max: number;
  p95: number;
  totalMs: number;
  over50: number;
}

interface LongTaskGlobals {
  __longTasks: number[];
  __observer?: { disconnect(): void };
  PerformanceObserver: new (cb: (list: { getEntries(): Array<{ duration: number }> }) => void) => { observe(o: object): void; disconnect(): void };
}

/** Starts recording long tasks in the page (from now on; what came before is not counted). */
export const observeLongTasks = (page: Page) =>
  page.evaluate(() => {
    const w = globalThis as unknown as LongTaskGlobals;
    w.__observer?.disconnect();
    w.__longTasks = [];
    const observer = new w.PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__longTasks.push(e.duration);
    });
    observer.observe({ type: 'longtask', buffered: false });
    w.__observer = observer;
  });

export const collectLongTasks = async (page: Page): Promise<LongTasks> => {
  const durations = (await page.evaluate(() => (globalThis as unknown as LongTaskGlobals).__longTasks)).slice().sort((a, b) => a - b);
  return { count: durations.length, max: durations.at(-1) ?? 0, p95: percentile(durations, 0.95), totalMs: durations.reduce((a, b) => a + b, 0), over50: durations.filter((d) => d > LONG_TASK_MS).length };
};

export const longTaskLine = (name: string, t: LongTasks, seconds: number) =>
  `${name.padEnd(40)} ${String(t.count).padStart(4)} long tasks in ${fmt(seconds, 0).padStart(3)} s  max ${fmt(t.max, 0).padStart(4)} ms  p95 ${fmt(t.p95, 0).padStart(4)} ms  > 50 ms: ${String(t.over50).padStart(3)}  total ${fmt(t.totalMs, 0).padStart(5)} ms`;

/** The p-th percentile (0–1) of sorted values, nearest rank; 0 for none. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))]!;
}

export const median = (sorted: readonly number[]) => percentile(sorted, 0.5);

/**
 * BENCH_PROFILE=1: a CDP CPU profile of the app's page around `body`; prints its top self time (the app's
 * own bundle apart from the browser's work). With an unminified build (BENCH_RENDERER_DIR) names are readable;
 * BENCH_PROFILE_OUT=<file> keeps the raw profile (a .cpuprofile, for call stacks).
 */
export async function profiled<T>(page: Page, body: () => Promise<T>): Promise<T> {
  if (process.env.BENCH_PROFILE !== '1') return body();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  try {
    return await body();
  } finally {
    const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile };
    for (const line of summarizeProfile(profile, 20)) console.log(line);
    if (process.env.BENCH_PROFILE_OUT) await writeFile(process.env.BENCH_PROFILE_OUT, JSON.stringify(profile));
  }
}

interface Coverage {
  result: { url: string; functions: { functionName: string; ranges: { startOffset: number; endOffset: number; count: number }[] }[] }[];
}

/**
 * BENCH_COLD=1: which of the page's functions ran for the first time inside `body` (V8's best-effort
 * coverage before and after: count 0 → more), by script, the largest first — the code a first visit
 * compiles lazily on the main thread and later visits do not. Names are readable with an unminified build
 * (BENCH_RENDERER_DIR).
 */
export async function coldFunctions<T>(page: Page, body: () => Promise<T>): Promise<T> {
  if (process.env.BENCH_COLD !== '1') return body();
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  const called = (c: Coverage) => {
    const seen = new Set<string>();
    for (const script of c.result) for (const f of script.functions) if ((f.ranges[0]?.count ?? 0) > 0) seen.add(`${script.url}#${String(f.ranges[0]!.startOffset)}`);
    return seen;
  };
  const before = called((await cdp.send('Profiler.getBestEffortCoverage')) as Coverage);
  try {
    return await body();
  } finally {
    const after = (await cdp.send('Profiler.getBestEffortCoverage')) as Coverage;
    const byScript = new Map<string, { bytes: number; fns: { name: string; bytes: number }[] }>();
    for (const script of after.result) {
      for (const f of script.functions) {
        const r = f.ranges[0];
        if (!r || r.count === 0 || before.has(`${script.url}#${String(r.startOffset)}`)) continue;
        const entry = byScript.get(script.url) ?? { bytes: 0, fns: [] };
        entry.bytes += r.endOffset - r.startOffset;
        entry.fns.push({ name: f.functionName || '(anonymous)', bytes: r.endOffset - r.startOffset });
        byScript.set(script.url, entry);
      }
    }
    console.log('functions first called in this round (bytes of source, by script):');
    for (const [url, e] of [...byScript.entries()].sort((a, b) => b[1].bytes - a[1].bytes)) {
      console.log(`  ${String(e.bytes).padStart(8)} B in ${String(e.fns.length)} functions: ${url.split('/').pop() ?? url}`);
      const top = e.fns.sort((a, b) => b.bytes - a.bytes).slice(0, 25);
      console.log(`    ${top.map((f) => `${f.name} ${String(f.bytes)}`).join(', ')}`);
    }
    await cdp.detach();
  }
}

/**
 * BENCH_TRACE=1: a Chromium trace around `body`; prints where the page's main thread spent its time, by
 * kind of work (paint and layout against script), and each task over 50 ms with its CPU time — and the
 * same for `reference` (another page measured at the same time), if given; `saveAs` keeps the trace in
 * bench/.tmp/<saveAs>.trace.json (for chrome://tracing or Perfetto).
 */
export async function traced<T>(browser: Browser, page: Page, body: () => Promise<T>, reference?: Page, saveAs?: string): Promise<T> {
  if (process.env.BENCH_TRACE !== '1') return body();
  // BENCH_TRACE_CATEGORIES adds categories, e.g. disabled-by-default-v8.compile (a first run's compiles).
  const extra = (process.env.BENCH_TRACE_CATEGORIES ?? '').split(',').filter(Boolean);
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', ...extra] });
  await page.evaluate(`console.timeStamp(${JSON.stringify(PAGE_MARK)})`);
  if (reference) await reference.evaluate(`console.timeStamp(${JSON.stringify(`${PAGE_MARK}:reference`)})`);
  try {
    return await body();
  } finally {
    const buffer = await browser.stopTracing();
    if (saveAs) {
      await mkdir(path.join(ROOT, 'bench/.tmp'), { recursive: true });
      await writeFile(path.join(ROOT, 'bench/.tmp', `${saveAs}.trace.json`), buffer);
      console.log(`trace saved: bench/.tmp/${saveAs}.trace.json`);
    }
    const trace = JSON.parse(buffer.toString()) as { traceEvents: TraceEvent[] };
    for (const line of summarizeTrace(trace.traceEvents, LONG_TASK_MS)) console.log(line);
    const ref = trace.traceEvents.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === `${PAGE_MARK}:reference`);
    if (ref) for (const line of summarizeTrace(trace.traceEvents, LONG_TASK_MS, `${String(ref.pid)}:${String(ref.tid)}`, 2)) console.log(`  reference page: ${line.trim()}`);
  }
}
