// /file/preview: one preview image for any file, the vendor's way: per file category a list of strategies
// tried in order (`strategy`, defaults below) until one draws something — the image itself, a video's
// artwork or a frame or a short animated clip, an audio file's artwork or waveform, a PDF's first page
// (poppler's pdftoppm, where installed), and last an icon with the file's extension. The picture is fitted
// into width × height (300 × 200) by resize_strategy (pad, on `background`) and encoded as png, jpg or gif;
// a clip is an animated webp, gif, apng or avif (`clip_format`). `meta.preview_strategy` says which drew it.

import { execFile } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import { parseIntParam } from '../instructions/robot-params';
import { ffprobe } from './extract-meta';
import { runFfmpeg } from './ffmpeg';
import { describeResult, type StoredFile } from './file-record';
import { sharpColor } from './image-encode';
import { digestBytes } from './image-output';
import { outputDir, outputFile, scratchFile } from './output-path';
import type { RobotRunner } from './robot-types';

export type PreviewCategory = 'image' | 'video' | 'audio' | 'document' | 'archive' | 'webpage' | 'unknown';

export const DEFAULT_STRATEGIES: Readonly<Record<PreviewCategory, readonly string[]>> = {
  audio: ['artwork', 'waveform', 'icon'],
  video: ['artwork', 'frame', 'icon'],
  document: ['page', 'icon'],
  image: ['image', 'icon'],
  webpage: ['render', 'icon'],
  archive: ['icon'],
  unknown: ['icon'],
};

const ARCHIVES = /^application\/(zip|x-zip-compressed|x-tar|gzip|x-gzip|x-7z-compressed|vnd\.rar|x-rar-compressed|x-bzip2|x-xz)$/;
const DOCUMENTS = /^(application\/(pdf|msword|rtf|vnd\.ms-|vnd\.openxmlformats-officedocument|vnd\.oasis\.opendocument|epub)|text\/(plain|csv|markdown|rtf))/;

/** The file's category, from its sniffed media type. Pure. */
export function previewCategory(mime: string | null): PreviewCategory {
  const m = (mime ?? '').toLowerCase();
  if (m.startsWith('image/')) return 'image';
  if (m.startsWith('video/')) return 'video';
  if (m.startsWith('audio/')) return 'audio';
  if (m === 'text/html' || m === 'application/xhtml+xml') return 'webpage';
  if (ARCHIVES.test(m)) return 'archive';
  if (DOCUMENTS.test(m)) return 'document';
  return 'unknown';
}

/** The strategies to try for a category: the step's list for it, else the vendor's default. Pure. */
export function strategiesFor(category: PreviewCategory, strategy: unknown): string[] {
  const own = typeof strategy === 'object' && strategy !== null ? (strategy as Record<string, unknown>)[category] : undefined;
  return Array.isArray(own) ? own.filter((s): s is string => typeof s === 'string') : [...DEFAULT_STRATEGIES[category]];
}

const ICON_COLORS: Record<PreviewCategory, string> = {
  image: '#2e7d32', video: '#c62828', audio: '#6a1b9a', document: '#1565c0', archive: '#8d6e63', webpage: '#00838f', unknown: '#607d8b',
};

const xml = (s: string): string => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

/** An icon in SVG: a page with a folded corner in the category's colour, with the extension below (`with-text`). Pure. */
export function iconSvg(o: { width: number; height: number; category: PreviewCategory; text: string | null; textColor: string; font: string }): string {
  const { width: w, height: h } = o;
  const side = Math.min(w, h) * (o.text === null ? 0.8 : 0.62);
  const pw = side * 0.78;
  const x = (w - pw) / 2;
  const y = o.text === null ? (h - side) / 2 : h * 0.08;
  const fold = pw * 0.3;
  const page = `M${x},${y} h${pw - fold} l${fold},${fold} v${side - fold} h${-pw} z`;
  const corner = `M${x + pw - fold},${y} v${fold} h${fold} z`;
  const label = o.text === null ? '' : `<text x="${w / 2}" y="${y + side + Math.min(w, h) * 0.2}" font-family="${xml(o.font)}, DejaVu Sans, Liberation Sans, sans-serif" font-size="${Math.max(8, Math.round(Math.min(w, h) * 0.14))}" font-weight="bold" text-anchor="middle" fill="${xml(o.textColor)}">${xml(o.text)}</text>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}"><path d="${page}" fill="${ICON_COLORS[o.category]}"/><path d="${corner}" fill="#ffffff" fill-opacity="0.45"/>${label}</svg>`;
}

const FIT: Record<string, 'contain' | 'inside' | 'cover' | 'fill' | 'outside'> = {
  pad: 'contain', fit: 'inside', fillcrop: 'cover', crop: 'cover', stretch: 'fill', min_fit: 'outside',
};

