// What the media robots share: running ffmpeg for a job (progress from its encoded time, the outcome as a
// robot outcome), and the output codec of an audio preset.

import { AUDIO_PRESET_CODECS } from '../audio-encode';
import { parseIntParam } from '../../instructions/robot-params';
import { runFfmpeg } from '../ffmpeg';
import type { RobotFileOutcome } from '../robot-types';

export type Failure = Extract<RobotFileOutcome, { ok: false }>;

/** Runs ffmpeg; `total` seconds of output make progress 1. Null when it succeeded, else the failure (`<PREFIX>_ERROR`). */
export async function ffmpegStep(
  args: string[],
  job: { robot: string; signal: AbortSignal; onProgress?(fraction: number): void },
  total: number | null,
  what: string,
): Promise<Failure | null> {
  const onTime = job.onProgress && total && total > 0 ? (s: number) => job.onProgress!(Math.max(0, Math.min(1, s / total))) : undefined;
  const done = await runFfmpeg(args, job.signal, 0, onTime);
  if (done.ok) return null;
  if (done.aborted) return { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' };
  const prefix = job.robot.replace(/^\//, '').replace(/[/-]/g, '_').toUpperCase();
  return { ok: false, code: `${prefix}_ERROR`, message: `${what} failed: ${done.message}` };
}

/** The encoder arguments and extension of an audio step's `preset` (default mp3), `bitrate` and `sample_rate`. */
export function audioOutput(params: Record<string, unknown>): { args: string[]; ext: string } {
  const name = typeof params.preset === 'string' ? params.preset.replace(/^audio\//, '') : 'mp3';
  const preset = AUDIO_PRESET_CODECS[name] ?? AUDIO_PRESET_CODECS.mp3!;
  const lossless = preset.codec === 'flac' || preset.codec === 'pcm_s16le';
  const bitrate = lossless ? null : parseIntParam(params.bitrate) ?? preset.bitrate;
  const args = ['-c:a', preset.codec];
  if (bitrate !== null) args.push('-b:a', String(bitrate));
  else if (preset.quality) args.push('-q:a', preset.quality);
  const rate = parseIntParam(params.sample_rate);
  if (rate !== null) args.push('-ar', String(rate));
  return { args, ext: preset.ext };
}

/** H.264/AAC MP4 that plays anywhere (and starts before it is all downloaded). */
export const MP4_VIDEO = ['-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'];
export const AAC = ['-c:a', 'aac', '-b:a', '128k'];

/** An even number of pixels (H.264 needs them), at least 2. */
export const even = (n: number): number => Math.max(2, Math.round(n / 2) * 2);

/** A number parameter, or `fallback` when absent or not a number. */
export const numParam = (v: unknown, fallback: number): number => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) ? n : fallback;
};

export const boolParam = (v: unknown): boolean => v === true || v === 'true';

/** Seconds for ffmpeg (no exponent notation). */
export const secs = (n: number): string => n.toFixed(3);
