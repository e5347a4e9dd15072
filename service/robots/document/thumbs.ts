// /document/thumbs: one image per PDF page (or the `page`, or the pages of `page_range`), drawn by
// poppler's pdftoppm at `density` (72 dpi by default: a Letter page is 612 × 792), whitespace trimmed
// (`trim_whitespace`, on by default), fitted into width × height by `resize_strategy` (pad on
// `background`), as png, jpg or one animated gif cycling through the pages (`delay` in 1/100 s).
// Each image has meta.thumb_index (0-based) and page_count.

import { readFile, rm, writeFile } from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import { parseIntParam } from '../../instructions/robot-params';
import { describeResult, type StoredFile } from '../file-record';
import { sharpColor } from '../image-encode';
import { digestBytes } from '../image-output';
import { boolParam } from '../media/media-job';
import { outputDir, outputFile, scratchFile } from '../output-path';
import type { RobotFileOutcome, RobotRunner } from '../robot-types';
import { wrongKind } from '../unsuitable-input';
import { isPdf, pageCount, parsePageSpec } from './pdf-pages';
import { runTool } from './tools';

const FIT: Record<string, 'contain' | 'inside' | 'cover' | 'fill' | 'outside'> = {
  pad: 'contain', fit: 'inside', fillcrop: 'cover', crop: 'cover', stretch: 'fill', min_fit: 'outside',
};

/** The pages to draw (1-based), or why none can be. */
export function pagesToDraw(params: Record<string, unknown>, count: number): { pages: number[] } | { problem: string } {
  const page = parseIntParam(params.page);
  if (page !== null) {
    return page <= count ? { pages: [page] } : { problem: `page ${page} was asked for, but the PDF has ${count} page${count === 1 ? '' : 's'}` };
  }
  if (typeof params.page_range === 'string') {
    const range = parsePageSpec(params.page_range);
    // The vendor's rule: from the first page of the range, stopping quietly where the PDF ends.
    if (range && range.from <= count) return { pages: Array.from({ length: Math.min(range.to, count) - range.from + 1 }, (_, i) => range.from + i) };
    return { problem: `page_range "${params.page_range}" starts after the last page (the PDF has ${count} page${count === 1 ? '' : 's'})` };
  }
  return { pages: Array.from({ length: count }, (_, i) => i + 1) };
}

/** pdftoppm's resolution: `density` ("300" or "300x200"), else as big as width × height needs, else 72 dpi. */
function resolution(params: Record<string, unknown>): string[] {
  const m = typeof params.density === 'string' || typeof params.density === 'number' ? /^(\d+)(?:x(\d+))?$/.exec(String(params.density).trim()) : null;
  if (m) return ['-rx', m[1]!, '-ry', m[2] ?? m[1]!];
  const w = parseIntParam(params.width);
  const h = parseIntParam(params.height);
  // Drawn with the longer side at twice the box, so the fit scales down, never up.
  if (w !== null || h !== null) return ['-scale-to', String(Math.max(w ?? 0, h ?? 0) * 2)];
  return ['-r', '72'];
}

async function drawPage(job: { input: StoredFile; params: Record<string, unknown>; signal: AbortSignal }, dir: string, page: number): Promise<Buffer | string> {
  const { params } = job;
  const base = scratchFile(dir, `.page-${page}`);
  const args = ['-f', String(page), '-l', String(page), '-singlefile', '-png', ...resolution(params)];
  if (params.pdf_use_cropbox === undefined || boolParam(params.pdf_use_cropbox)) args.push('-cropbox');
  if (!boolParam(params.antialiasing)) args.push('-aa', 'no', '-aaVector', 'no');
  const run = await runTool('pdftoppm', [...args, '--', job.input.localPath, base], job.signal, 5 * 60_000);
  try {
    if (!run.ok) return run.aborted ? 'canceled' : run.message;
    return await readFile(`${base}.png`);
  } finally {
    await rm(`${base}.png`, { force: true });
  }
}

