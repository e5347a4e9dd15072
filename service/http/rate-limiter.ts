/** Sliding one-minute window of Assembly creations: the code path for 413 RATE_LIMIT_REACHED with info.retryIn. */
export class RateLimiter {
  private readonly stamps: number[] = [];

  constructor(private readonly perMinute: number | null) {}

  /** Seconds to wait before another Assembly may be created, or 0 when one may be created now (and is counted). */
  take(nowMs: number): number {
    if (this.perMinute === null) return 0;
    while ((this.stamps[0] ?? Infinity) <= nowMs - 60_000) this.stamps.shift();
    const oldest = this.stamps[0];
    if (oldest !== undefined && this.stamps.length >= this.perMinute) return Math.max(1, Math.ceil((oldest + 60_000 - nowMs) / 1000));
    this.stamps.push(nowMs);
    return 0;
  }
}
