/**
 * Issue 14, Performance: the Assets browser with 100,000 stored assets. Goal: scrolling without long tasks
 * over 50 ms in the renderer.
 *
 * The real app (bench/lib/app-kit.ts: production renderer build in headless Chromium, browser host, core,
 * embedded local service). Seeding: the app starts once (the service makes its database and key), stops,
 * and BENCH_ASSETS (100,000) assets go straight into the stopped service's asset store
 * (service/testing/asset-seed.ts: the store's own `store()`, 16 distinct small JPEGs with their
 * thumbhashes, so the rows show real placeholders and previews) under `library/`; then the app starts again
 * on the same data.
 *
 * Measured:
 * - **first rows**: from opening `#/assets?folder=library` to the first asset row on screen;
 *   reference: the same `GET /dam/assets` (500 a page, one folder level) by a plain signed client;
 * - **long tasks** (PerformanceObserver 'longtask') while scrolling the list by a wheel (10 px a frame), a
 *   flick (60 px a frame), and a fast drag through the list to its end (2,400 px = 50 rows a frame; pages of
 *   500 read by cursor as it goes) until every asset was read or BENCH_END_S (120) ran out; reference: a
 *   bare page in its own renderer process scrolling a static list of 2,000 rows of the same height the same
 *   way at the same time (what scrolling and painting cost this machine without the app).
 *
 *   npm run -s build && npm run bench:asset-browser-scale
 *
 * BENCH_PROFILE=1 / BENCH_TRACE=1 as in bench/activity-scale.ts. BENCH_SCROLL_S (12) per wheel/flick phase.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import type { Page } from 'playwright-core';
import { seedAssets, type SeedAsset } from '../service/testing/asset-seed';
import { collectLongTasks, launchBenchApp, LONG_TASK_MS, longTaskLine, observeLongTasks, openBenchBrowser, profiled, serviceDataDir, traced, type BenchApp, type BenchBrowser, type LongTasks } from './lib/app-kit';
import { fmt, runBench, verdict } from './lib/bench-kit';

const ASSETS = Number(process.env.BENCH_ASSETS ?? 100_000);
const SCROLL_S = Number(process.env.BENCH_SCROLL_S ?? 12);
const END_S = Number(process.env.BENCH_END_S ?? 120);
const ROW_PX = 48;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** 16 small JPEGs in different colours, each with its thumbhash (what the store robot records). */
async function variants(): Promise<Array<Omit<SeedAsset, 'path'>>> {
  const out: Array<Omit<SeedAsset, 'path'>> = [];
  for (let i = 0; i < 16; i++) {
    const background = { r: (i * 53) % 256, g: (i * 97 + 40) % 256, b: (i * 31 + 90) % 256 };
    const image = sharp({ create: { width: 96, height: 64, channels: 3, background } });
    const bytes = await image.clone().jpeg({ quality: 70 }).toBuffer();
    const { data, info } = await image.clone().resize(48, 32).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    const hash = rgbaToThumbHash(info.width, info.height, data);
    out.push({ bytes, mime: 'image/jpeg', width: 96, height: 64, thumbhash: Buffer.from(hash).toString('base64') });
  }
  return out;
}

function* library(kinds: Array<Omit<SeedAsset, 'path'>>): Generator<SeedAsset> {
  for (let i = 0; i < ASSETS; i++) yield { ...kinds[i % kinds.length]!, path: `library/img-${String(i).padStart(6, '0')}.jpg` };
}

/** Opens the library folder and resolves with the ms until the first asset row is on screen (page clock). */
const openLibrary = (ui: Page) =>
  ui.evaluate(`new Promise((resolve, reject) => {
    const row = () => document.querySelector('[data-testid="asset-row"]');
    const t0 = performance.now();
    const observer = new MutationObserver(() => {
      if (row()) { observer.disconnect(); resolve(performance.now() - t0); }
    });
    observer.observe(document.body, { subtree: true, childList: true });
    location.hash = '#/assets?folder=library';
    setTimeout(() => { observer.disconnect(); reject(new Error('no asset row within 30 s')); }, 30000);
  })`) as Promise<number>;

/**
 * Scrolls the list by `px` a frame. `bounce`: back and forth between the ends of what is there; otherwise
 * down only (the end moves as pages arrive), stopping when `done()` in the page says so.
 */
const startScrolling = (ui: Page, selector: string, px: number, bounce: boolean) =>
  ui.evaluate(`(() => {
    const el = document.querySelector(${JSON.stringify(selector)});
    if (!el) throw new Error('no list ${selector}');
    globalThis.__scrolling = true;
    let dir = 1;
    const frame = () => {
      if (!globalThis.__scrolling) return;
      const max = el.scrollHeight - el.clientHeight;
      if (${String(bounce)} && (el.scrollTop + ${String(px)} * dir > max || el.scrollTop + ${String(px)} * dir < 0)) dir = -dir;
      el.scrollTop += ${String(px)} * dir;
      requestAnimationFrame(frame);
    };
    requestAnimationFrame(frame);
  })()`);
const stopScrolling = (ui: Page) => ui.evaluate('void (globalThis.__scrolling = false)');
const toTop = (ui: Page, selector: string) => ui.evaluate(`void (document.querySelector(${JSON.stringify(selector)}).scrollTop = 0)`);

interface Phase {
  name: string;
  ui: LongTasks;
  bare: LongTasks;
  seconds: number;
}

