// Caps on the shape of instructions, so that nothing downstream (merge, interpolation, JSON.stringify
// when a record is stored) can run out of stack. Pure, and iterative themselves.

export const INSTRUCTION_LIMITS = {
  /**
   * Steps in one Assembly or Template. Real instructions use a handful to a few dozen; each step may cost
   * seconds of CPU and its outputs, so one small request must not buy a thousand of them (issue 25).
   */
  steps: 100,
  /** Pixels of one image a robot may write (issue 25: `/image/resize` of 25,000 × 25,000 made 625 megapixels of a 1 × 1 PNG). */
  outputPixels: 100_000_000,
  /**
   * Bytes the steps of one Assembly may write (every robot that makes files: image, video, audio,
   * archives…): this much, plus `outputPerInputByte` times the bytes it was given (uploaded or imported).
   * Thumbnails, encodes and archives stay far below it; a request that makes gigabytes out of a few bytes
   * does not.
   */
  outputBaseBytes: 1024 * 1024 * 1024,
  outputPerInputByte: 16,
  /** Nesting of arrays/objects in params, fields and Template content (real instructions use < 10). */
  jsonDepth: 64,
} as const;

/** True when the JSON text nests arrays/objects deeper than `max`. Linear scan, no parse. */
export function jsonTextTooDeep(text: string, max: number = INSTRUCTION_LIMITS.jsonDepth): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** True when the value nests arrays/objects deeper than `max` (a scalar has depth 0). */
export function valueTooDeep(value: unknown, max: number = INSTRUCTION_LIMITS.jsonDepth): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}
