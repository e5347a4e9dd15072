import { describe, expect, it } from 'vitest';
import { chunkedRange } from './chunked-range';

const span = (rows: number[]) => [rows[0], rows.at(-1), rows.length];

describe('chunkedRange', () => {
  it('covers the rows in view and the overscan, in whole chunks', () => {
    // Rows 21–40 in view, 2 of overscan: 19–42, widened to the chunks of 8 holding them (16–47).
    expect(span(chunkedRange({ startIndex: 21, endIndex: 40, overscan: 2, count: 10_000 }, 8))).toEqual([16, 47, 32]);
  });

  it('renders the same rows while a scroll stays inside the same chunks', () => {
    const at = (start: number) => chunkedRange({ startIndex: start, endIndex: start + 19, overscan: 2, count: 10_000 }, 8);
    expect(at(19)).toEqual(at(23));
    expect(at(25)).toEqual(at(19));
    expect(at(26)).not.toEqual(at(25));
  });

  it('stops at both ends of the list', () => {
    expect(span(chunkedRange({ startIndex: 0, endIndex: 5, overscan: 2, count: 6 }, 8))).toEqual([0, 5, 6]);
    expect(span(chunkedRange({ startIndex: 9_990, endIndex: 9_999, overscan: 2, count: 10_000 }, 8))).toEqual([9_984, 9_999, 16]);
    expect(chunkedRange({ startIndex: 0, endIndex: 0, overscan: 2, count: 0 }, 8)).toEqual([]);
  });

  it('with a chunk of one row is the plain overscanned range', () => {
    expect(span(chunkedRange({ startIndex: 10, endIndex: 20, overscan: 3, count: 100 }, 1))).toEqual([7, 23, 17]);
  });
});
