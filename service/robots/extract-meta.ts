// File sniffing and metadata: ExifTool (one call per file) for the tags of images, audio, video and
// documents, sharp for an image's pixel facts, ffprobe for audio/video streams, ffmpeg's volumedetect
// for audio loudness; they run side by side. Never throws: a file we cannot read gets {} and processing
// goes on (the service reports what it can).

import { execFile } from 'node:child_process';
import { open, stat } from 'node:fs/promises';
import sharp from 'sharp';
import { metaFromExifTags } from './exif-meta';
import { readTags } from './exiftool';
import { normalizeDateString, normalizeDateValue } from './meta-dates';

const EXT_MIME: Record<string, string> = {
  jpg: 'image/jpeg', jpeg: 'image/jpeg', png: 'image/png', gif: 'image/gif', webp: 'image/webp', tif: 'image/tiff',
  tiff: 'image/tiff', avif: 'image/avif', heic: 'image/heic', heif: 'image/heif', bmp: 'image/bmp', svg: 'image/svg+xml',
  ico: 'image/x-icon', jxl: 'image/jxl',
  mp4: 'video/mp4', m4v: 'video/mp4', mov: 'video/quicktime', webm: 'video/webm', mkv: 'video/x-matroska',
  avi: 'video/x-msvideo', mpeg: 'video/mpeg', mpg: 'video/mpeg', m2ts: 'video/mp2t', mts: 'video/mp2t', ogv: 'video/ogg', '3gp': 'video/3gpp',
  mp3: 'audio/mpeg', wav: 'audio/wav', ogg: 'audio/ogg', oga: 'audio/ogg', opus: 'audio/opus', flac: 'audio/flac',
  m4a: 'audio/mp4', aac: 'audio/aac', aif: 'audio/aiff', aiff: 'audio/aiff',
  pdf: 'application/pdf', doc: 'application/msword', rtf: 'application/rtf', txt: 'text/plain', csv: 'text/csv',
  html: 'text/html', htm: 'text/html', json: 'application/json', xml: 'application/xml', md: 'text/markdown',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text', epub: 'application/epub+zip',
  zip: 'application/zip', gz: 'application/gzip', tgz: 'application/gzip', tar: 'application/x-tar',
  '7z': 'application/x-7z-compressed', rar: 'application/vnd.rar', bz2: 'application/x-bzip2',
};

const extOf = (name: string): string => {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
};

