import { describe, expect, it } from 'vitest';
import { followNote } from './live-line';

const limited = (rateLimitedMs: number) => ({ via: 'stream' as const, reason: null, rateLimitedMs });

describe('followNote', () => {
  it('counts a rate-limit wait down in whole seconds, never below 1 s', () => {
    expect(followNote({ state: limited(4_200), since: 10_000 }, 10_000)).toBe('waiting 5 s (rate limited)');
    expect(followNote({ state: limited(4_200), since: 10_000 }, 12_500)).toBe('waiting 2 s (rate limited)');
    expect(followNote({ state: limited(4_200), since: 10_000 }, 20_000)).toBe('waiting 1 s (rate limited)');
  });

  it('never says more than the wait when the page clock last ticked before the wait was heard', () => {
    // The view's `now` ticks once a second; a busy page may hold one older than the event by seconds.
    expect(followNote({ state: limited(4_200), since: 10_000 }, 8_200)).toBe('waiting 5 s (rate limited)');
    expect(followNote({ state: limited(30_000), since: 10_000 }, 1_000)).toBe('waiting 30 s (rate limited)');
  });

  it('says how the view moves when the update stream dropped or went silent, and nothing when all is usual', () => {
    expect(followNote({ state: { via: 'polling', reason: 'stream-dropped', rateLimitedMs: null }, since: 0 }, 0)).toBe('update stream dropped · checking every 2 s');
    expect(followNote({ state: { via: 'polling', reason: 'stream-stalled', rateLimitedMs: null }, since: 0 }, 0)).toBe('update stream silent · checking every 2 s');
    expect(followNote({ state: { via: 'stream', reason: null, rateLimitedMs: null }, since: 0 }, 0)).toBeNull();
    expect(followNote(null, 0)).toBeNull();
  });
});
