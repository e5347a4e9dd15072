// /document/convert: each input into `format`, by the converter this computer has for that pair.
// - HTML (and XHTML), plain text: drawn by headless Chromium (chromium-page.ts, every request through the
//   service's address policy) as pdf — `pdf_format`, `pdf_margin`, `pdf_print_background`,
//   `pdf_display_header_footer` with its templates — or png/jpg. Text also becomes html; HTML also becomes
//   md (markdown.ts `htmlAsMarkdown`, turndown).
// - Markdown (markdown.ts: `markdown_format`, `markdown_theme`, its HTML sanitised) as html, or drawn by
//   Chromium like HTML as pdf, png or jpg.
// - An image (png, jpg, gif, webp, svg) as a PDF page of `pdf_format`, fit within `pdf_margin`, never enlarged.
// - SubRip ↔ WebVTT (subtitles.ts, pure).
// - Office files (Word, Excel, PowerPoint, OpenDocument, RTF, CSV) by LibreOffice headless (`soffice`),
//   into pdf or another office format, where it is installed; where not, DOCUMENT_CONVERT_TOOL_MISSING
//   saying what to install.
// Anything else — a PDF into anything (the vendor converts files *to* PDF, not from it), a pair of alien
// kinds (subtitles into an image) — is an unsuitable input, passed over with its reason.

import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describeResult, type StoredFile } from '../file-record';
import { outputDir, outputFile } from '../output-path';
import type { RobotFileOutcome, RobotJob, RobotRunner } from '../robot-types';
import { unsuitable } from '../unsuitable-input';
import { boolParam } from '../media/media-job';
import { PAPER, drawPage, parseMargins, type PdfOptions } from './html-convert';
import { readCues, writeSrt, writeVtt } from './subtitles';
import { LIBREOFFICE, missingMessage, runTool } from './tools';
import { toolInstalled } from '../media/tools';
import { OFFICE_EXTS, OFFICE_TARGETS } from './convert-formats';
import { htmlAsMarkdown, markdownAsHtml } from './markdown';

/** What kind of document an input is, by its extension (then its type). */
export type SourceKind = 'html' | 'markdown' | 'text' | 'image' | 'subtitles' | 'office' | 'pdf' | 'other';

/** The images Chromium puts on a page, by extension, with the type they are served as. */
const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml' };

export function sourceKind(file: Pick<StoredFile, 'ext' | 'mime'>): SourceKind {
  const ext = (file.ext ?? '').toLowerCase();
  if (ext === 'pdf' || file.mime === 'application/pdf') return 'pdf';
  if (['html', 'htm', 'xhtml'].includes(ext) || file.mime === 'text/html' || file.mime === 'application/xhtml+xml') return 'html';
  if (['md', 'markdown', 'mdown', 'mkd'].includes(ext) || file.mime === 'text/markdown') return 'markdown';
  if (ext in IMAGE_TYPES || Object.values(IMAGE_TYPES).includes(file.mime ?? '')) return 'image';
  if (ext === 'srt' || ext === 'vtt' || file.mime === 'text/vtt') return 'subtitles';
  if (OFFICE_EXTS.has(ext)) return 'office';
  if (['txt', 'text'].includes(ext) || file.mime === 'text/plain') return 'text';
  return 'other';
}

/** The extension a target format is written with. */
export const targetExt = (format: string): string => (format === 'jpeg' ? 'jpg' : format === 'text' ? 'txt' : format);

/** What each kind becomes here: used for the reason an input is passed over. */
const TARGETS: Record<Exclude<SourceKind, 'pdf' | 'other'>, readonly string[]> = {
  html: ['pdf', 'png', 'jpg', 'jpeg', 'md'],
  markdown: ['html', 'pdf', 'png', 'jpg', 'jpeg'],
  text: ['pdf', 'png', 'jpg', 'jpeg', 'html'],
  image: ['pdf'],
  subtitles: ['srt', 'vtt'],
  office: [...OFFICE_TARGETS],
};

