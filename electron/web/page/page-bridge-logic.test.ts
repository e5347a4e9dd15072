import { describe, expect, it } from 'vitest';
import { encodeStagingUrl, mapLimit, nextBackoffMs } from './page-bridge-logic';

describe('page bridge logic', () => {
  it('backs off exponentially up to 5 s between reconnects', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map(nextBackoffMs)).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000]);
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
