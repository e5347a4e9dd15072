// /html/convert: a web page (`url`, no input needed) or each HTML input drawn by headless Chromium
// (chromium-page.ts: every request fetched through the service's address policy) as png (default), jpg or
// pdf. `width` (1024) is the window's width; `fullpage` (default) draws the whole page, else `height` (768
// when not given) from its top; `omit_background` keeps transparency in png; `delay` ms after `wait_until`
// (networkidle by default); `headers` go with the requests to the page's own site.

import { readFile, writeFile } from 'node:fs/promises';
import { parseIntParam } from '../../instructions/robot-params';
import { describeResult, newFileId, type StoredFile } from '../file-record';
import { digestBytes } from '../image-output';
import { boolParam } from '../media/media-job';
import { outputDir, outputFile } from '../output-path';
import type { RobotFileOutcome, RobotJob, RobotRunner, SourceRunner } from '../robot-types';
import { wrongKind } from '../unsuitable-input';
import { INPUT_ORIGIN, PageFailure, openPage, type PageOptions } from './chromium-page';
import { CHROMIUM_MISSING, chromiumPath } from './tools';

/** The tallest full page drawn, in CSS pixels (Chromium's own limit for one image is 16,384). */
const MAX_HEIGHT = 16_384;
const MAX_HTML_BYTES = 20 * 1024 * 1024;

export const isHtml = (f: StoredFile): boolean => f.mime === 'text/html' || f.mime === 'application/xhtml+xml' || /^x?html?$/i.test(f.ext ?? '');

/** `headers` as the vendor writes them (an object of names to values). */
const headersOf = (v: unknown): Record<string, string> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([, x]) => typeof x === 'string' || typeof x === 'number').map(([k, x]) => [k, String(x)])) : {};

export interface PdfOptions {
  printBackground: boolean;
  paper: { width: number; height: number };
  margins: { top: number; right: number; bottom: number; left: number };
  header?: string;
  footer?: string;
}

/** Paper sizes in inches. */
export const PAPER: Record<string, { width: number; height: number }> = {
  Letter: { width: 8.5, height: 11 }, Legal: { width: 8.5, height: 14 }, Tabloid: { width: 11, height: 17 }, Ledger: { width: 17, height: 11 },
  A0: { width: 33.1, height: 46.8 }, A1: { width: 23.4, height: 33.1 }, A2: { width: 16.54, height: 23.4 }, A3: { width: 11.7, height: 16.54 },
  A4: { width: 8.27, height: 11.7 }, A5: { width: 5.83, height: 8.27 }, A6: { width: 4.13, height: 5.83 },
};

const UNIT_INCHES: Record<string, number> = { in: 1, cm: 1 / 2.54, mm: 1 / 25.4, px: 1 / 96 };

/** `pdf_margin` "6.25mm,6.25mm,14.11mm,6.25mm" (top, right, bottom, left; px, in, cm, mm) in inches; null when malformed. Pure. */
export function parseMargins(v: string): PdfOptions['margins'] | null {
  const parts = v.split(',').map((p) => /^\s*(\d+(?:\.\d+)?)\s*(px|in|cm|mm)\s*$/.exec(p));
  if (parts.length !== 4 || parts.some((m) => !m)) return null;
  const [top, right, bottom, left] = parts.map((m) => Number(m![1]) * UNIT_INCHES[m![2]!]!) as [number, number, number, number];
  return { top, right, bottom, left };
}

type Drawn = { ok: true; bytes: Buffer; ext: string; width?: number; height?: number } | { ok: false; outcome: RobotFileOutcome };

