// A real webhook receiver on 127.0.0.1 for notification tests: records each POST and answers with the
// status codes of its script in turn (then 200); 0 in the script = never answer that one (a hung
// receiver). Not imported by production code.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedNotification {
  path: string;
  contentType: string;
  /** The `transloadit` field exactly as received. */
  transloadit: string;
  signature: string;
  receivedAtMs: number;
}

export interface Receiver {
  url: string;
  received: ReceivedNotification[];
  /** Resolves once `n` notifications arrived (rejects after `timeoutMs`). */
  waitFor(n: number, timeoutMs?: number): Promise<ReceivedNotification[]>;
  close(): Promise<void>;
}

export async function startReceiver(script: number[] = [], port = 0): Promise<Receiver> {
  const received: ReceivedNotification[] = [];
  const answers = [...script];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      received.push({
        path: req.url ?? '/',
        contentType: String(req.headers['content-type'] ?? ''),
        transloadit: form.get('transloadit') ?? '',
        signature: form.get('signature') ?? '',
        receivedAtMs: Date.now(),
      });
      const status = answers.shift() ?? 200;
      if (status === 0) return;
      res.writeHead(status, { 'Content-Type': 'text/plain' });
      res.end(status < 300 ? `thanks #${received.length}` : `nope #${received.length}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  return {
    url,
    received,
    waitFor: async (n, timeoutMs = 15_000) => {
      const until = Date.now() + timeoutMs;
      while (received.length < n) {
        if (Date.now() > until) throw new Error(`receiver got ${received.length} of ${n} notifications within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
