// A user's link between the app and a deployment, for the fault proxy (fault-proxy.ts `link`): a round-trip
// time and a bandwidth cap per direction, shared by every connection (one uplink, one downlink), and a
// window per connection (what one TCP connection may have in flight: it reads no more from its sender
// until the link delivered). Each direction is a pipe: a chunk is sent once the bytes before it are (at
// the cap's rate), and arrives half a round trip later. Not modelled: loss, TCP's slow start, jitter.
// Not used by production code.
import type { Readable, Writable } from 'node:stream';

export interface LinkOptions {
  /** Round-trip time in ms: each direction adds half of it, and a new connection waits one whole (its handshake). */
  rttMs: number;
  /** Client → service, bits per second (0: no cap). */
  uplinkBps: number;
  /** Service → client, bits per second (0: no cap; default: as the uplink). */
  downlinkBps?: number;
  /** Bytes one connection may have on the way in each direction (default 4 MiB, Linux's usual autotuned window). */
  windowBytes?: number;
}

/** One direction of the link: when a chunk that enters it now arrives at the other end. */
export interface LinkPipe {
  /** The time (ms, on `now`'s clock) at which `bytes` handed in at `now` arrive. */
  arrival(bytes: number, now: number): number;
}

/** A pipe of `bitsPerSecond` (0: unlimited) and a one-way delay of `delayMs`. Pure apart from its own clock of when the pipe is free. */
export function linkPipe(bitsPerSecond: number, delayMs: number): LinkPipe {
  let freeAt = 0;
  return {
    arrival(bytes, now) {
      const start = Math.max(now, freeAt);
      const end = bitsPerSecond > 0 ? start + (bytes * 8 * 1000) / bitsPerSecond : start;
      freeAt = end;
      return end + delayMs;
    },
  };
}

export interface Link {
  readonly options: Required<LinkOptions>;
  up: LinkPipe;
  down: LinkPipe;
}

export function createLink(o: LinkOptions): Link {
  const options = { downlinkBps: o.uplinkBps, windowBytes: 4 * 1024 * 1024, ...o };
  return { options, up: linkPipe(options.uplinkBps, options.rttMs / 2), down: linkPipe(options.downlinkBps, options.rttMs / 2) };
}

/**
 * `from` piped into `to` through `pipe`: each chunk is written when it arrives; `from` is paused while a
 * window's worth is on the way. Ends `to` after the last chunk arrived (unless `end: false`).
 */
export function shapedPipe(from: Readable, to: Writable, pipe: LinkPipe, windowBytes: number, o: { end?: boolean } = {}): void {
  const queue: Array<{ at: number; chunk: Buffer | null }> = [];
  let inFlight = 0;
  let timer: NodeJS.Timeout | null = null;
  let paused = false;
  const deliver = (): void => {
    timer = null;
    const now = performance.now();
    while (queue.length > 0 && queue[0]!.at <= now) {
      const { chunk } = queue.shift()!;
      if (chunk === null) {
        if (o.end !== false) to.end();
        continue;
      }
      inFlight -= chunk.length;
      if (!to.destroyed) to.write(chunk);
    }
    if (paused && inFlight < windowBytes) {
      paused = false;
      from.resume();
    }
    if (queue.length > 0) timer = setTimeout(deliver, Math.max(0, queue[0]!.at - now));
  };
  const enqueue = (at: number, chunk: Buffer | null): void => {
    queue.push({ at, chunk });
    if (!timer) timer = setTimeout(deliver, Math.max(0, queue[0]!.at - performance.now()));
  };
  from.on('data', (chunk: Buffer) => {
    inFlight += chunk.length;
    enqueue(pipe.arrival(chunk.length, performance.now()), chunk);
    if (inFlight >= windowBytes && !paused) {
      paused = true;
      from.pause();
    }
  });
  from.once('end', () => enqueue(pipe.arrival(0, performance.now()), null));
  to.once('close', () => {
    if (timer) clearTimeout(timer);
    queue.length = 0;
  });
}
