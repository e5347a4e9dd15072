// Output formats shared by the image robots: naming, and applying a format to a sharp pipeline.

import type { Sharp } from 'sharp';

export type OutputFormat = 'jpeg' | 'png' | 'webp' | 'gif' | 'tiff' | 'avif';

const WRITABLE: Record<string, OutputFormat> = {
  'image/jpeg': 'jpeg', 'image/png': 'png', 'image/webp': 'webp', 'image/gif': 'gif', 'image/tiff': 'tiff', 'image/avif': 'avif',
};

/** `format` parameter -> sharp format; null keeps the input's format where sharp can write it, else png. */
export function outputFormat(param: unknown, inputMime: string | null): OutputFormat {
  if (typeof param === 'string' && param !== '') {
    const f = param.toLowerCase();
    return f === 'jpg' ? 'jpeg' : (f as OutputFormat);
  }
  if (inputMime === 'image/heic' || inputMime === 'image/heif') return 'jpeg';
  return WRITABLE[inputMime ?? ''] ?? 'png';
}

export const extensionOf = (format: OutputFormat): string => (format === 'jpeg' ? 'jpg' : format);

/** sharp's color form: "#FFF", "FFFFFF", "none" and "transparent" all work. */
export function sharpColor(value: unknown, fallback: string): string | { r: number; g: number; b: number; alpha: number } {
  const v = typeof value === 'string' ? value.trim() : fallback;
  if (v === 'none' || v === 'transparent') return { r: 0, g: 0, b: 0, alpha: 0 };
  if (/^[0-9a-f]{3,8}$/i.test(v)) return `#${v}`;
  return v;
}

export interface EncodeOptions {
  quality: number;
  progressive: boolean;
  background: ReturnType<typeof sharpColor>;
  /** PNG: quantize to a palette (lossy but much smaller). */
  palette?: boolean;
  effort?: number;
}

/** Applies the output format; jpeg has no alpha, so transparency is flattened onto the background. */
export function encode(img: Sharp, format: OutputFormat, hasAlpha: boolean, o: EncodeOptions): Sharp {
  switch (format) {
    case 'jpeg':
      return (hasAlpha ? img.flatten({ background: o.background }) : img).jpeg({ quality: o.quality, progressive: o.progressive, mozjpeg: o.effort !== undefined });
    case 'png':
      return img.png({ progressive: o.progressive, compressionLevel: o.effort !== undefined ? 9 : 6, ...(o.palette ? { palette: true, quality: o.quality } : {}) });
    case 'webp':
      return img.webp({ quality: o.quality, ...(o.effort !== undefined ? { effort: o.effort } : {}) });
    case 'avif':
      return img.avif({ quality: o.quality, ...(o.effort !== undefined ? { effort: Math.min(o.effort, 9) } : {}) });
    case 'tiff':
      return img.tiff({ quality: o.quality });
    case 'gif':
      return img.gif();
  }
}
