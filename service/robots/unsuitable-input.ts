// Why a robot produced nothing from a file, said the same way for every robot: the Assembly view shows it at
// the file ("Empty file (0 bytes): nothing to resize"). Pure.

import type { RobotFileOutcome } from './robot-types';

/** What each media robot does to a file, for "nothing to …". */
const VERBS: Record<string, string> = {
  '/image/resize': 'resize',
  '/image/optimize': 'optimize',
  '/video/encode': 'encode',
  '/video/thumbs': 'take thumbnails from',
  '/audio/encode': 'encode',
  '/audio/waveform': 'draw a waveform of',
  '/file/read': 'read',
};

/** An unsuitable input: the step skips it (with a warning at the file) unless no input suits it. */
export const unsuitable = (message: string): RobotFileOutcome => ({ ok: false, code: 'INVALID_INPUT_ERROR', message, unsuitableInput: true });

/**
 * A 0-byte file given to a robot that needs content, else null. Checked before the robot runs, so
 * sharp or ffmpeg never answer with their own, less helpful, words (the real service answers a zero-byte
 * JPEG with INVALID_INPUT_ERROR, service-facts.md §4).
 */
export function emptyInput(robot: string, size: number): RobotFileOutcome | null {
  const verb = VERBS[robot];
  return verb !== undefined && size === 0 ? unsuitable(`Empty file (0 bytes): nothing to ${verb}`) : null;
}

/** A file of the wrong kind: "Not an image: /image/resize skips text/plain". */
export const wrongKind = (kind: string, robot: string, mime: string | null): RobotFileOutcome =>
  unsuitable(`Not ${kind}: ${robot} skips ${mime ?? 'files of an unknown type'}`);

/** HEIC and HEIF photos (HEVC inside HEIF), as the upload's record names them. */
const HEIC_TYPES: ReadonlySet<string> = new Set(['image/heic', 'image/heif', 'image/heic-sequence', 'image/heif-sequence']);

/**
 * A HEIC photo given to an image robot where this service's image library has no HEVC decoder (sharp's
 * own libvips reads AVIF but not HEIC; image-formats.ts asks it), else null: said at the file in words the
 * user can act on, not as libvips' plugin error.
 */
export function unsupportedFormat(robot: string, mime: string | null, heicReadable: boolean): RobotFileOutcome | null {
  if (heicReadable || !robot.startsWith('/image/') || mime === null || !HEIC_TYPES.has(mime)) return null;
  return unsuitable('HEIC is not supported on this service: its image library cannot decode HEIC (HEVC) photos. Convert them to JPEG first, or use a deployment that reads HEIC.');
}
