import type { IncomingMessage, ServerResponse } from 'node:http';

export const HEARTBEAT_MS = 15_000;

/** SSE wire format (service-facts.md §5): unnamed `data: <message>` or `event: <name>` + JSON data. */
export const sseMessage = (message: string): string => `data: ${message}\n\n`;
export const sseEvent = (name: string, data: unknown): string => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** Fans the events of each Assembly out to its open update streams. */
export class UpdateStreams {
  private readonly streams = new Map<string, Set<ServerResponse>>();
  private readonly heartbeat: NodeJS.Timeout;

  constructor(heartbeatMs = HEARTBEAT_MS) {
    // Comments keep proxies and idle timeouts from closing a quiet stream.
    this.heartbeat = setInterval(() => this.broadcastRaw(': heartbeat\n\n'), heartbeatMs);
    this.heartbeat.unref();
  }

  /** Opens a stream; `final` (for a finished Assembly) is written at once and the stream closed. */
  open(req: IncomingMessage, res: ServerResponse, assemblyId: string, final?: string): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write(`id: ${assemblyId}\n: connected\n\n`);
    if (final !== undefined) {
      res.end(final);
      return;
    }
    let set = this.streams.get(assemblyId);
    if (!set) this.streams.set(assemblyId, (set = new Set()));
    set.add(res);
    req.socket.setTimeout(0);
    res.on('close', () => {
      set.delete(res);
      if (set.size === 0 && this.streams.get(assemblyId) === set) this.streams.delete(assemblyId);
    });
  }

  send(assemblyId: string, chunk: string): void {
    for (const res of this.streams.get(assemblyId) ?? []) res.write(chunk);
  }

  /** Writes the last event and ends every stream of the Assembly. */
  finish(assemblyId: string, chunk: string): void {
    const set = this.streams.get(assemblyId);
    this.streams.delete(assemblyId);
    for (const res of set ?? []) res.end(chunk);
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const set of this.streams.values()) for (const res of set) res.end();
    this.streams.clear();
  }

  private broadcastRaw(chunk: string): void {
    for (const set of this.streams.values()) for (const res of set) res.write(chunk);
  }
}
