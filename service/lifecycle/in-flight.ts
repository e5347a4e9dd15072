/**
 * Work a stopping service must see end before it says it stopped: a step still writing into the data
 * folder after close() resolved fails whoever removes or reopens that folder next.
 */
export class InFlight {
  private readonly pending = new Set<Promise<unknown>>();

  /** Follows `work` until it settles; its failure stays the caller's to handle. */
  track<T>(work: Promise<T>): Promise<T> {
    const settled = work.then(
      () => undefined,
      () => undefined,
    );
    this.pending.add(settled);
    void settled.then(() => this.pending.delete(settled));
    return work;
  }

  get size(): number {
    return this.pending.size;
  }

  /**
   * Resolves when everything tracked so far has settled, or after `limitMs` (a robot that ignores its abort
   * must not hold the app's quit); true when all of it settled.
   */
  async settled(limitMs: number): Promise<boolean> {
    if (this.pending.size === 0) return true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<false>((resolve) => {
      timer = setTimeout(() => resolve(false), limitMs);
    });
    try {
      return await Promise.race([Promise.all([...this.pending]).then(() => true as const), late]);
    } finally {
      clearTimeout(timer);
    }
  }
}
