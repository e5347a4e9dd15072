// The one place where a name from outside (a tus `filename`, a multipart part's name, anything a robot
// derives an output name from) becomes a name that is safe to put on disk. Pure.
//
// The record a client sees keeps the original name; only the path on disk uses the safe one.

/** Most file systems (ext4, APFS, NTFS) allow 255 bytes (or UTF-16 units) per path component. */
export const MAX_NAME_BYTES = 255;
export const FALLBACK_NAME = 'file';
/** An extension longer than this is not kept whole when a name must be shortened. */
const MAX_KEPT_EXT_BYTES = 32;

// C0 controls, DEL and C1 controls: invisible, and NUL ends a path in every OS call.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
// Characters Windows refuses in names (":" would even open an alternate data stream).
const WINDOWS_RESERVED_CHARS = /[<>:"|?*]/g;
const WINDOWS_RESERVED_NAMES = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i;

export interface SafeNameOptions {
  /** Also apply Windows' rules (reserved characters and device names, no trailing dots or spaces). */
  windows?: boolean;
}

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** The longest prefix of `s` (whole code points) within `max` UTF-8 bytes. */
function cutToBytes(s: string, max: number): string {
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    const n = byteLength(ch);
    if (bytes + n > max) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** Caps a name at MAX_NAME_BYTES, shortening the part before the extension so the extension stays. */
export function capNameBytes(name: string, max = MAX_NAME_BYTES): string {
  if (byteLength(name) <= max) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot) : '';
  if (ext === '' || byteLength(ext) > MAX_KEPT_EXT_BYTES) return cutToBytes(name, max);
  return cutToBytes(name.slice(0, dot), max - byteLength(ext)) + ext;
}

/**
 * A safe base name for `raw`: the last path segment (both `/` and `\` separate), without control
 * characters, leading dots (no hidden files, no `.` or `..`) or surrounding spaces, at most 255 bytes
 * with its extension kept, and never empty. Unicode, inner spaces and `:?#%` stay (legal on Linux and
 * macOS; with `windows`, Windows' reserved characters become `_`).
 */
export function safeFileName(raw: string, options: SafeNameOptions = {}): string {
  let name = String(raw).replace(CONTROL, '');
  name = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  // Dots and spaces together: ". .." must not come out as "..".
  name = name.replace(/^[.\s]+/, '').trimEnd();
  if (options.windows) {
    name = name.replace(WINDOWS_RESERVED_CHARS, '_').replace(/[. ]+$/, '');
    if (WINDOWS_RESERVED_NAMES.test(name)) name = `_${name}`;
  }
  name = capNameBytes(name);
  // Cutting may leave trailing spaces (or dots, which Windows drops).
  name = options.windows ? name.replace(/[. ]+$/, '') : name.trimEnd();
  return name === '' ? FALLBACK_NAME : name;
}

/**
 * safeFileName of `stem + suffix` where `suffix` is the service's own (e.g. "_3.jpg"): when the name must
 * be cut, the stem is shortened so the suffix stays whole and names that differ only in it stay apart.
 */
export function safeFileNameWithSuffix(stem: string, suffix: string, options: SafeNameOptions = {}): string {
  const room = MAX_NAME_BYTES - byteLength(suffix);
  return safeFileName(cutToBytes(safeFileName(stem, options), room) + suffix, options);
}
