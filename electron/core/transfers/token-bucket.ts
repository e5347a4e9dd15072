import type { Clock } from '../uploads/clock';

/**
 * The bandwidth limit: one bucket shared by every upload, refilled at `rate` bytes per second (a burst of
 * at most a quarter second). Reads wait for tokens before they hand bytes on, so the limit throttles reads,
 * and a new rate applies to the next read at once. Rate 0 = no limit.
 */
export interface TokenBucket {
  /** Resolves when `bytes` may be sent. */
  take(bytes: number): Promise<void>;
  setRate(bytesPerSecond: number): void;
}

export function createTokenBucket(rate: number, clock: Clock): TokenBucket {
  let perSecond = rate;
  let tokens = 0;
  let last = clock.now();
  let queue: Promise<void> = Promise.resolve();

  const refill = () => {
    const now = clock.now();
    tokens = Math.min(tokens + ((now - last) / 1000) * perSecond, Math.max(perSecond / 4, 64 * 1024));
    last = now;
  };
  const wait = (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));

  return {
    take(bytes) {
      if (perSecond <= 0) return Promise.resolve();
      // One waiter at a time, in order: a big read does not starve behind many small ones or the reverse.
      const turn = queue.then(async () => {
        let need = bytes;
        while (need > 0 && perSecond > 0) {
          refill();
          const got = Math.min(need, Math.max(0, tokens));
          tokens -= got;
          need -= got;
          if (need > 0) await wait(Math.max(5, Math.min(250, (Math.min(need, perSecond / 4) / perSecond) * 1000)));
        }
      });
      queue = turn.catch(() => undefined);
      return turn;
    },
    setRate(bytesPerSecond) {
      refill();
      perSecond = bytesPerSecond;
    },
  };
}
