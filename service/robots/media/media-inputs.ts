// Which input plays which part in the robots that take many files at once (concat, merge, adaptive):
// the `as` of the `use` entry a file came through ("video_2", "audio", "image"), and the vendor's order —
// numbered roles first by their number, the rest by `sort_by` (natural basename order by default). Pure.

import { parseUse } from '../../instructions/use-spec';
import type { StoredFile } from '../file-record';

export interface RoledFile {
  file: StoredFile;
  /** The `as` of the `use` entry the file came through, or null. */
  role: string | null;
}

/**
 * Each input once per `use` entry that takes it, with that entry's role (`as`), as the vendor tags inputs:
 * its docs name one step twice to give its files two parts (`{"name": ":original", "as": "image"}` and
 * `{"name": ":original", "as": "mask"}`). The service hands a bundle each file once, so without this a file
 * named as `video_1` and `video_2` would be joined once, a video named as `video` and `audio` would lend no
 * sound, and a PDF named as `document_1` and `document_2` would be merged once. Entries without `as` (or
 * with the same one) give the file once.
 */
export function withRoles(use: unknown, inputs: readonly { file: StoredFile; fromStep: string }[]): RoledFile[] {
  const parsed = parseUse(use);
  const refs = parsed.ok ? parsed.use.refs : [];
  return inputs.flatMap(({ file, fromStep }) => {
    const taking = refs.filter((r) => r.name === fromStep && (!r.fields || r.fields.includes(file.field ?? '')));
    const roles = [...new Set(taking.map((r) => r.as ?? null))];
    return roles.length > 1 ? roles.map((role) => ({ file, role })) : [{ file, role: roles[0] ?? null }];
  });
}

const natural = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/**
 * The order to join files in: those with a numbered role (`video_1`, `audio_2`, any `<word>_<n>`) by their
 * number, then the others by `sort_by` — `basename` (default: natural order of names), `import_order` or
 * `auto` (the order they came in).
 */
export function joinOrder(files: readonly RoledFile[], sortBy: unknown): RoledFile[] {
  const indexOf = (r: RoledFile): number | null => {
    const m = r.role ? /_(\d+)$/.exec(r.role) : null;
    return m ? Number(m[1]) : null;
  };
  const numbered = files.filter((f) => indexOf(f) !== null).sort((a, b) => indexOf(a)! - indexOf(b)!);
  const rest = files.filter((f) => indexOf(f) === null);
  const sorted = sortBy === 'import_order' || sortBy === 'auto' ? rest : [...rest].sort((a, b) => natural.compare(a.file.name, b.file.name));
  return [...numbered, ...sorted];
}

/** The role's kind without its number: "video_2" → "video". */
export const roleKind = (role: string | null): string | null => (role ? role.replace(/_\d+$/, '') : null);

export const isVideo = (f: StoredFile): boolean => Boolean(f.mime?.startsWith('video/')) && Number(f.meta.num_video_streams ?? 1) > 0;
export const hasAudio = (f: StoredFile): boolean =>
  Boolean(f.mime?.startsWith('audio/')) || (Boolean(f.mime?.startsWith('video/')) && Number(f.meta.num_audio_streams ?? 0) > 0);
export const isImage = (f: StoredFile): boolean => Boolean(f.mime?.startsWith('image/'));

/** A file's duration in seconds (meta.duration), or null when unknown. */
export const durationOf = (f: StoredFile): number | null => (typeof f.meta.duration === 'number' && f.meta.duration > 0 ? f.meta.duration : null);

/** Seconds from a number or a timecode "HH:MM:SS.mmm" / "MM:SS" / "SS"; null when it is neither. */
export function parseTime(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? v : null;
  if (typeof v !== 'string') return null;
  const m = /^\s*(?:(?:(\d+):)?(\d+):)?(\d+(?:\.\d+)?)\s*$/.exec(v);
  if (!m) return null;
  return Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3]);
}
