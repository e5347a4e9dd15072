import { describe, expect, it } from 'vitest';
import { withToast, type ToastMessage } from './toast-store';

const toast = (id: number, tag?: string): ToastMessage => ({ id, text: `t${String(id)}`, tone: 'info', ...(tag ? { tag } : {}) });

describe('toasts', () => {
  it('a notice about the same thing replaces the earlier one in place instead of stacking', () => {
    const shown = withToast(withToast(withToast([], toast(1, 'watch:a')), toast(2)), toast(3, 'watch:a'));
    expect(shown.map((t) => t.text)).toEqual(['t3', 't2']);
  });

  it('untagged toasts stack, at most four, the oldest leaving first', () => {
    let shown: readonly ToastMessage[] = [];
    for (let i = 1; i <= 6; i++) shown = withToast(shown, toast(i));
    expect(shown.map((t) => t.id)).toEqual([3, 4, 5, 6]);
  });
});
