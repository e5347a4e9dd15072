import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { trayIconPng } from './tray-icon';
import type { TrayIconVariant } from './tray-model';

// Decoded by a real PNG reader (sharp): what the OS will show.
async function pixels(variant: TrayIconVariant, size: number, template = false) {
  const { data, info } = await sharp(trayIconPng(variant, size, template)).raw().toBuffer({ resolveWithObject: true });
  const at = (x: number, y: number) => Array.from(data.subarray((y * info.width + x) * 4, (y * info.width + x) * 4 + 4));
  return { info, at };
}

describe('tray icon', () => {
  it('is a valid RGBA PNG of the asked size', async () => {
    for (const size of [16, 32]) {
      const { info } = await pixels('idle', size);
      expect(info).toMatchObject({ width: size, height: size, channels: 4 });
    }
  });

  it('tells the states apart by shape: empty ring, dot, two bars, exclamation mark', async () => {
    const idle = await pixels('idle', 32);
    const active = await pixels('active', 32);
    const paused = await pixels('paused', 32);
    const error = await pixels('error', 32);
    // The ring is there in every variant; the corner is transparent.
    for (const p of [idle, active, paused, error]) {
      expect(p.at(1, 16)[3]).toBeGreaterThan(200);
      expect(p.at(0, 0)[3]).toBe(0);
    }
    expect(idle.at(16, 16)[3]).toBe(0);
    expect(active.at(16, 16)[3]).toBe(255);
    // Paused: the gap between the bars is clear, the bars are not.
    expect(paused.at(16, 16)[3]).toBe(0);
    expect(paused.at(13, 16)[3]).toBe(255);
    // The exclamation mark: a stroke above, a gap, the point below.
    expect(error.at(16, 12)[3]).toBe(255);
    expect(error.at(16, 19)[3]).toBe(0);
    expect(error.at(16, 22)[3]).toBeGreaterThan(200);
  });

  it('is colored by state, and black (a template the OS tints) on macOS', async () => {
    expect((await pixels('error', 16)).at(1, 8).slice(0, 3)).toEqual([0xdc, 0x26, 0x26]);
    expect((await pixels('active', 16)).at(1, 8).slice(0, 3)).toEqual([0x25, 0x63, 0xeb]);
    expect((await pixels('active', 16, true)).at(1, 8).slice(0, 3)).toEqual([0, 0, 0]);
  });
});
