import { describe, expect, it } from 'vitest';
import { createYielder, encodeStagingUrl, forEachLimit, mapLimit, nextBackoffMs, rootSegmentOf, tokenFromFragment } from './page-bridge-logic';

describe('page bridge logic', () => {
  it('backs off exponentially up to 5 s between reconnects', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map(nextBackoffMs)).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
  });
  it('takes the launch token only from a fragment that is exactly #token=<t>', () => {
    const t = 'A'.repeat(43);
    expect(tokenFromFragment(`#token=${t}`)).toBe(t);
    for (const hash of ['', '#/upload', `#token=${t}&x=1`, `#/run/r1?token=${t}`, '#token=short', `#token=${t}"><script>`]) expect(tokenFromFragment(hash), hash).toBeNull();
  });
  it('encodes every segment of a staging path', () => {
    expect(encodeStagingUrl('b1', 'my photos/#1 ?.jpg')).toBe('/staging/b1/my%20photos/%231%20%3F.jpg');
  });
  it('never runs more than the limit at once and keeps order', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapLimit([30, 10, 20, 5, 1], 2, async (ms) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, ms));
      running -= 1;
      return ms * 2;
    });
    expect(out).toEqual([60, 20, 40, 10, 2]);
    expect(peak).toBe(2);
  });
});

describe('streaming staging helpers', () => {
  it('runs a streamed source with a bounded number at once, and stops taking items when told', async () => {
    async function* source() {
      for (let i = 0; i < 20; i++) yield i;
    }
    let running = 0;
    let peak = 0;
    const done: number[] = [];
    await forEachLimit(source(), 6, async (i) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 1 + (i % 3)));
      done.push(i);
      running -= 1;
    });
    expect(done.sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(peak).toBe(6);
    const taken: number[] = [];
    await forEachLimit([1, 2, 3, 4, 5], 1, async (i) => void taken.push(i), () => taken.length >= 2);
    expect(taken).toEqual([1, 2]);
  });

  it('yields to the event loop only once a slice of work has passed', async () => {
    let clock = 0;
    let sleeps = 0;
    const maybeYield = createYielder(8, () => clock, async () => void (sleeps += 1));
    clock = 5;
    await maybeYield();
    expect(sleeps).toBe(0);
    clock = 9;
    await maybeYield();
    await maybeYield();
    expect(sleeps).toBe(1);
  });

  it('names the top-level item of a path', () => {
    expect(rootSegmentOf('photos/sub/a.jpg')).toBe('photos');
    expect(rootSegmentOf('a.jpg')).toBe('a.jpg');
  });
});
