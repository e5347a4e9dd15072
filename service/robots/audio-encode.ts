// /audio/encode with ffmpeg: a few presets (default mp3), optional bitrate and sample rate. The free-form
// `ffmpeg` passthrough is refused at validation: it would let instructions run arbitrary ffmpeg options.

import { parseIntParam } from '../instructions/robot-params';
import { runFfmpeg, timeProgress } from './ffmpeg';
import { describeResult } from './file-record';
import { outputDir, outputFile } from './output-path';
import type { RobotRunner } from './robot-types';

export const AUDIO_PRESET_CODECS: Record<string, { codec: string; ext: string; bitrate: number | null; quality?: string }> = {
  mp3: { codec: 'libmp3lame', ext: 'mp3', bitrate: 128_000 },
  aac: { codec: 'aac', ext: 'm4a', bitrate: 128_000 },
  // Vorbis rejects fixed bitrates at some sample rates; its quality mode always works.
  ogg: { codec: 'libvorbis', ext: 'ogg', bitrate: null, quality: '4' },
  opus: { codec: 'libopus', ext: 'opus', bitrate: 96_000 },
  flac: { codec: 'flac', ext: 'flac', bitrate: null },
  wav: { codec: 'pcm_s16le', ext: 'wav', bitrate: null },
};

export const runAudioEncode: RobotRunner = async ({ robot, params, input, outDir, signal, onProgress }) => {
  const hasAudio = input.mime?.startsWith('audio/') || (input.mime?.startsWith('video/') && Number(input.meta.num_audio_streams ?? 0) > 0);
  if (!hasAudio) {
    return { ok: false, code: 'INVALID_INPUT_ERROR', message: `${robot} needs audio, but "${input.name}" has none (${input.mime ?? 'unknown type'}).`, unsuitableInput: true };
  }
  const preset = AUDIO_PRESET_CODECS[typeof params.preset === 'string' ? params.preset : 'mp3'] ?? AUDIO_PRESET_CODECS.mp3!;
  const lossless = preset.codec === 'flac' || preset.codec === 'pcm_s16le';
  const bitrate = lossless ? null : parseIntParam(params.bitrate) ?? preset.bitrate;
  const sampleRate = parseIntParam(params.sample_rate);
  const name = `${input.basename}.${preset.ext}`;
  const target = outputFile(await outputDir(outDir, input.id), input.basename, `.${preset.ext}`);
  const args = ['-i', input.localPath, '-vn', '-map', '0:a:0', '-c:a', preset.codec];
  if (bitrate !== null) args.push('-b:a', String(bitrate));
  else if (preset.quality) args.push('-q:a', preset.quality);
  if (sampleRate !== null) args.push('-ar', String(sampleRate));
  const done = await runFfmpeg([...args, target], signal, 0, timeProgress(input.meta.duration, onProgress));
  if (!done.ok) {
    if (done.aborted) return { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' };
    return { ok: false, code: 'AUDIO_ENCODE_ERROR', message: `"${input.name}" could not be encoded: ${done.message}` };
  }
  return { ok: true, files: [await describeResult(input, target, name)] };
};
