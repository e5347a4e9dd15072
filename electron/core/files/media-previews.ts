// Poster frames for videos and waveforms for audio, made by ffmpeg (the same binary the local service's
// robots use, found on PATH). Bounded: a few processes at once, a time limit each, ffmpeg seeks rather
// than reads, and answers are cached so scrolling back never runs ffmpeg again.

import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';

export type MediaKind = 'image' | 'video' | 'audio' | 'other';

/** What a thumbnail channel answers: the preview (null → the page shows a type icon), the kind, the length. */
export interface MediaPreview {
  readonly dataUrl: string | null;
  readonly kind: MediaKind;
  /** Seconds, when known. */
  readonly duration: number | null;
}

/**
 * A local path, or an http(s) URL ffmpeg reads itself (with range requests: only what it needs), trusting
 * `ca` (the workspace's CA list: the system's plus its own CA file) or, when null, the system's.
 */
export type MediaSource = { readonly path: string } | { readonly url: string; readonly ca?: readonly string[] | null };

export interface MediaPreviewerOptions {
  readonly ffmpeg?: string;
  readonly ffprobe?: string;
  /** ffmpeg/ffprobe processes at once. */
  readonly concurrency?: number;
  /** Per process. */
  readonly timeoutMs?: number;
  readonly cacheEntries?: number;
}

export interface MediaPreviewer {
  /** Never rejects: a file ffmpeg cannot read, a timeout or a missing ffmpeg give `dataUrl: null`. */
  preview(source: MediaSource, kind: 'video' | 'audio', size: number, cacheKey: string, knownDuration?: number | null): Promise<MediaPreview>;
  /** ffmpeg processes started so far (to prove the cache works). */
  readonly runs: number;
}

/** Where in a video the poster frame is taken: 10 % in (past black leaders), at most a minute. */
export function posterOffset(duration: number | null): number {
  if (duration === null || !Number.isFinite(duration) || duration <= 0) return 0;
  return Math.min(duration * 0.1, 60);
}

/**
 * A small gate: at most `limit` tasks run at once; waiting tasks start newest first, because the newest
 * requests are for the rows in view now, and older ones for rows the user has scrolled past.
 */
export function createLimiter(limit: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    else active += 1;
    try {
      return await task();
    } finally {
      // The slot passes straight to the next task (so a newcomer cannot slip in between).
      const next = waiting.pop();
      if (next) next();
      else active -= 1;
    }
  };
}

// Waveform colour: readable on the light and the dark theme's sunken background.
const WAVE_COLOR = '0x4f86d9';
// A waveform needs the audio decoded; beyond half an hour the first 30 minutes stand for the whole.
const MAX_WAVEFORM_SECONDS = 1800;

