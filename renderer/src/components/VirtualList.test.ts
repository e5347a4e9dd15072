import { describe, expect, it } from 'vitest';
import { visibleRange } from './VirtualList';

describe('visibleRange', () => {
  it('renders only the rows in view plus a small overscan', () => {
    expect(visibleRange(0, 400, 40, 10_000, 5, 30)).toEqual({ start: 0, end: 15 });
    expect(visibleRange(40_000, 400, 40, 10_000, 5, 30)).toEqual({ start: 995, end: 1015 });
  });

  it('stops at the end of the list and falls back before the viewport is measured', () => {
    expect(visibleRange(399_800, 400, 40, 10_000, 5, 30)).toEqual({ start: 9990, end: 10_000 });
    expect(visibleRange(0, 0, 40, 10_000, 5, 30)).toEqual({ start: 0, end: 35 });
  });
});