async function phase(browser: BenchBrowser, name: string, body: () => Promise<void>): Promise<Phase> {
  await observeLongTasks(browser.ui);
  await observeLongTasks(browser.bare);
  const t0 = Date.now();
  await traced(browser.browser, browser.ui, () => profiled(browser.ui, body));
  const seconds = (Date.now() - t0) / 1000;
  return { name, ui: await collectLongTasks(browser.ui), bare: await collectLongTasks(browser.bare), seconds };
}

const LIST = '[data-testid="asset-list"]';
const BARE = '#l';

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bench-asset-browser-'));
  let bench: BenchApp | null = null;
  let browser: BenchBrowser | null = null;
  try {
    // A first start makes the service's database and key; the assets go in while it is stopped.
    bench = await launchBenchApp(dir);
    await bench.close();
    bench = null;
    const t0 = Date.now();
    await seedAssets(serviceDataDir(dir), library(await variants()), { concurrency: 16 });
    console.log(`${ASSETS.toLocaleString('en-US')} assets seeded in ${fmt((Date.now() - t0) / 1000, 1)} s`);

    bench = await launchBenchApp(dir);
    browser = await openBenchBrowser(bench.app);
    const { ui, bare } = browser;

    // The reference: the first page of the folder by a plain signed client.
    const raw: number[] = [];
    for (let i = 0; i < 4; i++) {
      const start = performance.now();
      const page = await bench.api.request('GET', '/dam/assets', { prefix: 'library/', delimiter: '/', limit: 500 });
      raw.push(performance.now() - start);
      if (!page.ok || !Array.isArray(page.value.assets) || page.value.assets.length !== Math.min(500, ASSETS)) throw new Error(`GET /dam/assets: ${page.ok ? 'short page' : page.error.code}`);
    }
    const first = await openLibrary(ui);
    await sleep(1000);

    await bare.setContent(
      `<!doctype html><title>bare list</title><style>body{margin:0;font:14px system-ui}#l{height:600px;overflow:auto}#l div{height:${String(ROW_PX)}px;box-sizing:border-box;border-bottom:1px solid #ddd;padding:6px;display:flex;gap:10px;align-items:center}#l i{width:36px;height:36px;background:#8a9}</style><div id="l">${Array.from({ length: 2000 }, (_, i) => `<div><i></i>img-${String(i).padStart(6, '0')}.jpg<span>2.1 KB · image/jpeg · 96 × 64</span></div>`).join('')}</div>`,
    );

    const phases: Phase[] = [];
    for (const [name, px] of [
      ['scrolling, a wheel (10 px a frame)', 10],
      ['scrolling, a flick (60 px a frame)', 60],
    ] as const) {
      phases.push(
        await phase(browser, name, async () => {
          await Promise.all([startScrolling(ui, LIST, px, true), startScrolling(bare, BARE, px, true)]);
          await sleep(SCROLL_S * 1000);
          await Promise.all([stopScrolling(ui), stopScrolling(bare)]);
        }),
      );
      await Promise.all([toTop(ui, LIST), toTop(bare, BARE)]);
      await sleep(500);
    }

    // Through the whole folder: 50 rows a frame, pages read by cursor as the end comes near.
    const count = ui.getByTestId('asset-count');
    const everything = `${ASSETS.toLocaleString('en-US')} items`;
    let endSeconds = 0;
    let reached = '';
    phases.push(
      await phase(browser, 'to the end (2,400 px a frame)', async () => {
        const start = Date.now();
        await Promise.all([startScrolling(ui, LIST, 50 * ROW_PX, false), startScrolling(bare, BARE, 50 * ROW_PX, true)]);
        while (Date.now() - start < END_S * 1000 && (await count.textContent()) !== everything) await sleep(250);
        await Promise.all([stopScrolling(ui), stopScrolling(bare)]);
        endSeconds = (Date.now() - start) / 1000;
        reached = (await count.textContent()) ?? '';
      }),
    );
    const rowsSeen = await ui.evaluate(`Math.round(document.querySelector(${JSON.stringify(LIST)}).scrollTop / ${String(ROW_PX)})`);

    const rawSorted = raw.slice(1).sort((a, b) => a - b);
    console.log('');
    console.log(`first asset rows on screen: ${fmt(first, 0)} ms; reference: GET /dam/assets (500, one level) by a plain signed client: first ${fmt(raw[0]!, 0)} ms, then median ${fmt(rawSorted[1] ?? 0, 0)} ms`);
    console.log(`to the end: "${reached}" after ${fmt(endSeconds, 1)} s, scrolled to row ${String(rowsSeen)} (${fmt(Number(rowsSeen) / Math.max(1, ASSETS) * 100, 0)} % of the folder)`);
    console.log('');
    for (const p of phases) {
      console.log(longTaskLine(p.name, p.ui, p.seconds));
      console.log(longTaskLine('  reference: plain static list, same way', p.bare, p.seconds));
    }
    if (browser.errors.length > 0) console.log(`page errors: ${browser.errors.join(' | ')}`);
    const worst = Math.max(...phases.map((p) => p.ui.max));
    const bareWorst = Math.max(...phases.map((p) => p.bare.max));
    console.log('');
    console.log(
      `longest renderer task while scrolling: ${fmt(worst, 0)} ms (${verdict(worst <= LONG_TASK_MS)} the goal of ≤ ${String(LONG_TASK_MS)} ms); the reference page's longest: ${fmt(bareWorst, 0)} ms; ratio ${fmt(bareWorst > 0 ? worst / bareWorst : 0, 2)}`,
    );
  } finally {
    await browser?.close();
    await bench?.close();
    await rm(dir, { recursive: true, force: true });
  }
}

runBench(main);
