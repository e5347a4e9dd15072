// One date and time format for the whole app (issue 26): the user's local time, 24-hour, to the second —
// "28 Nov 2026, 19:08:20" — with the same instant in UTC for hovering ("2026-11-28 19:08:20 UTC").
// Every date the app shows goes through here; components/DateTime puts it in a <time> with that title.
// Pure: the time zone is an argument (the user's by default), so tests pin it.

export type DateInput = string | number | Date | null | undefined;

/**
 * How to read a date string without a zone. `utc`: a service record's date (`2026-11-28 19:08:20`, the
 * list's `created`, a Template's `created`) is UTC. `none`: a file's own metadata date (EXIF
 * `2024:06:01 12:00:00`) has no known zone, so it names no instant.
 */
export type Zoneless = 'utc' | 'none';

const SERVICE_DATE = /^(\d{4})[/:-](\d{2})[/:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?\s*(GMT|UTC|Z|[+-]\d{2}:?\d{2})?$/i;

/**
 * The instant a value names: a Date, epoch milliseconds, ISO 8601, or the service's spellings
 * (`2026/11/28 19:08:20 GMT`, `2026/11/28 19:08:20+00:00`, `2026-11-28 19:08:20` as UTC); null when it
 * names none. Pure.
 */
export function parseInstant(value: DateInput, zoneless: Zoneless = 'utc'): Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value;
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value) : null;
  const text = value.trim();
  const m = SERVICE_DATE.exec(text);
  if (m) {
    const zone = m[8];
    if (!zone && zoneless === 'none') return null;
    const ms = Number(`0.${m[7] ?? '0'}`) * 1000;
    let at = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, Math.floor(ms));
    const offset = zone ? /^([+-])(\d{2}):?(\d{2})$/.exec(zone) : null;
    if (offset) at -= (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) * 60_000;
    const d = new Date(at);
    // 2026-02-30 rolls over in Date.UTC: a date that does not exist names nothing.
    return Number.isNaN(d.getTime()) || (!offset && d.getUTCDate() !== +m[3]!) ? null : d;
  }
  if (!/^\d{4}-\d{2}-\d{2}T/.test(text)) return null;
  if (zoneless === 'none' && !/([zZ]|[+-]\d{2}:?\d{2})$/.test(text)) return null;
  const d = new Date(/([zZ]|[+-]\d{2}:?\d{2})$/.test(text) ? text : `${text}Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

// One formatter per zone, made once: list rows format a date for every row that scrolls into view. The
// user's own zone is keyed by its current offset: a formatter fixes the zone it was made in, and a laptop
// that changes zone while the app runs must show the new local time (a new offset: new formatters).
const formatters = new Map<string, { dateTime: Intl.DateTimeFormat; time: Intl.DateTimeFormat }>();
const formattersFor = (timeZone: string | undefined) => {
  const key = timeZone ?? `local ${new Date().getTimezoneOffset()}`;
  let f = formatters.get(key);
  if (!f) {
    const zone = timeZone ? { timeZone } : {};
    f = {
      dateTime: new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', ...zone }),
      time: new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', ...zone }),
    };
    formatters.set(key, f);
  }
  return f;
};

/**
 * Makes the user's formatters now. The page's first Intl.DateTimeFormat loads the locale's data (~25 ms
 * of CPU on a 2-core machine): made when the page is idle after its start, it is not paid inside the
 * first render that shows a date (issue 27: Upload → Transfers, whose batch headers show the drop's time).
 */
export const warmDateFormats = (): void => {
  formattersFor(undefined).dateTime.format(0);
};

const pad = (n: number): string => String(n).padStart(2, '0');

/** "2026-11-28 19:08:20 UTC". Pure. */
export const utcText = (d: Date): string =>
  `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} UTC`;

export interface DateText {
  /** What the screen shows: local time, or the value as it came when it names no instant, or "—". */
  readonly text: string;
  /** Hover text: the UTC value, or why there is none. */
  readonly title?: string;
  /** For `<time dateTime>`: the instant in ISO 8601, when there is one. */
  readonly iso?: string;
}

export interface DateOptions {
  readonly timeZone?: string;
  readonly zoneless?: Zoneless;
  /** Only the time of day ("19:08:20"): for things of today (a list read at, a retry at). */
  readonly timeOnly?: boolean;
}

/** A date for people: local time, the UTC value on hover. Pure. */
export function dateText(value: DateInput, options: DateOptions = {}): DateText {
  if (value === null || value === undefined || value === '') return { text: '—' };
  const instant = parseInstant(value, options.zoneless);
  if (!instant) {
    const raw = typeof value === 'string' ? value : String(value);
    return { text: raw, title: options.zoneless === 'none' ? 'No time zone recorded: as the file says' : 'Not a date the app can read: as the service sent it' };
  }
  const f = formattersFor(options.timeZone);
  return { text: (options.timeOnly ? f.time : f.dateTime).format(instant), title: utcText(instant), iso: instant.toISOString() };
}

/** The text alone ("28 Nov 2026, 19:08:20"), for places that cannot hold a <time> (an option, a toast). Pure. */
export const formatDateTime = (value: DateInput, timeZone?: string): string => dateText(value, timeZone ? { timeZone } : {}).text;

/** The time of day alone ("19:08:20"). Pure. */
export const formatTime = (value: DateInput, timeZone?: string): string => dateText(value, { timeOnly: true, ...(timeZone ? { timeZone } : {}) }).text;
