import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VirtualList } from './VirtualList';

describe('VirtualList', () => {
  afterEach(cleanup);

  it('renders only the rows in view (plus a small overscan) of 100,000', () => {
    render(<VirtualList count={100_000} rowHeight={40} label="Files" fallbackRows={20} overscan={5} renderRow={(i) => <span data-testid="row">Row {i}</span>} />);
    const rows = screen.getAllByTestId('row');
    expect(rows.length).toBeGreaterThanOrEqual(20);
    expect(rows.length).toBeLessThanOrEqual(26);
    expect(rows[0]?.textContent).toBe('Row 0');
    const list = screen.getByRole('list', { name: 'Files' });
    // The scroll height stands for every row, so the scrollbar tells the truth.
    expect((list.firstElementChild as HTMLElement).style.height).toBe(`${100_000 * 40}px`);
    expect(list.querySelector('[role="listitem"]')?.getAttribute('aria-setsize')).toBe('100000');
  });

  it('renders whole chunks of rows when asked, so a short scroll changes nothing', () => {
    render(<VirtualList count={100_000} rowHeight={40} label="Chunked" fallbackRows={20} overscan={2} chunk={8} renderRow={(i) => <span data-testid="row">Row {i}</span>} />);
    const rows = screen.getAllByTestId('row');
    // Rows 0–19 in view and 2 of overscan, widened to the chunks of 8 holding them: 0–23.
    expect(rows).toHaveLength(24);
    expect(rows.at(-1)?.textContent).toBe('Row 23');
    // Rows are placed by their offset, not moved by a transform.
    expect((rows.at(-1)?.parentElement as HTMLElement).style.top).toBe(`${23 * 40}px`);
  });

  it('shrinks to fit a short list when capped', () => {
    render(<VirtualList count={3} rowHeight={40} label="Few" maxVisibleRows={10} renderRow={(i) => <span data-testid="row">Row {i}</span>} />);
    expect(screen.getAllByTestId('row')).toHaveLength(3);
    expect(screen.getByRole('list', { name: 'Few' }).style.height).toBe('122px');
  });

  it('keeps a row\'s DOM node by its key when a row is added above it, and asks keys for rendered rows only', () => {
    const asked: number[] = [];
    const list = (ids: string[]) => (
      <VirtualList
        count={10_000}
        rowHeight={40}
        label="Assemblies"
        fallbackRows={10}
        overscan={2}
        getRowKey={(i) => {
          asked.push(i);
          return ids[i] ?? `placeholder-${String(i)}`;
        }}
        renderRow={(i) => <span data-testid="row">{ids[i] ?? 'loading'}</span>}
      />
    );
    const { rerender } = render(list(['b', 'c']));
    const before = screen.getByText('b').parentElement;
    asked.length = 0;
    rerender(list(['a', 'b', 'c']));
    expect(screen.getAllByTestId('row')[0]?.textContent).toBe('a');
    // Same element for b, one row lower: focus inside it stays where the user left it.
    expect(screen.getByText('b').parentElement).toBe(before);
    // Not 10,000 keys per render: only the rows on screen.
    expect(asked.length).toBeLessThanOrEqual(20);
  });
});

describe('VirtualList while scrolling', () => {
  // The list stops "scrolling" 150 ms after the last scroll event: on the fake clock, so a loaded machine's
  // pauses between two scroll events cannot end the scroll the test is making.
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  const scrollTo = async (list: HTMLElement, top: number) => {
    await act(async () => {
      list.scrollTop = top;
      list.dispatchEvent(new Event('scroll'));
      await vi.advanceTimersByTimeAsync(0);
    });
  };

  it('renders nothing again while a scroll stays inside the rendered chunks, but still reports the rows in view', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const rendered: number[] = [];
    const ranges: Array<[number, number]> = [];
    render(
      <VirtualList
        count={1000}
        rowHeight={40}
        label="Scrolled"
        fallbackRows={10}
        overscan={2}
        chunk={8}
        onRangeChange={(start, end) => ranges.push([start, end])}
        renderRow={(i) => {
          rendered.push(i);
          return <span data-testid="row">Row {i}</span>;
        }}
      />,
    );
    const list = screen.getByRole('list', { name: 'Scrolled' });
    expect(screen.getAllByTestId('row')).toHaveLength(16);
    expect(ranges.at(-1)).toEqual([0, 10]);
    // The first scroll event renders once: the list is now scrolling (its rows take no pointer events).
    await scrollTo(list, 40);
    expect(list.querySelector('.vlist-inner')?.classList.contains('scrolling')).toBe(true);
    expect(ranges.at(-1)).toEqual([1, 11]);
    rendered.length = 0;

    // Rows 2–11 in view: 0–15 still cover them with the overscan, so no render at all.
    await scrollTo(list, 80);
    expect(rendered).toEqual([]);
    expect(ranges.at(-1)).toEqual([2, 12]);

    // Ten rows down: rows 10–19 in view need the chunk 16–23; the list renders once, with it.
    await scrollTo(list, 400);
    const rows = screen.getAllByTestId('row');
    expect(rows[0]?.textContent).toBe('Row 8');
    expect(rows.at(-1)?.textContent).toBe('Row 23');
    expect(ranges.at(-1)).toEqual([10, 20]);

    // 150 ms after the last scroll event the list is still again: rows take pointer events.
    await act(async () => {
      await vi.advanceTimersByTimeAsync(200);
    });
    expect(list.querySelector('.vlist-inner')?.classList.contains('scrolling')).toBe(false);
  });
});