/** Opens the page (a URL, or HTML served from the input origin) and draws it as the step asks. */
export async function drawPage(
  job: Omit<RobotJob, 'input'>,
  target: { url: string } | { html: Buffer; name: string; files?: PageOptions['files'] },
  out: { format: string; pdf?: PdfOptions },
): Promise<Drawn> {
  const code = `${job.robot.replace(/^\//, '').replace(/[/-]/g, '_').toUpperCase()}_ERROR`;
  const chromium = chromiumPath();
  if (!chromium) return { ok: false, outcome: { ok: false, code: `${code.replace(/_ERROR$/, '')}_TOOL_MISSING`, message: CHROMIUM_MISSING } };
  const { params } = job;
  const path = 'html' in target ? `/${encodeURIComponent(target.name)}` : '';
  let opened: Awaited<ReturnType<typeof openPage>> | null = null;
  try {
    opened = await openPage({ chromium, network: job.network ?? { policy: {} }, signal: job.signal, headers: headersOf(params.headers), ...('html' in target ? { html: { path, body: target.html }, ...(target.files ? { files: target.files } : {}) } : {}) });
    const width = parseIntParam(params.width) ?? 1024;
    const height = parseIntParam(params.height) ?? 768;
    await opened.page('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
    const format = out.format === 'jpeg' || out.format === 'jpg' ? 'jpeg' : out.format === 'pdf' ? 'pdf' : 'png';
    if (format === 'png' && boolParam(params.omit_background)) await opened.page('Emulation.setDefaultBackgroundColorOverride', { color: { r: 0, g: 0, b: 0, a: 0 } });
    await opened.navigate('url' in target ? target.url : `${INPUT_ORIGIN}${path}`, typeof params.wait_until === 'string' ? params.wait_until : 'networkidle');
    job.onProgress?.(0.5);
    const delay = Math.min(parseIntParam(params.delay) ?? 0, 60_000);
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    if (format === 'pdf') {
      const pdf = out.pdf ?? { printBackground: true, paper: PAPER.Letter!, margins: { top: 0.4, right: 0.4, bottom: 0.4, left: 0.4 } };
      // Headless Chromium sometimes answers "Printing failed" while the page is still settling: asked again.
      const print = async (tries: number): Promise<Record<string, unknown>> => {
        try {
          return await opened!.page('Page.printToPDF', options);
        } catch (e) {
          if (tries <= 1 || !(e instanceof PageFailure) || job.signal.aborted) throw e;
          await new Promise((r) => setTimeout(r, 500));
          return print(tries - 1);
        }
      };
      const options = {
        printBackground: pdf.printBackground, paperWidth: pdf.paper.width, paperHeight: pdf.paper.height,
        marginTop: pdf.margins.top, marginRight: pdf.margins.right, marginBottom: pdf.margins.bottom, marginLeft: pdf.margins.left,
        displayHeaderFooter: pdf.header !== undefined || pdf.footer !== undefined, headerTemplate: pdf.header ?? '<span></span>', footerTemplate: pdf.footer ?? '<span></span>',
      };
      const { data } = (await print(3)) as { data: string };
      return { ok: true, bytes: Buffer.from(data, 'base64'), ext: 'pdf' };
    }
    const fullpage = params.fullpage === undefined || boolParam(params.fullpage);
    let shot = { width, height };
    if (fullpage) {
      const metrics = (await opened.page('Page.getLayoutMetrics')) as { cssContentSize?: { height: number }; contentSize: { height: number } };
      shot = { width, height: Math.max(1, Math.min(MAX_HEIGHT, Math.ceil((metrics.cssContentSize ?? metrics.contentSize).height))) };
    }
    const { data } = (await opened.page('Page.captureScreenshot', {
      format, ...(format === 'jpeg' ? { quality: 90 } : {}), captureBeyondViewport: fullpage, clip: { x: 0, y: 0, width: shot.width, height: shot.height, scale: 1 },
    })) as { data: string };
    return { ok: true, bytes: Buffer.from(data, 'base64'), ext: format === 'jpeg' ? 'jpg' : 'png', ...shot };
  } catch (e) {
    if (job.signal.aborted) return { ok: false, outcome: { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' } };
    if (e instanceof PageFailure) return { ok: false, outcome: { ok: false, code, message: `${job.robot}: ${e.message}` } };
    throw e;
  } finally {
    await opened?.close();
  }
}

async function save(job: Omit<RobotJob, 'input'>, source: StoredFile, basename: string, drawn: Extract<Drawn, { ok: true }>, meta: Record<string, unknown>): Promise<StoredFile> {
  const dir = await outputDir(job.outDir, source.id);
  const target = outputFile(dir, basename, `.${drawn.ext}`);
  await writeFile(target, drawn.bytes);
  return describeResult(source, target, `${basename}.${drawn.ext}`, meta, { embeddedMetadata: false, digests: digestBytes(drawn.bytes), size: drawn.bytes.length });
}

/** Each HTML input drawn. */
export const runHtmlConvert: RobotRunner = async (job) => {
  const { input, robot } = job;
  if (!isHtml(input)) return wrongKind('an HTML file', robot, input.mime);
  if (input.size > MAX_HTML_BYTES) return { ok: false, code: 'HTML_CONVERT_VALIDATION', message: `"${input.name}" has ${input.size} bytes; HTML files up to 20 MB are drawn.` };
  const drawn = await drawPage(job, { html: await readFile(input.localPath), name: input.name }, { format: String(job.params.format ?? 'png') });
  if (!drawn.ok) return drawn.outcome;
  return { ok: true, files: [await save(job, input, input.basename, drawn, {})] };
};

/** The page at `url` drawn: a file of its own (its own original), named after the site. */
export const runHtmlConvertUrl: SourceRunner = async (job) => {
  const url = String(job.params.url);
  const drawn = await drawPage(job, { url }, { format: String(job.params.format ?? 'png') });
  if (!drawn.ok) return drawn.outcome;
  const id = newFileId();
  const host = (() => {
    try {
      return new URL(url).hostname.replace(/[^\w.-]+/g, '_') || 'page';
    } catch {
      return 'page';
    }
  })();
  const source: StoredFile = {
    id, name: `${host}.html`, basename: host, ext: 'html', size: 0, mime: 'text/html', type: 'document', field: null, md5hash: null,
    original_id: id, original_name: `${host}.html`, original_basename: host, original_path: '/', original_md5hash: null, meta: {}, localPath: '',
  };
  const file = await save(job, source, host, drawn, { url });
  // The drawing is its own original: its record names itself.
  Object.assign(file, { original_id: file.id, original_name: file.name, original_basename: file.basename, original_md5hash: file.md5hash });
  return { ok: true, files: [file] };
};
