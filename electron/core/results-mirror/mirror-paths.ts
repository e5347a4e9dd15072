import path from 'node:path';
import type { MirrorLayout } from '../../../shared/ipc/mirror-models';

/** Names Windows refuses for a file whatever its extension (`CON.txt` too). */
const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/**
 * A segment's UTF-8 bytes at most: Linux and macOS allow 255 bytes a name (Windows 255 UTF-16 units, never
 * fewer), and room is left for keep-both's " (12)". 200 emoji are 800 bytes: a limit in characters is none.
 */
const MAX_SEGMENT_BYTES = 200;
const utf8Bytes = (s: string): number => Buffer.byteLength(s, 'utf8');

/** The longest prefix of `s` (whole code points) within `max` UTF-8 bytes. */
function cutToBytes(s: string, max: number): string {
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    bytes += utf8Bytes(ch);
    if (bytes > max) break;
    out += ch;
  }
  return out;
}

const trimEnd = (s: string): string => s.replace(/[. ]+$/, '');

/**
 * One path segment safe on every OS: no separators, reserved or control characters, no trailing dots or
 * spaces (Windows drops them), not `.`/`..`, not a reserved device name, not empty, at most 200 UTF-8 bytes
 * (a longer one is cut, keeping up to 20 bytes of its extension).
 */
export function safeSegment(segment: string, fallback = 'file'): string {
  // eslint-disable-next-line no-control-regex
  let s = trimEnd(segment.normalize('NFC').replace(/[<>:"/\\|?*\u0000-\u001f\u007f]/g, '_').trim());
  if (s === '' || /^\.+$/.test(s)) return fallback;
  if (WINDOWS_RESERVED.test(s.split('.')[0] ?? '')) s = `_${s}`;
  if (utf8Bytes(s) > MAX_SEGMENT_BYTES) {
    const ext = trimEnd(cutToBytes(path.posix.extname(s), 20));
    s = trimEnd(cutToBytes(s, MAX_SEGMENT_BYTES - utf8Bytes(ext)).trimEnd() + ext);
    if (s === '' || /^\.+$/.test(s)) return fallback;
  }
  return s;
}

/** A relative path made of safe segments (`.`/`..`/empty segments dropped), always with `/`. */
export function safeRelativePath(rel: string): string {
  return rel
    .split(/[\\/]+/)
    .filter((part) => part !== '' && part !== '.' && part !== '..')
    .map((part) => safeSegment(part))
    .join('/');
}

/** `photos/a.jpg` + `png` → `photos/a.png`; no extension → unchanged. */
export function withExtension(rel: string, ext: string | null): string {
  if (!ext) return rel;
  const dir = path.posix.dirname(rel);
  const base = path.posix.basename(rel);
  const dot = base.lastIndexOf('.');
  const stem = dot > 0 ? base.slice(0, dot) : base;
  const name = `${stem}.${ext}`;
  return dir === '.' ? name : `${dir}/${name}`;
}

export interface TargetInput {
  step: string;
  /** The result's file name (`forest.png`). */
  resultName: string;
  /** The result's extension without the dot (`png`), else taken from its name. */
  resultExt: string | null;
  /** The input's relative path (`photos/2024/forest.png`); null when the result came from no known input. */
  inputPath: string | null;
}

/** `a/b/name` with its last segment made safe (safeSegment). */
function safeLastSegment(rel: string): string {
  const dir = path.posix.dirname(rel);
  const base = safeSegment(path.posix.basename(rel));
  return dir === '.' ? base : `${dir}/${base}`;
}

/** The result's path under the output folder for a layout (relative, `/`-separated, every segment safe). */
export function targetPath(layout: MirrorLayout, t: TargetInput): string {
  // `:original` (the uploads passed on) is a folder named `original`.
  const step = safeSegment(t.step.replace(/^:+/, ''), 'step');
  const name = safeSegment(t.resultName, 'result');
  const ext = t.resultExt ?? (path.posix.extname(name).slice(1) || null);
  const input = t.inputPath === null ? null : safeRelativePath(t.inputPath);
  const inputDir = input ? path.posix.dirname(input) : '.';
  switch (layout) {
    case 'by-step':
      // The service's extension (lowercased, as long as the name's) can make a safe name unsafe again.
      return input ? `${step}/${safeLastSegment(withExtension(input, ext))}` : `${step}/${name}`;
    case 'flat':
      return `${step}/${name}`;
    case 'by-folder':
      return inputDir === '.' ? `${safeSegment(`${step}-${name}`)}` : `${inputDir}/${safeSegment(`${step}-${name}`)}`;
  }
}

/**
 * `a.png` → `a (2).png` (n ≥ 2), as keep-both names a second copy. A name already numbered is numbered
 * again, not twice (`a (2).png` → `a (3).png`, never `a (2) (2).png`), as Finder and Explorer do.
 */
export function numberedName(rel: string, n: number): string {
  const dir = path.posix.dirname(rel);
  const base = path.posix.basename(rel);
  const dot = base.lastIndexOf('.');
  const stem = (dot > 0 ? base.slice(0, dot) : base).replace(/ \(\d+\)$/, '');
  const name = `${stem} (${n})${dot > 0 ? base.slice(dot) : ''}`;
  return dir === '.' ? name : `${dir}/${name}`;
}

/** The absolute path of `rel` under `root`, or null if it would leave it (a last check after sanitising). */
export function insideRoot(root: string, rel: string): string | null {
  const base = path.resolve(root);
  const full = path.resolve(base, ...rel.split('/'));
  const back = path.relative(base, full);
  if (back === '' || back.startsWith('..') || path.isAbsolute(back)) return null;
  return full;
}
