// /document/ocr and /image/ocr: the text of each PDF page (drawn by poppler at 200 dpi) or image, read by
// Tesseract in the languages the vendor's OCR detects, those installed here (tools.ts ocrLanguageArg; English
// always; the vendor's cloud `provider`s are not called). `format` json (default: the lines,
// with granularity full each with its page, confidence and box in pixels; list: the lines alone), text
// (one UTF-8 file, pages separated by a form feed) or meta (no new content: the input passes on with
// meta.recognized_text, the lines).

import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describeResult, type StoredFile } from '../file-record';
import { outputDir, outputFile } from '../output-path';
import type { RobotFileOutcome, RobotJob, RobotRunner } from '../robot-types';
import { wrongKind } from '../unsuitable-input';
import { isPdf, pageCount } from './pdf-pages';
import { ocrLanguageArg, prefixOf, runTool } from './tools';

export interface OcrLine {
  text: string;
  /** 1-based; 1 for an image. */
  page: number;
  /** Tesseract's mean word confidence, 0..100. */
  confidence: number;
  box: { left: number; top: number; width: number; height: number };
}

/** Tesseract's TSV (one row per word) as lines of text with their box and confidence. Pure. */
export function linesFromTsv(tsv: string, page: number): OcrLine[] {
  const lines = new Map<string, { words: string[]; conf: number[]; l: number; t: number; r: number; b: number }>();
  for (const row of tsv.split('\n').slice(1)) {
    const c = row.split('\t');
    if (c.length < 12 || c[0] !== '5') continue;
    const word = c.slice(11).join('\t').trim();
    if (word === '') continue;
    const key = `${c[2]}.${c[3]}.${c[4]}`;
    const [l, t, w, h, conf] = [Number(c[6]), Number(c[7]), Number(c[8]), Number(c[9]), Number(c[10])];
    const line = lines.get(key) ?? { words: [], conf: [], l, t, r: l + w, b: t + h };
    line.words.push(word);
    line.conf.push(conf);
    [line.l, line.t, line.r, line.b] = [Math.min(line.l, l), Math.min(line.t, t), Math.max(line.r, l + w), Math.max(line.b, t + h)];
    lines.set(key, line);
  }
  return [...lines.values()].map((x) => ({
    text: x.words.join(' '),
    page,
    confidence: Math.round((x.conf.reduce((a, b) => a + b, 0) / x.conf.length) * 10) / 10,
    box: { left: x.l, top: x.t, width: x.r - x.l, height: x.b - x.t },
  }));
}

type Read = { ok: true; lines: OcrLine[] } | { ok: false; outcome: RobotFileOutcome };

async function tesseract(job: RobotJob, image: string, page: number): Promise<Read> {
  const run = await runTool('tesseract', [image, '-', '-l', ocrLanguageArg(), 'tsv'], job.signal, 5 * 60_000, { ...process.env, OMP_THREAD_LIMIT: '1' });
  if (run.ok) return { ok: true, lines: linesFromTsv(run.stdout, page) };
  if (run.aborted) return { ok: false, outcome: { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' } };
  return { ok: false, outcome: { ok: false, code: `${prefixOf(job.robot)}_ERROR`, message: `Reading the text of "${job.input.name}" failed: ${run.message}` } };
}

/** The lines of every page of a PDF. */
async function readPdf(job: RobotJob, scratch: string): Promise<Read> {
  const count = await pageCount(job.input, job.signal);
  if (count === null) return { ok: false, outcome: { ok: false, code: 'DOCUMENT_OCR_ERROR', message: `"${job.input.name}" could not be read as a PDF (no page count).` } };
  const lines: OcrLine[] = [];
  for (let page = 1; page <= count; page++) {
    const base = join(scratch, `page-${page}`);
    const drawn = await runTool('pdftoppm', ['-f', String(page), '-l', String(page), '-singlefile', '-r', '200', '-gray', '-png', '--', job.input.localPath, base], job.signal, 5 * 60_000);
    if (!drawn.ok) return { ok: false, outcome: drawn.aborted ? { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' } : { ok: false, code: 'DOCUMENT_OCR_ERROR', message: `Drawing page ${page} of "${job.input.name}" failed: ${drawn.message}` } };
    const read = await tesseract(job, `${base}.png`, page);
    if (!read.ok) return read;
    lines.push(...read.lines);
    await rm(`${base}.png`, { force: true });
    job.onProgress?.(page / count);
  }
  return { ok: true, lines };
}

/**
 * The lines of an image, through sharp first: formats Tesseract may not read (WebP, AVIF…) become PNG, and
 * a white margin is added — Tesseract misses words that touch the edge (a trimmed page, a tight crop).
 */
async function readImage(job: RobotJob, scratch: string): Promise<Read> {
  const image = join(scratch, 'image.png');
  try {
    await sharp(job.input.localPath, { limitInputPixels: 100_000_000 })
      .rotate()
      .flatten({ background: '#ffffff' })
      .extend({ top: 16, bottom: 16, left: 16, right: 16, background: '#ffffff' })
      .png()
      .toFile(image);
  } catch (e) {
    return { ok: false, outcome: { ok: false, code: 'INVALID_INPUT_ERROR', message: `"${job.input.name}" could not be decoded as an image: ${(e as Error).message}`, unsuitableInput: true } };
  }
  const read = await tesseract(job, image, 1);
  job.onProgress?.(1);
  // Boxes in the input's pixels, not the margin's.
  return read.ok ? { ok: true, lines: read.lines.map((l) => ({ ...l, box: { ...l.box, left: Math.max(0, l.box.left - 16), top: Math.max(0, l.box.top - 16) } })) } : read;
}

async function result(job: RobotJob, lines: OcrLine[]): Promise<StoredFile> {
  const { input, params } = job;
  const dir = await outputDir(job.outDir, input.id);
  const texts = lines.map((l) => l.text);
  const meta = { recognized_lines: lines.length };
  if (params.format === 'meta') {
    const target = outputFile(dir, input.name);
    await copyFile(input.localPath, target);
    return describeResult(input, target, input.name, { recognized_text: texts });
  }
  if (params.format === 'text') {
    const pages = [...new Set(lines.map((l) => l.page))];
    const body = pages.map((p) => lines.filter((l) => l.page === p).map((l) => l.text).join('\n')).join('\n\f\n');
    const target = outputFile(dir, input.basename, '.txt');
    await writeFile(target, `${body}\n`);
    return describeResult(input, target, `${input.basename}.txt`, meta);
  }
  const target = outputFile(dir, input.basename, '.json');
  await writeFile(target, JSON.stringify(params.granularity === 'list' ? texts : lines, null, 2));
  return describeResult(input, target, `${input.basename}.json`, meta);
}

const ocr = (kind: 'document' | 'image'): RobotRunner => async (job) => {
  const { robot, input } = job;
  if (kind === 'document' ? !isPdf(input) : !input.mime?.startsWith('image/')) return wrongKind(kind === 'document' ? 'a PDF' : 'an image', robot, input.mime);
  const dir = await outputDir(job.outDir, input.id);
  const scratch = await mkdtemp(join(dir, '.ocr-'));
  try {
    const read = kind === 'document' ? await readPdf(job, scratch) : await readImage(job, scratch);
    if (!read.ok) return read.outcome;
    return { ok: true, files: [await result(job, read.lines)] };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
};

export const runDocumentOcr = ocr('document');
export const runImageOcr = ocr('image');
