// SubRip (.srt) ↔ WebVTT (.vtt) for /document/convert: the vendor converts one subtitle format into the
// other ("SRT files can be converted into the VTT format"). Pure: cues are read, then written again.

export interface Cue {
  /** Milliseconds from the start. */
  start: number;
  end: number;
  /** The cue's lines as written (markup kept). */
  text: string;
}

const TIME = /^(?:(\d+):)?(\d{1,2}):(\d{2})[.,](\d{1,3})$/;

/** "01:02:03,456", "02:03.456" (WebVTT may leave out the hours) → ms; null when malformed. */
export function parseTime(value: string): number | null {
  const m = TIME.exec(value.trim());
  if (!m) return null;
  const [h, min, s, frac] = [Number(m[1] ?? 0), Number(m[2]), Number(m[3]), m[4]!.padEnd(3, '0')];
  if (min > 59 || s > 59) return null;
  return ((h * 60 + min) * 60 + s) * 1000 + Number(frac);
}

/** ms → "HH:MM:SS,mmm" (srt) or "HH:MM:SS.mmm" (vtt). */
export function formatTime(ms: number, separator: ',' | '.'): string {
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor(ms / 60_000) % 60;
  const s = Math.floor(ms / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

/**
 * The cues of an srt or vtt file, in file order; a block without a timing line (vtt's header, NOTE, STYLE,
 * REGION, a stray number) is passed over. Null when the file holds no cue at all.
 */
export function readCues(source: string): Cue[] | null {
  const blocks = source.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n').split(/\n[ \t]*\n/);
  const cues: Cue[] = [];
  for (const block of blocks) {
    const lines = block.split('\n').filter((l, i, all) => !(l.trim() === '' && (i === 0 || i === all.length - 1)));
    const at = lines.findIndex((l) => l.includes('-->'));
    if (at < 0 || at > 1) continue;
    if (/^(NOTE|STYLE|REGION)\b/.test(lines[0] ?? '')) continue;
    const [from, rest = ''] = lines[at]!.split('-->');
    const start = parseTime(from ?? '');
    // WebVTT cue settings ("align:start line:0") follow the end time.
    const end = parseTime(rest.trim().split(/\s+/)[0] ?? '');
    if (start === null || end === null) continue;
    cues.push({ start, end, text: lines.slice(at + 1).join('\n') });
  }
  return cues.length > 0 ? cues : null;
}

/** Cues as SubRip: numbered from 1, times with a comma. */
export const writeSrt = (cues: readonly Cue[]): string =>
  cues.map((c, i) => `${i + 1}\n${formatTime(c.start, ',')} --> ${formatTime(c.end, ',')}\n${c.text}\n`).join('\n');

/** Cues as WebVTT: the header, then each cue (its number kept as the cue's identifier). */
export const writeVtt = (cues: readonly Cue[]): string =>
  `WEBVTT\n\n${cues.map((c, i) => `${i + 1}\n${formatTime(c.start, '.')} --> ${formatTime(c.end, '.')}\n${c.text}\n`).join('\n')}`;