/** `#rrggbb[aa]` → ffmpeg's `0xRRGGBB[AA]`. */
const ffColor = (value: unknown, fallback: string): string => {
  const v = typeof value === 'string' && /^#?[0-9a-f]{6}([0-9a-f]{2})?$/i.test(value.trim()) ? value.trim().replace(/^#/, '') : fallback;
  return `0x${v}`;
};

type Drawn = { kind: 'still'; bytes: Buffer } | { kind: 'clip'; path: string; ext: string };

interface Ctx {
  input: StoredFile;
  params: Record<string, unknown>;
  dir: string;
  signal: AbortSignal;
  width: number;
  height: number;
}

async function stillFromFfmpeg(ctx: Ctx, tag: string, args: string[]): Promise<Drawn | null> {
  const out = scratchFile(ctx.dir, `.preview-${tag}.png`);
  try {
    const done = await runFfmpeg(['-i', ctx.input.localPath, ...args, '-frames:v', '1', '-f', 'image2', '-c:v', 'png', out], ctx.signal, 2 * 60_000);
    if (!done.ok) return null;
    const bytes = await readFile(out).catch(() => null);
    return bytes && bytes.length > 0 ? { kind: 'still', bytes } : null;
  } finally {
    await rm(out, { force: true });
  }
}

const STRATEGIES: Record<string, (ctx: Ctx) => Promise<Drawn | null>> = {
  image: async ({ input }) => {
    try {
      // The first frame of an animation; EXIF orientation applied.
      return { kind: 'still', bytes: await sharp(input.localPath, { failOn: 'error', limitInputPixels: 100_000_000 }).rotate().png().toBuffer() };
    } catch {
      return null;
    }
  },
  artwork: async (ctx) => {
    const probe = await ffprobe(ctx.input.localPath);
    const index = (probe?.streams ?? []).findIndex((s) => s.codec_type === 'video' && s.disposition?.attached_pic === 1);
    return index < 0 ? null : stillFromFfmpeg(ctx, 'artwork', ['-map', `0:${index}`]);
  },
  frame: async (ctx) => {
    const duration = typeof ctx.input.meta.duration === 'number' ? ctx.input.meta.duration : Number((await ffprobe(ctx.input.localPath))?.format?.duration ?? 0);
    // A tenth in (past black openings), at most 10 s, inside the video.
    const at = Math.max(0, Math.min(duration * 0.1, 10, duration - 0.1));
    const out = scratchFile(ctx.dir, '.preview-frame.png');
    try {
      const done = await runFfmpeg(['-ss', at.toFixed(3), '-i', ctx.input.localPath, '-map', '0:V:0', '-frames:v', '1', '-f', 'image2', '-c:v', 'png', out], ctx.signal, 2 * 60_000);
      const bytes = done.ok ? await readFile(out).catch(() => null) : null;
      return bytes && bytes.length > 0 ? { kind: 'still', bytes } : null;
    } finally {
      await rm(out, { force: true });
    }
  },
  clip: async (ctx) => {
    const p = ctx.params;
    const format = typeof p.clip_format === 'string' ? p.clip_format : 'webp';
    const ext = ['apng', 'avif', 'gif', 'webp'].includes(format) ? format : 'webp';
    const offset = typeof p.clip_offset === 'number' ? p.clip_offset : 1;
    const duration = typeof p.clip_duration === 'number' && p.clip_duration > 0 ? p.clip_duration : 5;
    const fps = parseIntParam(p.clip_framerate) ?? 5;
    const loop = p.clip_loop !== false;
    const out = scratchFile(ctx.dir, `.preview-clip.${ext === 'apng' ? 'png' : ext}`);
    const size = `scale=${ctx.width}:${ctx.height}:force_original_aspect_ratio=decrease`;
    const codec: Record<string, string[]> = {
      webp: ['-c:v', 'libwebp_anim', '-loop', loop ? '0' : '1', '-f', 'webp'],
      gif: ['-loop', loop ? '0' : '-1', '-f', 'gif'],
      apng: ['-c:v', 'apng', '-plays', loop ? '0' : '1', '-f', 'apng'],
      avif: ['-c:v', 'libaom-av1', '-cpu-used', '8', '-still-picture', '0', '-f', 'avif'],
    };
    const done = await runFfmpeg(['-ss', String(offset), '-t', String(duration), '-i', ctx.input.localPath, '-map', '0:V:0', '-an', '-vf', `fps=${fps},${size}`, ...codec[ext]!, '-y', out], ctx.signal, 5 * 60_000);
    if (!done.ok) {
      await rm(out, { force: true });
      return null;
    }
    return { kind: 'clip', path: out, ext: ext === 'apng' ? 'png' : ext };
  },
  waveform: async (ctx) => {
    const p = ctx.params;
    const w = parseIntParam(p.waveform_width) ?? 300;
    const h = parseIntParam(p.waveform_height) ?? 100;
    const colors = `${ffColor(p.waveform_outer_color, '000000ff')}|${ffColor(p.waveform_center_color, '000000ff')}`;
    const out = scratchFile(ctx.dir, '.preview-waveform.png');
    try {
      const done = await runFfmpeg(['-i', ctx.input.localPath, '-filter_complex', `[0:a:0]aformat=channel_layouts=mono,showwavespic=s=${w}x${h}:colors=${colors}`, '-frames:v', '1', out], ctx.signal, 2 * 60_000);
      const bytes = done.ok ? await readFile(out).catch(() => null) : null;
      return bytes && bytes.length > 0 ? { kind: 'still', bytes } : null;
    } finally {
      await rm(out, { force: true });
    }
  },
  page: async (ctx) => {
    if (ctx.input.mime !== 'application/pdf') return null;
    const base = scratchFile(ctx.dir, '.preview-page');
    const ok = await new Promise<boolean>((resolve) => {
      const child = execFile('pdftoppm', ['-f', '1', '-l', '1', '-singlefile', '-png', '-scale-to', String(Math.max(ctx.width, ctx.height) * 2), '--', ctx.input.localPath, base], { timeout: 120_000 }, (e) => resolve(!e));
      ctx.signal.addEventListener('abort', () => child.kill(), { once: true });
    });
    try {
      const bytes = ok ? await readFile(`${base}.png`).catch(() => null) : null;
      return bytes && bytes.length > 0 ? { kind: 'still', bytes } : null;
    } finally {
      await rm(`${base}.png`, { force: true });
    }
  },
  icon: async (ctx) => {
    const p = ctx.params;
    const ext = ctx.input.ext ? ctx.input.ext.toUpperCase().slice(0, 8) : '';
    const text = p.icon_style === 'square' ? null : p.icon_text_content === 'none' ? '' : ext;
    const svg = iconSvg({
      width: ctx.width,
      height: ctx.height,
      category: previewCategory(ctx.input.mime),
      text,
      textColor: typeof p.icon_text_color === 'string' ? p.icon_text_color : '#a2a2a2',
      font: typeof p.icon_text_font === 'string' ? p.icon_text_font : 'Roboto',
    });
    return { kind: 'still', bytes: await sharp(Buffer.from(svg)).png().toBuffer() };
  },
};

