// Pure geometry for /image/resize strategies that sharp does not do in one call (pad, crop).

export type Gravity = 'center' | 'top' | 'bottom' | 'left' | 'right' | 'top-left' | 'top-right' | 'bottom-left' | 'bottom-right';

/** How far from the left/top an inner box sits inside an outer one for a gravity. */
export function placeByGravity(outerW: number, outerH: number, innerW: number, innerH: number, gravity: Gravity): { left: number; top: number } {
  const freeW = Math.max(0, outerW - innerW);
  const freeH = Math.max(0, outerH - innerH);
  const left = gravity.includes('left') ? 0 : gravity.includes('right') ? freeW : Math.floor(freeW / 2);
  const top = gravity.startsWith('top') ? 0 : gravity.startsWith('bottom') ? freeH : Math.floor(freeH / 2);
  return { left, top };
}

/** The size an image of w0×h0 takes when fitted inside W×H (never enlarged unless zoom). */
export function fitInside(w0: number, h0: number, W: number, H: number, zoom: boolean): { width: number; height: number } {
  let scale = Math.min(W / w0, H / h0);
  if (!zoom) scale = Math.min(scale, 1);
  return { width: Math.max(1, Math.round(w0 * scale)), height: Math.max(1, Math.round(h0 * scale)) };
}

/** Fills a missing box side from the source aspect ratio. */
export function completeBox(w0: number, h0: number, width: number | null, height: number | null): { W: number; H: number } {
  if (width !== null && height !== null) return { W: width, H: height };
  if (width !== null) return { W: width, H: Math.max(1, Math.round((h0 * width) / w0)) };
  if (height !== null) return { W: Math.max(1, Math.round((w0 * height) / h0)), H: height };
  return { W: w0, H: h0 };
}

/** sharp's names for gravities. */
export const SHARP_POSITION: Record<Gravity, string> = {
  center: 'centre', top: 'north', bottom: 'south', left: 'west', right: 'east',
  'top-left': 'northwest', 'top-right': 'northeast', 'bottom-left': 'southwest', 'bottom-right': 'southeast',
};
