// Test helpers: real image/video/audio files generated into temp dirs (used by *.test.ts only).

import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { describeUpload, type StoredFile } from './file-record';

const run = promisify(execFile);

export async function makeTempDir(prefix = 'robots-'): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
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

/** A tiny valid PDF of `pages` empty pages with an Info dictionary (offsets computed, so readers accept it). */
export async function writePdf(path: string, pages: number, info = '/Producer(Hand Written)/Author(Ada)/Title(Pages)'): Promise<string> {
  const kids = Array.from({ length: pages }, (_, i) => `${i + 3} 0 R`).join(' ');
  const objects = [
    '<</Type/Catalog/Pages 2 0 R>>',
    `<</Type/Pages/Kids[${kids}]/Count ${pages}>>`,
    ...Array.from({ length: pages }, () => '<</Type/Page/Parent 2 0 R/MediaBox[0 0 612 792]>>'),
    `<<${info}>>`,
  ];
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
