// /video/encode with ffmpeg: a small set of presets (service-facts §8 lists 202; we run the common
// families) and the box parameters width/height/resize_strategy/zoom/background. Without a preset the
// output is H.264/AAC MP4 at the source size (the real default, "flash", is obsolete).

import { parseIntParam } from '../instructions/robot-params';
import { runFfmpeg, timeProgress } from './ffmpeg';
import { describeResult } from './file-record';
import { outputDir, outputFile } from './output-path';
import type { RobotRunner } from './robot-types';

interface Preset {
  ext: string;
  /** Encoder options, without scaling. */
  codec: string[];
  box?: { width: number; height: number };
  gif?: boolean;
}

const H264 = ['-c:v', 'libx264', '-preset', 'veryfast', '-crf', '23', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-b:a', '128k', '-movflags', '+faststart'];
const WEB_HEIGHTS = [240, 360, 480, 540, 720, 1080];

export const VIDEO_PRESETS: Record<string, Preset> = {
  'ipad-high': { ext: 'mp4', codec: H264, box: { width: 1024, height: 768 } },
  ipad: { ext: 'mp4', codec: H264, box: { width: 1024, height: 768 } },
  'iphone-high': { ext: 'mp4', codec: H264, box: { width: 960, height: 640 } },
  iphone: { ext: 'mp4', codec: H264, box: { width: 480, height: 320 } },
  'android-high': { ext: 'mp4', codec: H264, box: { width: 1280, height: 720 } },
  android: { ext: 'mp4', codec: H264, box: { width: 480, height: 320 } },
  hevc: { ext: 'mp4', codec: ['-c:v', 'libx265', '-preset', 'ultrafast', '-crf', '28', '-pix_fmt', 'yuv420p', '-tag:v', 'hvc1', '-c:a', 'aac', '-b:a', '128k'] },
  webm: { ext: 'webm', codec: ['-c:v', 'libvpx-vp9', '-b:v', '0', '-crf', '33', '-deadline', 'realtime', '-cpu-used', '8', '-pix_fmt', 'yuv420p', '-c:a', 'libopus', '-b:a', '96k'] },
  gif: { ext: 'gif', codec: [], gif: true },
  ...Object.fromEntries(WEB_HEIGHTS.map((h) => [`web/mp4/${h}p`, { ext: 'mp4', codec: H264, box: { width: Math.round((h * 16) / 9 / 2) * 2, height: h } }])),
};

/** `_` and `-` are interchangeable in preset names. */
export const normalizePreset = (name: string): string => name.replace(/_/g, '-');
export const VIDEO_PRESET_NAMES = Object.keys(VIDEO_PRESETS);

const even = (n: number): number => Math.max(2, n - (n % 2));

/** ffmpeg -vf scaling for a box and strategy; odd sizes become even (H.264 and VP9 need even sizes). Pure. */
export function scaleFilter(width: number | null, height: number | null, strategy: string, zoom: boolean, background: string): string[] {
  if (width === null && height === null) return ['scale=trunc(iw/2)*2:trunc(ih/2)*2'];
  if (width === null || height === null) {
    const side = width !== null ? `${zoom ? even(width) : `'min(${even(width)},trunc(iw/2)*2)'`}:-2` : `-2:${zoom ? even(height!) : `'min(${even(height!)},trunc(ih/2)*2)'`}`;
    return [`scale=${side}`];
  }
  const W = even(width);
  const H = even(height);
  const box = zoom ? `${W}:${H}` : `'min(${W},iw)':'min(${H},ih)'`;
  switch (strategy) {
    case 'stretch':
      return [`scale=${W}:${H}`, 'setsar=1'];
    case 'fillcrop':
    case 'crop':
      return [`scale=${W}:${H}:force_original_aspect_ratio=increase`, `crop=${W}:${H}`, 'setsar=1'];
    case 'min_fit':
      return [`scale=${box}:force_original_aspect_ratio=increase`, 'scale=trunc(iw/2)*2:trunc(ih/2)*2', 'setsar=1'];
    case 'fit':
      return [`scale=${box}:force_original_aspect_ratio=decrease`, 'scale=trunc(iw/2)*2:trunc(ih/2)*2', 'setsar=1'];
    default: // pad
      return [`scale=${box}:force_original_aspect_ratio=decrease`, 'scale=trunc(iw/2)*2:trunc(ih/2)*2', `pad=${W}:${H}:(ow-iw)/2:(oh-ih)/2:color=${background}`, 'setsar=1'];
  }
}

/** ffmpeg colors: "#RRGGBB[AA]" -> "0xRRGGBB" (video has no alpha: transparent pads are black). */
const ffmpegColor = (v: unknown): string => {
  const m = typeof v === 'string' ? /^#?([0-9a-f]{6})/i.exec(v.trim()) : null;
  return m ? `0x${m[1]}` : 'black';
};

export const runVideoEncode: RobotRunner = async ({ robot, params, input, outDir, signal, onProgress }) => {
  if (!input.mime?.startsWith('video/') && input.mime !== 'image/gif') {
    return { ok: false, code: 'INVALID_INPUT_ERROR', message: `${robot} needs a video, but "${input.name}" is ${input.mime ?? 'of an unknown type'}.`, unsuitableInput: true };
  }
  const presetName = typeof params.preset === 'string' ? normalizePreset(params.preset) : null;
  const preset: Preset = presetName ? VIDEO_PRESETS[presetName]! : { ext: 'mp4', codec: H264 };
  const width = parseIntParam(params.width) ?? preset.box?.width ?? null;
  const height = parseIntParam(params.height) ?? preset.box?.height ?? null;
  const strategy = typeof params.resize_strategy === 'string' ? params.resize_strategy : 'pad';
  const filters = scaleFilter(width, height, strategy, params.zoom !== false, ffmpegColor(params.background));
  const name = `${input.basename}.${preset.ext}`;
  const target = outputFile(await outputDir(outDir, input.id), input.basename, `.${preset.ext}`);
  const args = preset.gif
    ? ['-i', input.localPath, '-filter_complex', `[0:v]fps=10,${filters.join(',')},split[a][b];[a]palettegen[p];[b][p]paletteuse`, '-an', target]
    : ['-i', input.localPath, '-vf', filters.join(','), ...preset.codec, target];
  const done = await runFfmpeg(args, signal, 0, timeProgress(input.meta.duration, onProgress));
  if (!done.ok) {
    if (done.aborted) return { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' };
    return { ok: false, code: 'VIDEO_ENCODE_ERROR', message: `"${input.name}" could not be encoded: ${done.message}` };
  }
  return { ok: true, files: [await describeResult(input, target, name)] };
};
