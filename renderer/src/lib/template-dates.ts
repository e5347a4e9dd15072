/** `<input type="date">` value (YYYY-MM-DD) → the list's `YYYY-MM-DD HH:mm:ss` bound, whole days inclusive. */
export const dayBound = (day: string, end: 'from' | 'to'): string | undefined =>
  /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day} ${end === 'from' ? '00:00:00' : '23:59:59'}` : undefined;

/** A service date (`YYYY-MM-DD HH:mm:ss`, UTC) for people, in their locale and zone; "—" for none. */
export const formatServiceDate = (value: string | null): string => {
  if (!value) return '—';
  // `YYYY-MM-DD HH:mm:ss` (UTC, as Templates carry) or a full ISO 8601 string with its zone (Auth Keys).
  const ms = /[zZ]|[+-]\d\d:?\d\d$/.test(value) ? Date.parse(value) : Date.parse(`${value.replace(' ', 'T')}Z`);
  return Number.isFinite(ms) ? new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : value;
};

/** Template content as the editor shows it. */
export const formatContent = (content: unknown): string => JSON.stringify(content, null, 2) ?? 'null';
