// /video/thumbs: ffmpeg grabs frames at `offsets` (seconds or "NN%") or at `count` evenly spaced
// points; sharp sizes and encodes them (service-facts §8 defaults: 8 thumbs, jpeg, pad).

import { rm, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { parseIntParam } from '../instructions/robot-params';
import { ffprobe } from './extract-meta';
import { runFfmpeg } from './ffmpeg';
import { describeResult } from './file-record';
import { encode, sharpColor } from './image-encode';
import { digestBytes } from './image-output';
import { outputDir, outputFile, scratchFile } from './output-path';
import type { RobotRunner } from './robot-types';

const FRAME_TIMEOUT_MS = 2 * 60_000;

/** Seconds at which to grab frames; kept inside the video so every grab yields a frame. */
export function thumbOffsets(duration: number, count: number, offsets: unknown[] | undefined): number[] {
  const last = Math.max(0, duration - 0.1);
  if (offsets && offsets.length > 0) {
    return offsets.map((o) => {
      const s = typeof o === 'string' && o.trim().endsWith('%') ? (duration * Number.parseFloat(o)) / 100 : Number(o);
      return Math.min(Math.max(0, s), last);
    });
  }
  return Array.from({ length: count }, (_, i) => Math.min(last, (duration * (i + 1)) / (count + 1)));
}

const FIT: Record<string, 'contain' | 'inside' | 'cover' | 'fill' | 'outside'> = {
  pad: 'contain', fit: 'inside', fillcrop: 'cover', crop: 'cover', stretch: 'fill', min_fit: 'outside',
};

export const runVideoThumbs: RobotRunner = async ({ robot, params, input, outDir, signal, onProgress }) => {
  if (!input.mime?.startsWith('video/')) {
    return { ok: false, code: 'INVALID_INPUT_ERROR', message: `${robot} needs a video, but "${input.name}" is ${input.mime ?? 'of an unknown type'}.`, unsuitableInput: true };
  }
  let duration = typeof input.meta.duration === 'number' ? input.meta.duration : null;
  if (duration === null) {
    const probe = await ffprobe(input.localPath);
    duration = Number(probe?.format?.duration ?? Number.NaN);
  }
  if (!Number.isFinite(duration)) {
    return { ok: false, code: 'INVALID_INPUT_ERROR', message: `"${input.name}" has no readable duration.`, unsuitableInput: true };
  }
  const count = parseIntParam(params.count) ?? 8;
  const offsets = thumbOffsets(duration, count, Array.isArray(params.offsets) ? params.offsets : undefined);
  const format = params.format === 'png' ? 'png' : 'jpeg';
  const ext = format === 'png' ? 'png' : 'jpg';
  const width = parseIntParam(params.width);
  const height = parseIntParam(params.height);
  const fit = FIT[typeof params.resize_strategy === 'string' ? params.resize_strategy : 'pad'] ?? 'contain';
  const background = sharpColor(params.background, '#00000000');
  const dir = await outputDir(outDir, input.id);

  const files = [];
  for (const [index, offset] of offsets.entries()) {
    const frame = scratchFile(dir, `.frame-${index}.png`);
    const grabbed = await runFfmpeg(['-ss', offset.toFixed(3), '-i', input.localPath, '-frames:v', '1', '-f', 'image2', '-c:v', 'png', frame], signal, FRAME_TIMEOUT_MS);
    if (!grabbed.ok) {
      if (grabbed.aborted) return { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' };
      return { ok: false, code: 'INVALID_INPUT_ERROR', message: `No frame at ${offset.toFixed(2)} s of "${input.name}": ${grabbed.message}`, unsuitableInput: true };
    }
    let img = sharp(frame);
    const rotate = parseIntParam(params.rotate);
    if (rotate) img = img.rotate(rotate);
    if (width !== null || height !== null) img = img.resize(width ?? undefined, height ?? undefined, { fit, background });
    const name = `${input.basename}_${index}.${ext}`;
    const target = outputFile(dir, input.basename, `_${index}.${ext}`);
    const bytes = await encode(img, format, true, { quality: 92, progressive: false, background: format === 'jpeg' ? '#000000' : background }).toBuffer();
    await Promise.all([writeFile(target, bytes), rm(frame, { force: true })]);
    // A frame sharp encoded from bare pixels embeds no metadata: the record reads its pixels, not ExifTool.
    files.push(await describeResult(input, target, name, { thumb_index: index, thumb_offset: Math.round(offset * 1000) / 1000 }, { digests: digestBytes(bytes), size: bytes.length, embeddedMetadata: false }));
    // Each frame is one ffmpeg seek and one encode: the frames made so far are this job's progress.
    if (index < offsets.length - 1) onProgress?.((index + 1) / offsets.length);
  }
  return { ok: true, files };
};