/** Trimmed (when asked), coloured, alpha'd and fitted: the page as the step wants it. */
async function shape(png: Buffer, params: Record<string, unknown>): Promise<Sharp> {
  let img = sharp(png);
  if (params.trim_whitespace === undefined || boolParam(params.trim_whitespace)) {
    // A blank page has nothing to trim to: it stays whole.
    const trimmed = await sharp(png).trim({ background: '#FFFFFF', threshold: 10 }).png().toBuffer().catch(() => null);
    if (trimmed) img = sharp(trimmed);
  }
  const w = parseIntParam(params.width);
  const h = parseIntParam(params.height);
  const background = sharpColor(params.background, '#FFFFFF');
  if (w !== null || h !== null) {
    img = img.resize({ width: w ?? undefined, height: h ?? undefined, fit: FIT[String(params.resize_strategy ?? 'pad')] ?? 'contain', background, position: params.resize_strategy === 'crop' ? 'northwest' : 'centre' });
  }
  if (params.colorspace === 'Gray') img = img.toColourspace('b-w');
  if (params.alpha === 'Remove') img = img.flatten({ background });
  else if (params.alpha === 'Set') img = img.ensureAlpha();
  return img;
}

export const runDocumentThumbs: RobotRunner = async (job): Promise<RobotFileOutcome> => {
  const { robot, params, input, outDir, signal } = job;
  if (!isPdf(input)) return wrongKind('a PDF', robot, input.mime);
  const count = await pageCount(input, signal);
  if (count === null) return { ok: false, code: 'DOCUMENT_THUMBS_ERROR', message: `"${input.name}" could not be read as a PDF (no page count).` };
  const chosen = pagesToDraw(params, count);
  if ('problem' in chosen) return { ok: false, code: 'DOCUMENT_THUMBS_VALIDATION', message: `${chosen.problem}.` };
  const format = params.format === 'jpeg' || params.format === 'jpg' ? 'jpg' : params.format === 'gif' ? 'gif' : 'png';
  const dir = await outputDir(outDir, input.id);
  const shaped: Buffer[] = [];
  for (const [i, page] of chosen.pages.entries()) {
    const drawn = await drawPage(job, dir, page);
    if (typeof drawn === 'string') {
      return drawn === 'canceled' ? { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' } : { ok: false, code: 'DOCUMENT_THUMBS_ERROR', message: `Drawing page ${page} of "${input.name}" failed: ${drawn}` };
    }
    const img = await shape(drawn, params);
    shaped.push(format === 'gif' ? await img.png().toBuffer() : format === 'jpg' ? await img.flatten({ background: sharpColor(params.background, '#FFFFFF') }).jpeg({ quality: 92 }).toBuffer() : await img.png().toBuffer());
    job.onProgress?.((i + 1) / chosen.pages.length);
  }
  const files: StoredFile[] = [];
  if (format === 'gif') {
    // One animation: every frame the size of the first (pages of other sizes padded into it).
    const first = await sharp(shaped[0]!).metadata();
    const frames = await Promise.all(shaped.map((b) => sharp(b).resize({ width: first.width, height: first.height, fit: 'contain', background: sharpColor(params.background, '#FFFFFF') }).png().toBuffer()));
    const delay = (parseIntParam(params.delay) ?? 100) * 10;
    const bytes = await sharp(frames, { join: { animated: true } }).gif({ delay: frames.map(() => delay), loop: 0 }).toBuffer();
    const target = outputFile(dir, input.basename, '.gif');
    await writeFile(target, bytes);
    files.push(await describeResult(input, target, `${input.basename}.gif`, { page_count: count, thumb_count: frames.length }, { digests: digestBytes(bytes), size: bytes.length, embeddedMetadata: false }));
    return { ok: true, files };
  }
  for (const [i, bytes] of shaped.entries()) {
    const page = chosen.pages[i]!;
    const name = `${input.basename}_${page}.${format}`;
    const target = outputFile(dir, input.basename, `_${page}.${format}`);
    await writeFile(target, bytes);
    files.push(await describeResult(input, target, name, { thumb_index: i, page_number: page, page_count: count }, { digests: digestBytes(bytes), size: bytes.length, embeddedMetadata: false }));
  }
  return { ok: true, files };
};
