import { describe, expect, it } from 'vitest';
import { batchTitle, dropTime } from './batch-title';

describe('batch titles', () => {
  const now = new Date(2026, 10, 28, 21, 30);
  const today = new Date(2026, 10, 28, 14, 5).toISOString();
  const earlier = new Date(2026, 10, 25, 9, 7).toISOString();

  it('names each batch for its drop: folder, time and what it does, then which Assembly of the drop', () => {
    const transfer = { label: 'holiday', createdAt: today, recipe: 'Resize images to 1024 px', batchCount: 3 };
    const title = batchTitle({ seq: 2, label: 'Files 1,001–2,000' }, transfer, now);
    expect(title.drop).toBe(`holiday · ${dropTime(today, now)} · Resize images to 1024 px`);
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

  it('says the time today, and the date another day', () => {
    expect(dropTime(today, now)).toMatch(/^\d{1,2}:\d\d/);
    expect(dropTime(earlier, now)).toMatch(/^Nov 25, /);
  });
});