const KIND_NAMES: Record<keyof typeof TARGETS, string> = { html: 'HTML', markdown: 'Markdown', text: 'text', image: 'images', subtitles: 'subtitles', office: 'office files' };

/** The PDF the step asks for: the vendor's defaults (Letter, 6.25mm,6.25mm,14.11mm,6.25mm, backgrounds printed). */
export function pdfOptions(params: Record<string, unknown>): PdfOptions {
  const margins = parseMargins(typeof params.pdf_margin === 'string' ? params.pdf_margin : '') ?? parseMargins('6.25mm,6.25mm,14.11mm,6.25mm')!;
  const headerFooter = boolParam(params.pdf_display_header_footer);
  const template = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
  return {
    printBackground: params.pdf_print_background === undefined || boolParam(params.pdf_print_background),
    paper: PAPER[String(params.pdf_format ?? 'Letter')] ?? PAPER.Letter!,
    margins,
    ...(headerFooter ? { header: template(params.pdf_header_template) ?? '<span></span>', footer: template(params.pdf_footer_template) ?? '<span></span>' } : {}),
  };
}

const escapeHtml = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** Plain text as a page: its lines kept, long ones wrapped, in a monospace face. */
export const textAsHtml = (text: string, title: string): string =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>body{margin:0}pre{font:11pt/1.4 monospace;white-space:pre-wrap;overflow-wrap:anywhere;margin:0}</style></head><body><pre>${escapeHtml(text.replace(/^\uFEFF/, ''))}</pre></body></html>\n`;

async function written(job: RobotJob, bytes: Buffer | string, ext: string, meta: Record<string, unknown> = {}): Promise<RobotFileOutcome> {
  const dir = await outputDir(job.outDir, job.input.id);
  const target = outputFile(dir, job.input.basename, `.${ext}`);
  await writeFile(target, bytes);
  return { ok: true, files: [await describeResult(job.input, target, `${job.input.basename}.${ext}`, meta)] };
}

/** HTML (or text made HTML) drawn by Chromium as pdf, png or jpg; `files` are served beside it. */
async function drawn(job: RobotJob, html: Buffer, format: string, files?: ReadonlyMap<string, { type: string; body: Buffer }>): Promise<RobotFileOutcome> {
  const out = await drawPage(job, { html, name: `${job.input.basename}.html`, ...(files ? { files } : {}) }, { format, pdf: pdfOptions(job.params) });
  if (!out.ok) return out.outcome;
  return written(job, out.bytes, out.ext);
}

/** A page holding one image (served at `src`), centred and fit within the paper's printable area, never enlarged. */
export function imagePageHtml(src: string, title: string, pdf: PdfOptions): string {
  const height = Math.max(0.1, pdf.paper.height - pdf.margins.top - pdf.margins.bottom - 0.01);
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style>html,body{margin:0;padding:0}img{display:block;margin:0 auto;max-width:100%;max-height:${height.toFixed(3)}in;object-fit:contain}img.vector{width:100%;height:${height.toFixed(3)}in}</style></head><body><img src="${escapeHtml(src)}" alt="${escapeHtml(title)}"${src.endsWith('.svg') ? ' class="vector"' : ''}></body></html>\n`;
}

/** An image as a one-page PDF: Chromium prints a page holding it (an SVG in an <img> runs no script and loads nothing). */
async function imageAsPdf(job: RobotJob): Promise<RobotFileOutcome> {
  const ext = (job.input.ext ?? '').toLowerCase();
  const type = IMAGE_TYPES[ext] ?? job.input.mime ?? 'application/octet-stream';
  const src = `/image.${Object.entries(IMAGE_TYPES).find(([, t]) => t === type)?.[0] ?? 'bin'}`;
  const html = imagePageHtml(src, job.input.name, pdfOptions(job.params));
  return drawn(job, Buffer.from(html), 'pdf', new Map([[src, { type, body: await readFile(job.input.localPath) }]]));
}

