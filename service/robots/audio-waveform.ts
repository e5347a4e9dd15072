// /audio/waveform: an image drawn by ffmpeg's showwavespic, or JSON peaks in the audiowaveform layout
// ({version, channels, sample_rate, samples_per_pixel, bits, length, data: [min, max, …]}).

import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { parseIntParam } from '../instructions/robot-params';
import { ffprobe } from './extract-meta';
import { runFfmpeg } from './ffmpeg';
import { describeResult } from './file-record';
import { sharpColor } from './image-encode';
import { digestBytes } from './image-output';
import { outputDir, outputFile, scratchFile } from './output-path';
import type { RobotFileOutcome, RobotRunner } from './robot-types';

const PEAK_RATE = 8000;

/** "000000ff" / "#FF0000" -> ffmpeg "0xRRGGBBAA". */
export function ffmpegRgba(value: unknown, fallback: string): string {
  const hex = (typeof value === 'string' ? value : fallback).trim().replace(/^#/, '');
  if (/^[0-9a-f]{8}$/i.test(hex)) return `0x${hex}`;
  if (/^[0-9a-f]{6}$/i.test(hex)) return `0x${hex}ff`;
  return `0x${fallback}`;
}

/**
 * Min/max per pixel of 16-bit samples, scaled to 8 bits, fed chunk by chunk so hours of audio never sit
 * in memory. The bucket size comes from the expected sample count; samples beyond it join the last pixel.
 */
export class PeakCollector {
  readonly samplesPerPixel: number;
  private readonly mins: Int16Array;
  private readonly maxs: Int16Array;
  private seen = 0;
  private carry: number | null = null;

  constructor(private readonly width: number, private readonly expectedSamples: number) {
    this.samplesPerPixel = Math.max(1, Math.ceil(expectedSamples / width));
    this.mins = new Int16Array(width);
    this.maxs = new Int16Array(width);
  }

  /** Raw s16le bytes; a chunk may split a sample, so an odd byte is carried over. */
  push(chunk: Buffer): void {
    let bytes = chunk;
    if (this.carry !== null) {
      bytes = Buffer.concat([Buffer.from([this.carry]), chunk]);
      this.carry = null;
    }
    const whole = bytes.length - (bytes.length % 2);
    if (whole < bytes.length) this.carry = bytes[bytes.length - 1]!;
    for (let i = 0; i < whole; i += 2) this.add(bytes.readInt16LE(i));
  }

  /** How much of the expected audio was decoded, 0..1 (below 1 until the end: the duration is an estimate). */
  fraction(): number {
    return Math.min(0.99, this.seen / Math.max(1, this.expectedSamples));
  }

  add(sample: number): void {
    const px = Math.min(this.width - 1, Math.floor(this.seen / this.samplesPerPixel));
    if (sample < this.mins[px]!) this.mins[px] = sample;
    if (sample > this.maxs[px]!) this.maxs[px] = sample;
    this.seen += 1;
  }

  data(): number[] {
    const out: number[] = [];
    for (let px = 0; px < this.width; px++) out.push(Math.round(this.mins[px]! / 256), Math.round(this.maxs[px]! / 256));
    return out;
  }
}

/** Streams the first audio track as mono 16-bit PCM at 8 kHz into the collector. */
function collectPeaks(localPath: string, collector: PeakCollector, signal: AbortSignal, onProgress?: (fraction: number) => void): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-i', localPath, '-vn', '-ac', '1', '-ar', String(PEAK_RATE), '-f', 's16le', '-'], { signal });
    child.stdout.on('data', (c: Buffer) => {
      collector.push(c);
      onProgress?.(collector.fraction());
    });
    child.on('error', () => resolve(false));
    child.on('close', (code) => resolve(code === 0));
  });
}

export const runAudioWaveform: RobotRunner = async ({ robot, params, input, outDir, signal, onProgress }): Promise<RobotFileOutcome> => {
  const hasAudio = input.mime?.startsWith('audio/') || (input.mime?.startsWith('video/') && Number(input.meta.num_audio_streams ?? 0) > 0);
  if (!hasAudio) {
    return { ok: false, code: 'INVALID_INPUT_ERROR', message: `${robot} needs audio, but "${input.name}" has none (${input.mime ?? 'unknown type'}).`, unsuitableInput: true };
  }
  const width = parseIntParam(params.width) ?? 256;
  const height = parseIntParam(params.height) ?? 64;
  const dir = await outputDir(outDir, input.id);

  if (params.format === 'json') {
    const duration = typeof input.meta.duration === 'number' ? input.meta.duration : Number((await ffprobe(input.localPath))?.format?.duration ?? 0);
    const collector = new PeakCollector(width, Math.max(1, Math.round(duration * PEAK_RATE)));
    const decoded = await collectPeaks(input.localPath, collector, signal, onProgress);
    if (signal.aborted) return { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' };
    if (!decoded) return { ok: false, code: 'AUDIO_WAVEFORM_ERROR', message: `The audio of "${input.name}" could not be decoded.` };
    const samplesPerPixel = collector.samplesPerPixel;
    const data = collector.data();
    const name = `${input.basename}.json`;
    const target = outputFile(dir, input.basename, '.json');
    await writeFile(target, JSON.stringify({ version: 2, channels: 1, sample_rate: PEAK_RATE, samples_per_pixel: samplesPerPixel, bits: 8, length: width, data }));
    return { ok: true, files: [await describeResult(input, target, name)] };
  }

  const name = `${input.basename}.png`;
  const drawn = scratchFile(dir, '.waveform-drawn.png');
  const color = ffmpegRgba(params.outer_color, '000000ff');
  const done = await runFfmpeg(['-i', input.localPath, '-filter_complex', `[0:a:0]aformat=channel_layouts=mono,showwavespic=s=${width}x${height}:colors=${color}`, '-frames:v', '1', drawn], signal);
  if (!done.ok) {
    if (done.aborted) return { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' };
    return { ok: false, code: 'AUDIO_WAVEFORM_ERROR', message: `No waveform for "${input.name}": ${done.message}` };
  }
  const target = outputFile(dir, input.basename, '.png');
  const background = sharpColor(params.background_color, '#00000000');
  const bytes = await sharp(drawn).flatten(typeof background === 'string' && !/^#?[0-9a-f]{6}00$/i.test(background) ? { background } : false).png().toBuffer();
  await Promise.all([writeFile(target, bytes), rm(drawn, { force: true })]);
  // Drawn from bare pixels, it embeds no metadata: the record reads its pixels, not ExifTool.
  return { ok: true, files: [await describeResult(input, target, name, {}, { digests: digestBytes(bytes), size: bytes.length, embeddedMetadata: false })] };
};
