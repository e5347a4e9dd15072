import type { MediaPreview } from '../../../shared/ipc/models';

/**
 * Asset previews by workspace, asset, version and size (a version's bytes never change), least recently
 * used dropped past `limit`; and a gate that makes at most `concurrency` at once, so scrolling past a
 * thousand rows does not fetch a thousand assets at the same time.
 */
export interface PreviewCache {
  get(key: string): MediaPreview | undefined;
  set(key: string, preview: MediaPreview): void;
  run<T>(make: () => Promise<T>): Promise<T>;
}

export function createPreviewCache(limit = 2000, concurrency = 4): PreviewCache {
  const entries = new Map<string, MediaPreview>();
  let running = 0;
  const waiting: Array<() => void> = [];
  return {
    get(key) {
      const hit = entries.get(key);
      if (hit) {
        entries.delete(key);
        entries.set(key, hit);
      }
      return hit;
    },
    set(key, preview) {
      entries.delete(key);
      entries.set(key, preview);
      while (entries.size > limit) entries.delete(entries.keys().next().value as string);
    },
    async run(make) {
      // A finished run hands its slot straight to the next waiter, so a newcomer never slips past the gate.
      if (running >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
      else running += 1;
      try {
        return await make();
      } finally {
        const next = waiting.shift();
        if (next) next();
        else running -= 1;
      }
    },
  };
}
