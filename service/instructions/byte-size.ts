// Byte sizes such as "20mb" in /file/filter numeric comparisons are 1024-based (service-facts §8).

const UNITS: Record<string, number> = { b: 0, k: 1, m: 2, g: 3, t: 4, p: 5 };

/** A number, a numeric string or a byte size ("20mb", "1.5 GiB", "512kb") as a number; null otherwise. */
export function toNumeric(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'boolean') return null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (text === '') return null;
  if (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(text)) return Number(text);
  const m = /^(\d+\.?\d*|\.\d+)\s*([kmgtp]?)(i?b)$/i.exec(text);
  if (!m || (m[2] === '' && m[3]!.toLowerCase() === 'ib')) return null;
  const unit = m[2] === '' ? 'b' : m[2]!.toLowerCase();
  return Number(m[1]) * 1024 ** UNITS[unit]!;
}