export function createMediaPreviewer(options: MediaPreviewerOptions = {}): MediaPreviewer {
  const ffmpeg = options.ffmpeg ?? process.env.ASSEMBLYLINE_FFMPEG ?? 'ffmpeg';
  const ffprobe = options.ffprobe ?? process.env.ASSEMBLYLINE_FFPROBE ?? 'ffprobe';
  const timeoutMs = options.timeoutMs ?? 20_000;
  const maxEntries = options.cacheEntries ?? 1_000;
  const gate = createLimiter(options.concurrency ?? 2);
  const cache = new Map<string, Promise<MediaPreview>>();
  let missing = false; // ffmpeg not installed: stop trying, the page shows type icons
  let runs = 0;

  const run = (binary: string, args: string[]): Promise<Buffer | null> =>
    missing
      ? Promise.resolve(null)
      : gate(
          () =>
            new Promise<Buffer | null>((resolve) => {
              runs += 1;
              execFile(binary, args, { encoding: 'buffer', timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 16 * 1024 * 1024, windowsHide: true }, (error, stdout) => {
                if ((error as NodeJS.ErrnoException | null)?.code === 'ENOENT') missing = true;
                resolve(error || stdout.length === 0 ? null : stdout);
              });
            }),
        );

  const probe = async (input: string[]): Promise<{ duration: number | null; video: boolean; audio: boolean }> => {
    const out = await run(ffprobe, ['-v', 'error', '-show_entries', 'format=duration:stream=codec_type', '-of', 'json', ...input]);
    if (!out) return { duration: null, video: false, audio: false };
    try {
      const json = JSON.parse(out.toString('utf8')) as { format?: { duration?: string }; streams?: { codec_type?: string }[] };
      const duration = Number(json.format?.duration);
      const streams = json.streams ?? [];
      return {
        duration: Number.isFinite(duration) && duration > 0 ? duration : null,
        video: streams.some((s) => s.codec_type === 'video'),
        audio: streams.some((s) => s.codec_type === 'audio'),
      };
    } catch {
      return { duration: null, video: false, audio: false };
    }
  };

  const ffmpegArgs = (input: string[], rest: string[]) => ['-hide_banner', '-nostdin', '-v', 'error', ...input, ...rest, '-f', 'image2pipe', '-c:v', 'png', 'pipe:1'];

  const poster = async (input: string[], offset: number, size: number): Promise<string | null> => {
    const scale = `scale=${size}:${size}:force_original_aspect_ratio=decrease`;
    // Seeking before -i jumps to the nearest keyframe without decoding what comes before.
    const grab = (at: number) => run(ffmpeg, ffmpegArgs([...input.slice(0, -2), '-ss', at.toFixed(3), ...input.slice(-2)], ['-map', '0:v:0', '-frames:v', '1', '-vf', scale]));
    const png = (await grab(offset)) ?? (offset > 0 ? await grab(0) : null);
    return png ? encode(png, 'jpeg') : null;
  };

  const waveform = async (input: string[], size: number): Promise<string | null> => {
    const height = Math.max(16, Math.round(size * 0.6));
    const filter = `[0:a:0]aformat=channel_layouts=mono,showwavespic=s=${size}x${height}:scale=sqrt:colors=${WAVE_COLOR}`;
    const png = await run(ffmpeg, ffmpegArgs([...input.slice(0, -2), '-t', String(MAX_WAVEFORM_SECONDS), ...input.slice(-2)], ['-filter_complex', filter, '-frames:v', '1']));
    return png ? encode(png, 'png') : null;
  };

  const make = async (source: MediaSource, kind: 'video' | 'audio', size: number, knownDuration: number | null): Promise<MediaPreview> => {
    const input = inputArgs(source, 'url' in source && source.ca ? await caFileOf(source.ca) : null);
    const facts = await probe(input);
    const duration = facts.duration ?? knownDuration;
    if (kind === 'video' && facts.video) return { kind, duration, dataUrl: await poster(input, posterOffset(duration), size) };
    // A "video" with sound only (an .mp4 of a podcast) gets a waveform; a file with neither gets its icon.
    if (facts.audio) return { kind, duration, dataUrl: await waveform(input, size) };
    return { kind, duration, dataUrl: null };
  };

  return {
    get runs() {
      return runs;
    },
    preview(source, kind, size, cacheKey, knownDuration = null) {
      const key = `${kind}|${size}|${cacheKey}`;
      const hit = cache.get(key);
      if (hit) {
        cache.delete(key); // re-insert: most recently used last
        cache.set(key, hit);
        return hit;
      }
      const made = make(source, kind, size, knownDuration).catch((): MediaPreview => ({ kind, duration: knownDuration, dataUrl: null }));
      cache.set(key, made);
      if (cache.size > maxEntries) cache.delete(cache.keys().next().value!);
      return made;
    },
  };
}

/**
 * ffmpeg input options. Local paths go through the `file:` protocol (a name like `concat:a|b` stays a
 * name); URLs may use only http(s), with an I/O timeout so a stalled server cannot hold a slot, and the
 * server's certificate is verified (ffmpeg's default is not to): against `caFile`, else the system's.
 */
function inputArgs(source: MediaSource, caFile: string | null): string[] {
  if ('path' in source) return ['-protocol_whitelist', 'file', '-i', `file:${source.path}`];
  // Only for https: ffmpeg refuses an option no protocol of the input takes.
  const tls = /^https:/i.test(source.url) ? ['-tls_verify', '1', ...(caFile ? ['-ca_file', caFile] : [])] : [];
  return ['-protocol_whitelist', 'http,https,tcp,tls', '-rw_timeout', '10000000', ...tls, '-i', source.url];
}

const caFiles = new Map<string, Promise<string>>();

/** A file holding a CA list for ffmpeg's -ca_file: one per list, private to this user, written once. */
function caFileOf(ca: readonly string[]): Promise<string> {
  const text = ca.join('\n');
  const name = createHash('sha256').update(text).digest('hex').slice(0, 32);
  let file = caFiles.get(name);
  if (!file) {
    file = (async () => {
      const dir = await mkdtemp(join(tmpdir(), 'assemblyline-ca-'));
      const path = join(dir, `${name}.pem`);
      await writeFile(path, text, { mode: 0o600 });
      return path;
    })();
    file.catch(() => caFiles.delete(name));
    caFiles.set(name, file);
  }
  return file;
}

async function encode(png: Buffer, as: 'jpeg' | 'png'): Promise<string | null> {
  try {
    const image = sharp(png, { failOn: 'none' });
    const out = as === 'jpeg' ? await image.flatten({ background: '#000000' }).jpeg({ quality: 74 }).toBuffer() : await image.png({ palette: true }).toBuffer();
    return `data:image/${as};base64,${out.toString('base64')}`;
  } catch {
    return null;
  }
}

/** One previewer for the process, so the limit on ffmpeg processes holds across both thumbnail channels. */
export const mediaPreviewer = createMediaPreviewer();
