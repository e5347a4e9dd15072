import { describe, expect, it } from 'vitest';
import { formatBytes, formatDuration, formatEta, formatPercent, formatPlayTime, formatSpeed, percentOf } from './format';

describe('format', () => {
  it('shows sizes in decimal units with steady precision', () => {
    expect(formatBytes(0)).toBe('0 B');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(1500)).toBe('1.5 KB');
    expect(formatBytes(12_345_678)).toBe('12.3 MB');
    expect(formatBytes(512_000_000)).toBe('512 MB');
    expect(formatBytes(4_500_000_000)).toBe('4.5 GB');
    expect(formatBytes(-1)).toBe('—');
  });

  it('shows speed, or a dash before the first measurement', () => {
    expect(formatSpeed(2_500_000)).toBe('2.5 MB/s');
    expect(formatSpeed(0)).toBe('—');
  });

  it('shows durations readably', () => {
    expect(formatDuration(0.42)).toBe('0.4 s');
    expect(formatDuration(42)).toBe('42 s');
    expect(formatDuration(185)).toBe('3 min 05 s');
    expect(formatDuration(7_620)).toBe('2 h 07 min');
  });

  it('says how long is left, rounding up, and admits when it does not know', () => {
    expect(formatEta(null)).toBe('Estimating…');
    expect(formatEta(0.2)).toBe('Almost done');
    expect(formatEta(41.2)).toBe('42 s left');
    expect(formatEta(125)).toBe('2 min 05 s left');
  });

  it('never shows 100% before every byte is uploaded', () => {
    expect(formatPercent(999_999, 1_000_000)).toBe('99%');
    expect(formatPercent(1_000_000, 1_000_000)).toBe('100%');
    expect(formatPercent(0, 0)).toBe('0%');
    expect(percentOf(50, 200)).toBe(25);
    expect(percentOf(300, 200)).toBe(100);
  });
});

describe('formatPlayTime', () => {
  it('shows media lengths as players do', () => {
    expect([formatPlayTime(0), formatPlayTime(7.4), formatPlayTime(72), formatPlayTime(3723), formatPlayTime(Number.NaN)]).toEqual(['0:00', '0:07', '1:12', '1:02:03', '0:00']);
  });
});
