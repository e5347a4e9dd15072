// Test helpers: real image, video, audio and PDF files generated into temp dirs, and a machine without the
// robots' programs (used by *.test.ts only).

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { LookupFunction } from '../notifications/notify-address';
import { describeUpload, type StoredFile } from './file-record';

const run = promisify(execFile);

export async function makeTempDir(prefix = 'robots-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * A name resolver for tests of the address policy (pass it as `network.lookup`): "intranet.test" is on a
 * private network (192.168.1.5), every other name is the test's own server on 127.0.0.1.
 */
export const intranetLookup: LookupFunction = (hostname, options, callback) => {
  const address = hostname === 'intranet.test' ? '192.168.1.5' : '127.0.0.1';
  if (options.all) callback(null, [{ address, family: 4 }]);
  else callback(null, address, 4);
};

/**
 * Runs `check` as on a machine where no program the robots call (ffmpeg, poppler, Tesseract, espeak-ng…)
 * is installed: PATH is an empty folder until `check` ends.
 */
export async function withoutTools<T>(check: () => T | Promise<T>): Promise<T> {
  const path = process.env.PATH;
  const { dir, cleanup } = await makeTempDir('no-tools-');
  process.env.PATH = dir;
  try {
    return await check();
  } finally {
    process.env.PATH = path;
    await cleanup();
  }
}

export interface ImageSpec {
  width: number;
  height: number;
  format?: 'png' | 'jpeg' | 'webp' | 'gif' | 'tiff';
  alpha?: number;
  color?: { r: number; g: number; b: number };
}

export async function writeImage(path: string, spec: ImageSpec): Promise<string> {
  const { r, g, b } = spec.color ?? { r: 200, g: 30, b: 30 };
  const img = sharp({ create: { width: spec.width, height: spec.height, channels: spec.alpha === undefined ? 3 : 4, background: { r, g, b, alpha: spec.alpha ?? 1 } } });
  await img.toFormat(spec.format ?? 'png').toFile(path);
  return path;
}

export async function imageUpload(dir: string, name: string, spec: ImageSpec, field = 'file', userMeta?: Record<string, unknown>): Promise<StoredFile> {
  const localPath = await writeImage(join(dir, name), spec);
  return describeUpload({ localPath, name, field, ...(userMeta ? { userMeta } : {}) });
}

export async function textUpload(dir: string, name: string, content: string, field = 'file'): Promise<StoredFile> {
  const localPath = join(dir, name);
  await writeFile(localPath, content);
  return describeUpload({ localPath, name, field });
}

/** A 1 s 320×240 test video with a sine audio track, made by ffmpeg. */
export async function writeVideo(path: string, seconds = 1, extraArgs: string[] = []): Promise<string> {
  await run('ffmpeg', [
    '-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=duration=${seconds}:size=320x240:rate=10`,
    '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', ...extraArgs, path,
  ]);
  return path;
}

/** A mono 44.1 kHz sine wave as WAV, made by ffmpeg. */
export async function writeAudio(path: string, seconds = 1): Promise<string> {
  await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=440:duration=${seconds}`, '-ac', '1', '-ar', '44100', path]);
  return path;
}

/**
 * A PDF of `objects` (numbered from 1; the first the catalog, the last the Info dictionary), with the
 * cross-reference table's offsets computed so poppler and ExifTool accept it.
 */
async function writePdfObjects(path: string, objects: readonly string[]): Promise<string> {
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj${o}endobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer<</Size ${objects.length + 1}/Root 1 0 R/Info ${objects.length} 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  await writeFile(path, body);
  return path;
}

/** A tiny valid PDF of `pages` empty pages with an Info dictionary. */
export async function writePdf(path: string, pages: number, info = '/Producer(Hand Written)/Author(Ada)/Title(Pages)'): Promise<string> {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ');
  return writePdfObjects(path, [
    '<</Type/Catalog/Pages 2 0 R>>',
    `<</Type/Pages/Kids[${kids}]/Count ${pages}>>`,
    ...Array.from({ length: pages }, () => '<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>'),
    `<<${info}>>`,
  ]);
}

export interface PdfPage {
  /** Lines of text, drawn large from the top left. */
  lines: string[];
  width?: number;
  height?: number;
}

const escapePdf = (s: string): string => s.replace(/[\\()]/g, (c) => `\\${c}`);

/**
 * A PDF whose pages carry `lines` in 36 pt Helvetica (one of the 14 standard fonts every reader has),
 * black on white, 72 pt from the top left: words for the document robots' tests to find.
 */
export async function writeTextPdf(path: string, pages: readonly PdfPage[], title = 'Words'): Promise<string> {
  // 1 catalog, 2 pages, 3 font, then per page: the page and its content stream, then the info.
  const pageObj = (i: number) => 4 + i * 2;
  const objects: string[] = [
    '<</Type/Catalog/Pages 2 0 R>>',
    `<</Type/Pages/Kids[${pages.map((_, i) => `${pageObj(i)} 0 R`).join(' ')}]/Count ${pages.length}>>`,
    '<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding>>',
  ];
  for (const [i, page] of pages.entries()) {
    const w = page.width ?? 612;
    const h = page.height ?? 792;
    const text = page.lines.map((line, j) => `BT /F1 36 Tf 72 ${h - 108 - j * 48} Td (${escapePdf(line)}) Tj ET`).join('\n');
    objects.push(`<</Type/Page/Parent 2 0 R/MediaBox[0 0 ${w} ${h}]/Resources<</Font<</F1 3 0 R>>>>/Contents ${pageObj(i) + 1} 0 R>>`);
    objects.push(`<</Length ${Buffer.byteLength(text)}>>stream\n${text}\nendstream\n`);
  }
  objects.push(`<</Producer(Assemblyline tests)/Title(${escapePdf(title)})>>`);
  return writePdfObjects(path, objects);
}
