/** `<input type="date">` value (YYYY-MM-DD) → the list's `YYYY-MM-DD HH:mm:ss` bound, whole days inclusive. */
export const dayBound = (day: string, end: 'from' | 'to'): string | undefined =>
  /^\d{4}-\d{2}-\d{2}$/.test(day) ? `${day} ${end === 'from' ? '00:00:00' : '23:59:59'}` : undefined;

/** Template content as the editor shows it. */
export const formatContent = (content: unknown): string => JSON.stringify(content, null, 2) ?? 'null';
