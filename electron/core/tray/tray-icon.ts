import { crc32, deflateSync } from 'node:zlib';
import type { TrayIconVariant } from './tray-model';

/**
 * The tray icon, drawn in code (no image files to package): a ring, with a dot (sending), two bars
 * (paused) or an exclamation mark (failed) inside; only the ring when idle. The shapes alone tell the
 * states apart, so the same drawing works as a macOS template image (black, the system tints it).
 */
const COLORS: Record<TrayIconVariant, readonly [number, number, number]> = {
  idle: [0x6b, 0x72, 0x80],
  active: [0x25, 0x63, 0xeb],
  paused: [0xd9, 0x77, 0x06],
  error: [0xdc, 0x26, 0x26],
};

type Shape = (x: number, y: number) => boolean;
const disc = (cx: number, cy: number, r: number): Shape => (x, y) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;
const rect = (x0: number, y0: number, x1: number, y1: number): Shape => (x, y) => x >= x0 && x <= x1 && y >= y0 && y <= y1;
const ring: Shape = (x, y) => disc(0.5, 0.5, 0.47)(x, y) && !disc(0.5, 0.5, 0.35)(x, y);

const INSIDE: Record<TrayIconVariant, Shape[]> = {
  idle: [],
  active: [disc(0.5, 0.5, 0.19)],
  paused: [rect(0.36, 0.32, 0.45, 0.68), rect(0.55, 0.32, 0.64, 0.68)],
  error: [rect(0.455, 0.27, 0.545, 0.58), disc(0.5, 0.7, 0.06)],
};

/** Alpha coverage (0–255) of each pixel, 4×4 samples per pixel: smooth edges at 16 px. */
export function iconCoverage(variant: TrayIconVariant, size: number): Uint8Array {
  const shapes = [ring, ...INSIDE[variant]];
  const out = new Uint8Array(size * size);
  const n = 4;
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      let hits = 0;
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const x = (px + (sx + 0.5) / n) / size;
          const y = (py + (sy + 0.5) / n) / size;
          if (shapes.some((s) => s(x, y))) hits++;
        }
      }
      out[py * size + px] = Math.round((hits / (n * n)) * 255);
    }
  }
  return out;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A PNG (RGBA, 8 bits) of the icon: colored, or black for a macOS template image. */
export function trayIconPng(variant: TrayIconVariant, size: number, template: boolean): Buffer {
  const alpha = iconCoverage(variant, size);
  const [r, g, b] = template ? [0, 0, 0] : COLORS[variant];
  const raw = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    const row = y * (size * 4 + 1);
    raw[row] = 0; // filter: none
    for (let x = 0; x < size; x++) {
      const at = row + 1 + x * 4;
      raw[at] = r;
      raw[at + 1] = g;
      raw[at + 2] = b;
      raw[at + 3] = alpha[y * size + x]!;
    }
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8-bit depth, RGBA, deflate, no filter, no interlace
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(raw)), chunk('IEND', Buffer.alloc(0))]);
}
