// Sizes as people read them: decimal units, one decimal below 100 ("2.2 MB", "512 MB"). One rule for the
// app's screens and the local service's messages ("received 2.2 MB; auth.max_size allows 1.0 MB"). Pure.

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;

export const formatBytes = (bytes: number): string => {
  if (!Number.isFinite(bytes) || bytes < 0) return '—';
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  // One decimal below 100 keeps the width steady; none above (e.g. "512 MB").
  const digits = value < 100 ? 1 : 0;
  return `${value.toFixed(digits)} ${UNITS[unit]}`;
};
