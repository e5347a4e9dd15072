import { describe, expect, it } from 'vitest';
import { formatDateTime } from '../../lib/date-time';
import { batchTitle, dropTime } from './batch-title';

describe('batch titles', () => {
  const now = new Date(2026, 10, 28, 21, 30);
  const today = new Date(2026, 10, 28, 14, 5).toISOString();
  const earlier = new Date(2026, 10, 25, 9, 7).toISOString();

  it('names each batch for its drop: folder, time and what it does, then which Assembly of the drop', () => {
    const transfer = { label: 'holiday', createdAt: today, recipe: 'Resize images to 1024 px', batchCount: 3 };
    const title = batchTitle({ seq: 2, label: 'Files 1,001–2,000' }, transfer, now);
    expect(title.drop).toBe(`holiday · ${dropTime(today, now).text} · Resize images to 1024 px`);
    expect(title.assembly).toBe('Assembly 2 of 3 · Files 1,001–2,000');
    expect(title.name).toBe('holiday · Assembly 2 of 3');
  });

  it('tells two drops of the same size apart, and does not repeat a drop-wide label', () => {
    const a = batchTitle({ seq: 1, label: 'Files 1–3' }, { label: 'IMG_0001.jpg', createdAt: today, recipe: null, batchCount: 1 }, now);
    const b = batchTitle({ seq: 1, label: 'Files 1–3' }, { label: 'scans', createdAt: earlier, recipe: 'Custom steps', batchCount: 1 }, now);
    expect(a.drop).not.toBe(b.drop);
    expect(a.assembly).toBe('Assembly 1 · Files 1–3');
    expect([a.name, b.name]).toEqual(['IMG_0001.jpg', 'scans']);
    expect(batchTitle({ seq: 1, label: 'photos' }, { label: 'photos', createdAt: today, recipe: 'Custom steps', batchCount: 1 }, now).assembly).toBe('Assembly 1');
  });

  it('says the time today and the date another day, in the one format the Assembly view uses (24-hour, seconds, UTC on hover)', () => {
    const zone = 'Europe/Berlin';
    // 03:14:09 UTC is 04:14:09 in Berlin: never "04:14 AM".
    const at = '2026-11-28T03:14:09.000Z';
    expect(dropTime(at, new Date('2026-11-28T20:00:00Z'), zone)).toEqual({ text: '04:14:09', title: '2026-11-28 03:14:09 UTC', iso: at });
    expect(dropTime(at, new Date('2026-11-29T08:00:00Z'), zone)).toEqual({ text: formatDateTime(at, zone), title: '2026-11-28 03:14:09 UTC', iso: at });
    expect(formatDateTime(at, zone)).toBe('28 Nov 2026, 04:14:09');
    // The day is the user's: 23:30 UTC on the 28th is already the 29th in Berlin.
    expect(dropTime('2026-11-28T23:30:00Z', new Date('2026-11-29T10:00:00Z'), zone).text).toBe('00:30:00');
    expect(dropTime('2026-11-28T23:30:00Z', new Date('2026-11-29T10:00:00Z'), 'America/New_York').text).toBe('28 Nov 2026, 18:30:00');
    const title = batchTitle({ seq: 1, label: 'Files 1–3' }, { label: 'scans', createdAt: at, recipe: 'Custom steps', batchCount: 1 }, new Date('2026-11-28T20:00:00Z'), zone);
    expect(title.drop).toBe('scans · 04:14:09 · Custom steps');
    expect(title.dropParts).toEqual({ label: 'scans', createdAt: at, timeOnly: true, recipe: 'Custom steps' });
  });

  it('keeps a date it cannot read as it came, never "Invalid Date"', () => {
    expect(dropTime('soon', new Date()).text).toBe('soon');
  });
});
