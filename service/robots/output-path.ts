// Where a robot writes: every output goes to `<step folder>/<input id>/<safe name>`, and every such path
// is proven to stay inside the step's folder (service/files/inside-dir.ts). Robots never join paths
// themselves. A name that cannot be made safe throws UnsafePathError, which fails the step.

import { mkdir } from 'node:fs/promises';
import { resolveInside, safePathIn } from '../files/inside-dir';

/**
 * The folder for one input's (or bundle's) outputs, below the step's `outDir`; it exists afterwards.
 * File ids are the service's own (32 hex), so an id that would leave `outDir` is refused, not rewritten.
 */
export async function outputDir(outDir: string, inputId: string): Promise<string> {
  const dir = resolveInside(outDir, inputId);
  await mkdir(dir, { recursive: true });
  return dir;
}

/**
 * The path for an output in `dir` named `name` (from outside) plus the robot's own `suffix` (".jpg",
 * "_3.png"): a safe base name, inside `dir`; if it must be cut, the suffix is kept whole.
 */
export const outputFile = (dir: string, name: string, suffix = ''): string => safePathIn(dir, name, suffix);

/**
 * A scratch file in `dir` with a fixed, hidden name. Safe names never start with a dot, so it cannot
 * collide with an output; fixed names also keep ffmpeg from reading `%d` patterns out of user names.
 */
export const scratchFile = (dir: string, name: `.${string}`): string => resolveInside(dir, name);
