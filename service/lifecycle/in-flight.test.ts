import { describe, expect, it } from 'vitest';
import { InFlight } from './in-flight';

describe('InFlight', () => {
  it('settles only after every tracked piece of work, failed ones included', async () => {
    const inFlight = new InFlight();
    let finish!: () => void;
    let fail!: (e: Error) => void;
    const ok = inFlight.track(new Promise<void>((r) => (finish = r)));
    const bad = inFlight.track(new Promise<void>((_, r) => (fail = r)));
    bad.catch(() => undefined);
    const order: string[] = [];
    const all = inFlight.settled(10_000).then((v) => order.push(`settled ${v}`));
    await Promise.resolve();
    order.push('finish');
    finish();
    await ok;
    order.push('fail');
    fail(new Error('disk gone'));
    await all;
    expect(order).toEqual(['finish', 'fail', 'settled true']);
    expect(inFlight.size).toBe(0);
  });

  it('gives up after its limit when work never ends, and says so', async () => {
    const inFlight = new InFlight();
    void inFlight.track(new Promise(() => undefined));
    expect(await inFlight.settled(20)).toBe(false);
    expect(inFlight.size).toBe(1);
  });
});