/** The mime type from the file's first bytes, or null when no signature matches. */
export function sniffMime(head: Buffer, name = ''): string | null {
  const ascii = (start: number, end: number) => head.subarray(start, end).toString('latin1');
  const starts = (...bytes: number[]) => bytes.every((b, i) => head[i] === b);
  const ext = extOf(name);
  if (starts(0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'image/gif';
  if (ascii(0, 4) === 'RIFF') {
    const kind = ascii(8, 12);
    if (kind === 'WEBP') return 'image/webp';
    if (kind === 'WAVE') return 'audio/wav';
    if (kind === 'AVI ') return 'video/x-msvideo';
  }
  if (starts(0x49, 0x49, 0x2a, 0x00) || starts(0x4d, 0x4d, 0x00, 0x2a)) return 'image/tiff';
  if (ascii(4, 8) === 'ftyp') {
    const brand = ascii(8, 12);
    if (brand === 'avif' || brand === 'avis') return 'image/avif';
    if (['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return 'image/heic';
    if (brand === 'qt  ') return 'video/quicktime';
    if (brand === 'M4A ' || brand === 'M4B ') return 'audio/mp4';
    return 'video/mp4';
  }
  if (ascii(0, 5) === '%PDF-') return 'application/pdf';
  if (ascii(0, 3) === 'ID3' || mpegAudioStart(head, ext)) return 'audio/mpeg';
  if (ascii(0, 4) === 'OggS') return ext === 'ogv' ? 'video/ogg' : ext === 'opus' ? 'audio/opus' : 'audio/ogg';
  if (ascii(0, 4) === 'fLaC') return 'audio/flac';
  if (starts(0x1a, 0x45, 0xdf, 0xa3)) return ext === 'mkv' ? 'video/x-matroska' : 'video/webm';
  if (starts(0x50, 0x4b, 0x03, 0x04) || starts(0x50, 0x4b, 0x05, 0x06)) {
    // Office documents and epub are zip containers: the extension tells them apart.
    const byExt = EXT_MIME[ext];
    return byExt && /officedocument|opendocument|epub/.test(byExt) ? byExt : 'application/zip';
  }
  if (starts(0x1f, 0x8b)) return 'application/gzip';
  if (ascii(257, 262) === 'ustar') return 'application/x-tar';
  if (ascii(0, 2) === 'BM' && head.length > 14) return 'image/bmp';
  if (starts(0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c)) return 'application/x-7z-compressed';
  // MPEG transport stream: sync bytes every 188 bytes (".ts" alone is as often TypeScript).
  if (head[0] === 0x47 && head[188] === 0x47 && head[376] === 0x47) return 'video/mp2t';
  return null;
}

/** MPEG audio (MP1/2/3) samples per frame / 8, by version (1, or 2 and 2.5) and layer (I, II, III). */
const MPEG_SLOT_FACTOR = { v1: [12, 144, 144], v2: [12, 144, 72] } as const;
const MPEG_BITRATES_V1 = [[0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448], [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384], [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]] as const;
const MPEG_BITRATES_V2 = [[0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256], [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160], [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]] as const;
const MPEG_RATES = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] } as const;

/** The length of the MPEG audio frame whose header starts at `at` (free-format and reserved values refused), or null. Pure. */
export function mpegFrameLength(head: Buffer, at: number): number | null {
  if (at + 3 > head.length || head[at] !== 0xff || (head[at + 1]! & 0xe0) !== 0xe0) return null;
  const version = (head[at + 1]! >> 3) & 3;
  const layerBits = (head[at + 1]! >> 1) & 3;
  const bitrateIndex = head[at + 2]! >> 4;
  const rateIndex = (head[at + 2]! >> 2) & 3;
  if (version === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) return null;
  const layer = 3 - layerBits; // 0: layer I, 1: II, 2: III
  const kbps = (version === 3 ? MPEG_BITRATES_V1 : MPEG_BITRATES_V2)[layer]![bitrateIndex]!;
  const rate = MPEG_RATES[version as 0 | 2 | 3][rateIndex]!;
  const padding = (head[at + 2]! >> 1) & 1;
  const factor = (version === 3 ? MPEG_SLOT_FACTOR.v1 : MPEG_SLOT_FACTOR.v2)[layer]!;
  return layer === 0 ? (Math.floor((factor * kbps * 1000) / rate) + padding) * 4 : Math.floor((factor * kbps * 1000) / rate) + padding;
}

/**
 * An MPEG audio stream without an ID3 tag starts with a frame header: 11 sync bits that one file of
 * random bytes in ~340 has, so the header must be a valid one and, unless the name says MP3, followed by
 * a second frame where the first ends (when that is within the bytes sniffed). Otherwise a folder of
 * arbitrary binary files sends every ~300th to ffprobe and ffmpeg as "audio/mpeg". Pure.
 */
function mpegAudioStart(head: Buffer, ext: string): boolean {
  const length = mpegFrameLength(head, 0);
  if (length === null) return false;
  if (ext === 'mp3' || ext === 'mp2' || ext === 'mpga') return true;
  return length + 3 <= head.length && mpegFrameLength(head, length) !== null;
}

/** Bytes of a file's start that sniffing looks at. */
export const SNIFF_BYTES = 512;

/** The mime type from a file's first SNIFF_BYTES bytes (or all of a shorter file), then from its name. Pure. */
export const mimeFromHead = (head: Buffer, name: string): string | null => sniffMime(head, name) ?? EXT_MIME[extOf(name)] ?? null;

/** Sniffs magic bytes first, then falls back to the file name's extension. */
export async function detectMime(localPath: string, name: string): Promise<string | null> {
  let head = Buffer.alloc(0);
  try {
    const fh = await open(localPath, 'r');
    try {
      const buf = Buffer.alloc(SNIFF_BYTES);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      head = buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  } catch {
    // Unreadable: the name is all we have.
  }
  return mimeFromHead(head, name);
}

const DOCUMENT = /^(application\/(pdf|msword|rtf|epub\+zip|vnd\.openxmlformats-officedocument\..*|vnd\.oasis\.opendocument\..*|vnd\.ms-.*|json|xml)|text\/.*)$/;
const ARCHIVE = /^application\/(zip|gzip|x-tar|x-7z-compressed|vnd\.rar|x-rar-compressed|x-bzip2|x-xz)$/;

/** The service's coarse `type` of a file. */
export function fileTypeOf(mime: string | null): string | null {
  if (!mime) return null;
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (DOCUMENT.test(mime)) return 'document';
  if (ARCHIVE.test(mime)) return 'archive';
  return null;
}

const round = (n: number, digits = 3): number => Math.round(n * 10 ** digits) / 10 ** digits;
const DEPTH_BITS: Record<string, number> = { uchar: 8, char: 8, ushort: 16, short: 16, uint: 32, int: 32, float: 32, double: 64 };

async function imageMeta(localPath: string): Promise<Record<string, unknown>> {
  const m = await sharp(localPath, { animated: true }).metadata();
  // EXIF orientations 5..8 swap the axes: report the size as the image is displayed.
  const swapped = (m.orientation ?? 1) >= 5;
  const width = (swapped ? m.pageHeight ?? m.height : m.width) ?? null;
  const height = (swapped ? m.width : m.pageHeight ?? m.height) ?? null;
  const meta: Record<string, unknown> = {
    width,
    height,
    aspect_ratio: width && height ? round(width / height) : null,
    has_alpha: m.hasAlpha ?? false,
    frame_count: m.pages ?? 1,
    colorspace: m.space ?? null,
    bit_depth: m.depth ? DEPTH_BITS[m.depth] ?? null : null,
  };
  if (m.orientation !== undefined) meta.orientation = m.orientation;
  if (m.density !== undefined) meta.density = m.density;
  return meta;
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  r_frame_rate?: string;
  avg_frame_rate?: string;
  bit_rate?: string;
  sample_rate?: string;
  channels?: number;
  disposition?: { attached_pic?: number };
  pix_fmt?: string;
  time_base?: string;
  color_primaries?: string;
  color_transfer?: string;
  tags?: Record<string, string>;
  side_data_list?: { rotation?: number }[];
}
interface Probe {
  streams?: ProbeStream[];
  format?: { duration?: string; bit_rate?: string; tags?: Record<string, string> };
}

const PROBE_TIMEOUT_MS = 20_000;

/** Runs ffprobe on a file and returns its JSON, or null on any failure or timeout. */
export function ffprobe(localPath: string): Promise<Probe | null> {
  return new Promise((resolve) => {
    execFile(
      'ffprobe',
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '--', localPath],
      { timeout: PROBE_TIMEOUT_MS, maxBuffer: 8 * 1024 * 1024 },
      (error, stdout) => {
        if (error) return resolve(null);
        try {
          resolve(JSON.parse(stdout) as Probe);
        } catch {
          resolve(null);
        }
      },
    );
  });
}

const num = (v: string | number | undefined): number | null => {
  if (v === undefined) return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};

const rate = (r: string | undefined): number | null => {
  const m = r ? /^(\d+)\/(\d+)$/.exec(r) : null;
  if (!m || Number(m[2]) === 0) return null;
  return round(Number(m[1]) / Number(m[2]));
};

/** Maps ffprobe output to the service's meta keys (spec "File metadata"). Pure. */
export function metaFromProbe(probe: Probe): Record<string, unknown> {
  const streams = probe.streams ?? [];
  const video = streams.filter((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.filter((s) => s.codec_type === 'audio');
  const v = video[0];
  const a = audio[0];
  const rotation = v ? num(v.side_data_list?.find((d) => d.rotation !== undefined)?.rotation ?? v.tags?.rotate) ?? 0 : null;
  const quarter = rotation !== null && Math.abs(rotation) % 180 === 90;
  const width = v ? (quarter ? v.height : v.width) ?? null : null;
  const height = v ? (quarter ? v.width : v.height) ?? null : null;
  const tags = Object.fromEntries(Object.entries(probe.format?.tags ?? {}).map(([k, val]) => [k.toLowerCase(), val]));
  const meta: Record<string, unknown> = {
    duration: num(probe.format?.duration) !== null ? round(num(probe.format?.duration)!) : null,
    width,
    height,
    aspect_ratio: width && height ? round(width / height) : null,
    framerate: v ? rate(v.avg_frame_rate) ?? rate(v.r_frame_rate) : null,
    video_codec: v?.codec_name ?? null,
    video_bitrate: num(v?.bit_rate),
    audio_codec: a?.codec_name ?? null,
    audio_bitrate: num(a?.bit_rate),
    audio_samplerate: num(a?.sample_rate),
    audio_channels: a?.channels ?? null,
    overall_bitrate: num(probe.format?.bit_rate),
    num_video_streams: video.length,
    num_audio_streams: audio.length,
    num_subtitles: streams.filter((s) => s.codec_type === 'subtitle').length,
    rotation,
    has_artwork: streams.some((s) => s.disposition?.attached_pic === 1),
    seekable: true,
  };
  if (v) {
    if (v.pix_fmt) meta.pixel_format = v.pix_fmt;
    if (v.time_base) meta.time_base = v.time_base;
    if (v.color_primaries) meta.colorprimaries = v.color_primaries;
    if (v.color_transfer) meta.colortransfer = v.color_transfer;
  }
  const codecs = [...video, ...audio].map((s) => s.codec_name).filter(Boolean);
  if (codecs.length > 0) meta.codecs = codecs.join(', ');
  meta.streams = streamsOf(streams);
  for (const key of ['title', 'artist', 'album', 'genre', 'track', 'date', 'comment', 'encoder', 'disc', 'performer', 'lyrics', 'copyright'] as const) {
    if (tags[key] !== undefined) meta[key === 'date' ? 'year' : key === 'copyright' ? 'copyright_notice' : key] = tags[key];
  }
  // A recording's own date (QuickTime/Matroska creation_time, ISO with its zone): UTC, marked GMT.
  const created = tags.creation_time ?? v?.tags?.creation_time ?? a?.tags?.creation_time;
  if (created !== undefined) {
    const date = normalizeDateValue(created);
    meta.creation_time = date ?? null;
    meta.date_recorded = date ?? null;
  }
  return meta;
}

/** `streams`: per kind, the facts of each stream (spec "File metadata": object with arrays audio, subtitle, video). Pure. */
function streamsOf(streams: ProbeStream[]): Record<'video' | 'audio' | 'subtitle', Record<string, unknown>[]> {
  const pick = (s: ProbeStream): Record<string, unknown> => {
    const out: Record<string, unknown> = { codec: s.codec_name ?? null };
    if (s.codec_type === 'video') Object.assign(out, { width: s.width ?? null, height: s.height ?? null, framerate: rate(s.avg_frame_rate) ?? rate(s.r_frame_rate), pixel_format: s.pix_fmt ?? null });
    if (s.codec_type === 'audio') Object.assign(out, { channels: s.channels ?? null, samplerate: num(s.sample_rate) });
    if (s.bit_rate !== undefined) out.bitrate = num(s.bit_rate);
    if (s.tags?.language) out.language = s.tags.language;
    return out;
  };
  const of = (type: string) => streams.filter((s) => s.codec_type === type && !s.disposition?.attached_pic).map(pick);
  return { video: of('video'), audio: of('audio'), subtitle: of('subtitle') };
}

/** Audio loudness is read from at most this much of the file, within this long: a long file must not hold its upload. */
const VOLUME_MAX_SECONDS = 300;
const VOLUME_TIMEOUT_MS = 15_000;

/** "mean_volume: -20.3 dB" in ffmpeg's volumedetect output → -20.3; null when absent. Pure. */
export function meanVolumeOf(stderr: string): number | null {
  const m = /mean_volume:\s*(-?(?:\d+(?:\.\d+)?|inf))\s*dB/.exec(stderr);
  if (!m) return null;
  return m[1] === '-inf' ? null : Number(m[1]);
}

/** An audio file's mean volume in dB (ffmpeg volumedetect over its first minutes), or null. */
function meanVolume(localPath: string): Promise<number | null> {
  return new Promise((resolve) => {
    execFile(
      'ffmpeg',
      ['-hide_banner', '-nostats', '-t', String(VOLUME_MAX_SECONDS), '-i', localPath, '-vn', '-sn', '-dn', '-af', 'volumedetect', '-f', 'null', '-'],
      { timeout: VOLUME_TIMEOUT_MS, maxBuffer: 4 * 1024 * 1024 },
      (error, _stdout, stderr) => resolve(error ? null : meanVolumeOf(String(stderr))),
    );
  });
}

const TEXT_META_MAX_BYTES = 10 * 1024 * 1024;

/** Counts for plain text (spec "File metadata": line_count, word_count, character_count, paragraph_count). Pure. */
export function textMeta(text: string): Record<string, number> {
  const trimmed = text.replace(/\s+$/, '');
  return {
    line_count: trimmed === '' ? 0 : trimmed.split(/\r\n|\r|\n/).length,
    word_count: (text.match(/\S+/g) ?? []).length,
    character_count: [...text].length,
    paragraph_count: text.split(/(?:\r?\n){2,}/).filter((p) => p.trim() !== '').length,
  };
}

async function fileTextMeta(localPath: string): Promise<Record<string, unknown>> {
  const fh = await open(localPath, 'r');
  try {
    if ((await fh.stat()).size > TEXT_META_MAX_BYTES) return {};
    return textMeta(await fh.readFile('utf8'));
  } finally {
    await fh.close();
  }
}

/** The meta keys of ExifTool's tags; {} when it cannot read the file. */
const exifMeta = async (localPath: string): Promise<Record<string, unknown>> => {
  const tags = await readTags(localPath);
  return tags && !tags.Error ? metaFromExifTags(tags) : {};
};

/**
 * The date keys ExifTool gives a file that embeds no metadata (its file dates: FileCreateDate where the
 * system keeps one, else FileInodeChangeDate, and FileModifyDate), read with one stat instead of a round
 * trip to ExifTool, for outputs a robot wrote from bare pixels (`embedded: false`).
 */
export async function fileDatesMeta(localPath: string): Promise<Record<string, unknown>> {
  // Nanoseconds, cut to the second as ExifTool does: Node's Date fields round to the millisecond, which
  // turns 12:00:31.9997 into 12:00:32 (one file in two thousand a second later than ExifTool says).
  const info = await stat(localPath, { bigint: true });
  const created = process.platform === 'linux' ? info.ctimeNs : info.birthtimeNs;
  return { date_file_created: fileDateOf(created), date_file_modified: fileDateOf(info.mtimeNs) };
}

/** A file time in nanoseconds as a meta date, to the whole second below it. Pure. */
export function fileDateOf(ns: bigint): string | null {
  const seconds = ns / 1_000_000_000n - (ns < 0n && ns % 1_000_000_000n !== 0n ? 1n : 0n);
  return normalizeDateString(new Date(Number(seconds) * 1000).toISOString());
}

/** What a copy of an image's embedded metadata does not carry over: its pixels' facts (imageMeta) and the file's own dates. */
const NOT_EMBEDDED_KEYS: ReadonlySet<string> = new Set(['width', 'height', 'aspect_ratio', 'has_alpha', 'frame_count', 'colorspace', 'bit_depth', 'orientation', 'density', 'date_file_created', 'date_file_modified']);

/** The keys an image's record took from its embedded metadata (ExifTool's), out of its whole meta. Pure. */
export const embeddedMetaKeys = (meta: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(meta).filter(([key]) => !NOT_EMBEDDED_KEYS.has(key)));

const orEmpty = <T extends Record<string, unknown>>(p: Promise<T>): Promise<T | Record<string, never>> => p.catch(() => ({}));

/**
 * What an image file embeds, for its meta: `true` read it (ExifTool); `false` nothing (bare pixels: only
 * the file's dates); keys: the ones its input's record took from what it embedded, which the file carries
 * as copied (plus its own file dates).
 */
export type EmbeddedMetadata = boolean | Record<string, unknown>;

/**
 * Real metadata for images, audio, video, documents and plain text; {} for anything else or anything
 * unreadable. ExifTool's keys come first; sharp's and ffprobe's (pixel and stream facts) win over them.
 */
export async function extractMeta(localPath: string, mime: string | null, options: { embedded?: EmbeddedMetadata } = {}): Promise<Record<string, unknown>> {
  try {
    // An image sharp cannot decode, or media ffprobe cannot read, is unreadable: {} (not the file dates alone).
    if (mime?.startsWith('image/')) {
      // Pixels first (sharp reads the header in well under a millisecond): ExifTool costs ~10 ms of CPU per
      // file, and its tags would be thrown away for a file sharp cannot decode (a .jpg that is not one).
      const pixels = await orEmpty(imageMeta(localPath));
      if (Object.keys(pixels).length === 0) return {};
      const { embedded = true } = options;
      const tagMeta = await (embedded === true ? exifMeta(localPath) : fileDatesMeta(localPath).then((dates) => (embedded === false ? dates : { ...embedded, ...dates })));
      return { ...tagMeta, ...pixels };
    }
    if (mime?.startsWith('video/') || mime?.startsWith('audio/')) {
      const audioOnly = mime.startsWith('audio/');
      const [tags, probe, volume] = await Promise.all([exifMeta(localPath), ffprobe(localPath), audioOnly ? meanVolume(localPath) : null]);
      return probe ? { ...tags, ...metaFromProbe(probe), ...(audioOnly ? { mean_volume: volume } : {}) } : {};
    }
    if (mime === 'text/plain' || mime === 'text/markdown' || mime === 'text/csv') return await fileTextMeta(localPath);
    if (fileTypeOf(mime) === 'document') return await exifMeta(localPath);
  } catch {
    // Unreadable or corrupt: the caller carries on with no metadata.
  }
  return {};
}