/** An office file converted by LibreOffice headless, in a scratch folder with a profile of its own (runs may overlap). */
async function byLibreOffice(job: RobotJob, format: string): Promise<RobotFileOutcome> {
  if (!toolInstalled(LIBREOFFICE.command)) return { ok: false, code: 'DOCUMENT_CONVERT_TOOL_MISSING', message: missingMessage(job.robot, LIBREOFFICE) };
  const dir = await outputDir(job.outDir, job.input.id);
  const scratch = await mkdtemp(join(dir, '.convert-'));
  try {
    // A fixed name: LibreOffice names its output after the input, and never sees the user's name.
    const source = join(scratch, `input.${(job.input.ext ?? 'bin').toLowerCase().replace(/[^a-z0-9]/g, '') || 'bin'}`);
    await copyFile(job.input.localPath, source);
    const out = join(scratch, 'out');
    const ext = targetExt(format);
    const run = await runTool(
      LIBREOFFICE.command,
      ['--headless', '--norestore', '--nolockcheck', '--nodefault', '--nologo', `-env:UserInstallation=file://${join(scratch, 'profile')}`, '--convert-to', ext, '--outdir', out, source],
      job.signal,
      5 * 60_000,
      { ...process.env, HOME: scratch },
    );
    if (run.aborted) return { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' };
    const made = (await readdir(out).catch(() => [] as string[])).find((n) => n.toLowerCase().endsWith(`.${ext}`));
    if (!run.ok || !made) {
      const why = run.message || run.stdout.trim() || 'LibreOffice wrote no file';
      return { ok: false, code: 'DOCUMENT_CONVERT_ERROR', message: `Converting "${job.input.name}" to ${format} failed: ${why.slice(0, 500)}` };
    }
    job.onProgress?.(1);
    return written(job, await readFile(join(out, made)), ext);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

export const runDocumentConvert: RobotRunner = async (job) => {
  const { input, robot } = job;
  const format = String(job.params.format ?? '');
  const kind = sourceKind(input);
  if (kind === 'pdf') return unsuitable(`A PDF: ${robot} converts files to PDF, not from it (use /document/thumbs for images of its pages)`);
  if (kind === 'other') return unsuitable(`Not a document ${robot} converts here: ${input.mime ?? 'an unknown type'} (HTML, Markdown, text, images into PDF, SubRip/WebVTT and, with LibreOffice, office files)`);
  if (!TARGETS[kind].includes(format)) return unsuitable(`${robot} does not convert ${KIND_NAMES[kind]} to ${format}: here they become ${TARGETS[kind].join(', ')}`);
  if (input.size > 50 * 1024 * 1024 && kind !== 'office') return { ok: false, code: 'DOCUMENT_CONVERT_VALIDATION', message: `"${input.name}" has ${input.size} bytes; documents up to 50 MB are converted.` };

  if (kind === 'subtitles') {
    const cues = readCues(await readFile(input.localPath, 'utf8'));
    if (!cues) return unsuitable(`No subtitle cues in "${input.name}": ${robot} reads SubRip and WebVTT`);
    return written(job, format === 'vtt' ? writeVtt(cues) : writeSrt(cues), format, { cue_count: cues.length });
  }
  if (kind === 'html' && format === 'md') return written(job, await htmlAsMarkdown(await readFile(input.localPath, 'utf8')), 'md');
  if (kind === 'html') return drawn(job, await readFile(input.localPath), format);
  if (kind === 'image') return imageAsPdf(job);
  if (kind === 'markdown') {
    const html = markdownAsHtml(await readFile(input.localPath, 'utf8'), {
      format: job.params.markdown_format === 'commonmark' ? 'commonmark' : 'gfm',
      theme: job.params.markdown_theme === 'bare' ? 'bare' : 'github',
      title: input.basename,
    });
    return format === 'html' ? written(job, html, 'html') : drawn(job, Buffer.from(html), format);
  }
  if (kind === 'text') {
    const html = textAsHtml(await readFile(input.localPath, 'utf8'), input.name);
    return format === 'html' ? written(job, html, 'html') : drawn(job, Buffer.from(html), format);
  }
  return byLibreOffice(job, format);
};
