// Date keys of a file's meta (spec "File metadata", Date keys): one valid date becomes
// `YYYY/MM/DD HH:MM:SS`, converted to UTC and marked ` GMT` when it carries a zone; an unparseable string
// becomes null (the key stays); numbers and repeated-tag lists keep their values. Pure.

/** A date as ExifTool readers hand it over (exiftool-vendored's ExifDateTime / ExifDate, duck-typed). */
interface DateParts {
  year?: number;
  month?: number;
  day?: number;
  hour?: number;
  minute?: number;
  second?: number;
  tzoffsetMinutes?: number;
  /** true when the reader guessed the zone (from another tag, GPS…): not the file's own word, so not converted. */
  inferredZone?: boolean;
  rawValue?: string;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

function format(parts: { year: number; month: number; day: number; hour: number; minute: number; second: number }, offsetMinutes: number | null): string | null {
  const { year, month, day, hour, minute, second } = parts;
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60) return null;
  if (offsetMinutes === null) return `${pad(year, 4)}/${pad(month)}/${pad(day)} ${pad(hour)}:${pad(minute)}:${pad(second)}`;
  const utc = new Date(Date.UTC(year, month - 1, day, hour, minute, second) - offsetMinutes * 60_000);
  if (Number.isNaN(utc.getTime())) return null;
  return `${pad(utc.getUTCFullYear(), 4)}/${pad(utc.getUTCMonth() + 1)}/${pad(utc.getUTCDate())} ${pad(utc.getUTCHours())}:${pad(utc.getUTCMinutes())}:${pad(utc.getUTCSeconds())} GMT`;
}

// EXIF "2024:06:01 12:00:00", ISO "2024-06-01T12:00:00.5+02:00", the service's own "2024/06/01 12:00:00 GMT".
const DATE_RE = /^(\d{4})[:\-/](\d{2})[:\-/](\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?\s*(Z|GMT|UTC|[+-]\d{2}:?\d{2})?$/i;

/** "…+02:00" → 120, "Z"/"GMT" → 0, none → null. */
function offsetOf(zone: string | undefined): number | null {
  if (!zone) return null;
  if (/^(z|gmt|utc)$/i.test(zone)) return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!m) return null;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/** One date string in the spec's format, or null when it is not a date (zeros included: "0000:00:00 00:00:00"). */
export function normalizeDateString(raw: string): string | null {
  const m = DATE_RE.exec(raw.trim());
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', zone] = m;
  return format({ year: Number(y), month: Number(mo), day: Number(d), hour: Number(h), minute: Number(mi), second: Number(s) }, offsetOf(zone));
}

const isParts = (v: unknown): v is DateParts => typeof v === 'object' && v !== null && typeof (v as DateParts).year === 'number';

/** A date key's value as the spec wants it; undefined when there is no value at all (the key is left out). */
export function normalizeDateValue(value: unknown): string | number | unknown[] | null | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return value;
  if (Array.isArray(value)) return value;
  if (typeof value === 'string') return value.trim() === '' ? undefined : normalizeDateString(value);
  if (isParts(value)) {
    const zoned = typeof value.tzoffsetMinutes === 'number' && value.inferredZone !== true;
    return format(
      { year: value.year!, month: value.month ?? 1, day: value.day ?? 1, hour: value.hour ?? 0, minute: value.minute ?? 0, second: value.second ?? 0 },
      zoned ? value.tzoffsetMinutes! : null,
    );
  }
  // An object the reader could not make a date of: keep what it read, parsed if it can be.
  const raw = (value as DateParts).rawValue;
  return typeof raw === 'string' ? normalizeDateString(raw) : null;
}
