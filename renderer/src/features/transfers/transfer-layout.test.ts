import { describe, expect, it } from 'vitest';
import { buildLayout, lineAt, lineOfOffset, rowRangeOf } from './transfer-layout';

// Two batches: rows 0–2 in b1, rows 3–99,999 in b2 (a queue of 100,000 files).
const layout = buildLayout(
  [
    { batchId: 'b2', offset: 3, count: 99_997 },
    { batchId: 'b1', offset: 0, count: 3 },
    { batchId: 'empty', offset: 3, count: 0 },
  ],
  100_000,
);

describe('transfer list layout', () => {
  it('puts one header line above each batch that has rows', () => {
    expect(layout.count).toBe(100_002);
    expect(lineAt(layout, 0)).toMatchObject({ kind: 'header', group: { batchId: 'b1' } });
    expect(lineAt(layout, 1)).toMatchObject({ kind: 'row', offset: 0 });
    expect(lineAt(layout, 3)).toMatchObject({ kind: 'row', offset: 2, group: { batchId: 'b1' } });
    expect(lineAt(layout, 4)).toMatchObject({ kind: 'header', group: { batchId: 'b2' } });
    expect(lineAt(layout, 5)).toMatchObject({ kind: 'row', offset: 3 });
    expect(lineAt(layout, 100_001)).toMatchObject({ kind: 'row', offset: 99_999 });
  });

  it('maps a row back to its line', () => {
    for (const offset of [0, 2, 3, 50_000, 99_999]) {
      const line = lineOfOffset(layout, offset);
      expect(lineAt(layout, line)).toMatchObject({ kind: 'row', offset });
    }
  });

  it('turns the lines in view into the rows to read', () => {
    expect(rowRangeOf(layout, 0, 30)).toEqual({ start: 0, end: 28 });
    expect(rowRangeOf(layout, 0, 4)).toEqual({ start: 0, end: 3 });
    expect(rowRangeOf(layout, 50_000, 50_030)).toEqual({ start: 49_998, end: 50_028 });
    expect(rowRangeOf(buildLayout([], 0), 0, 30)).toEqual({ start: 0, end: 0 });
  });

  it('shows plain rows when core gives no groups', () => {
    const flat = buildLayout([], 10);
    expect(flat.count).toBe(10);
    expect(lineAt(flat, 4)).toEqual({ kind: 'row', offset: 4, group: null });
  });
});