/** Fits a still into the box and encodes it in the step's format. */
function finish(img: Sharp, ctx: Ctx, format: 'png' | 'jpg' | 'gif'): Sharp {
  const p = ctx.params;
  const fit = FIT[typeof p.resize_strategy === 'string' ? p.resize_strategy : 'pad'] ?? 'contain';
  const background = sharpColor(p.background, '#ffffffff');
  const sized = img.resize(ctx.width, ctx.height, { fit, background, withoutEnlargement: false });
  const optimize = p.optimize !== false;
  const progressive = optimize && p.optimize_progressive === true;
  if (format === 'jpg') return sized.flatten({ background: typeof background === 'string' ? background.slice(0, 7) : '#ffffff' }).jpeg({ quality: 85, mozjpeg: optimize, progressive });
  if (format === 'gif') return sized.gif();
  return sized.png({ compressionLevel: optimize ? 9 : 6, progressive });
}

export const runFilePreview: RobotRunner = async ({ params, input, outDir, signal, onProgress }) => {
  const width = parseIntParam(params.width) ?? 300;
  const height = parseIntParam(params.height) ?? 200;
  const format = params.format === 'jpg' || params.format === 'gif' ? params.format : 'png';
  const category = previewCategory(input.mime);
  const tried = strategiesFor(category, params.strategy);
  const dir = await outputDir(outDir, input.id);
  const ctx: Ctx = { input, params, dir, signal, width, height };
  for (const [i, name] of tried.entries()) {
    const draw = STRATEGIES[name];
    // A strategy this service has no way to run ("render": a web page) is passed over like one that failed.
    const drawn = draw ? await draw(ctx) : null;
    if (signal.aborted) return { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' };
    onProgress?.((i + 1) / tried.length);
    if (!drawn) continue;
    if (drawn.kind === 'clip') {
      const target = outputFile(dir, input.basename, `.${drawn.ext}`);
      await writeFile(target, await readFile(drawn.path));
      await rm(drawn.path, { force: true });
      return { ok: true, files: [await describeResult(input, target, `${input.basename}.${drawn.ext}`, { preview_strategy: name })] };
    }
    let bytes: Buffer;
    try {
      bytes = await finish(sharp(drawn.bytes), ctx, format).toBuffer();
    } catch {
      continue;
    }
    const target = outputFile(dir, input.basename, `.${format}`);
    await writeFile(target, bytes);
    return { ok: true, files: [await describeResult(input, target, `${input.basename}.${format}`, { preview_strategy: name }, { digests: digestBytes(bytes), size: bytes.length, embeddedMetadata: false })] };
  }
  return {
    ok: false,
    code: 'FILE_PREVIEW_ERROR',
    message: `/file/preview drew nothing for "${input.name}" (${category}): the strategies ${tried.map((s) => `"${s}"`).join(', ') || '(none)'} all failed; end the list with "icon" to always get a preview.`,
  };
};
