// A TCP listener on loopback that records every byte it receives, for tests that prove a secret did
// (or did not) arrive somewhere. It answers an HTTP request with a fixed 200 (or the `answer` given),
// sends `greeting` first when given (an SSH or FTP server greets, then hangs up when the client speaks),
// and answers a TLS handshake as a plain HTTP server would (400).
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface RecordingListener {
  readonly host: string;
  readonly port: number;
  /** How many connections were made since the last `reset`. */
  connections(): number;
  /** Everything received since the last `reset`, as latin1 text. */
  received(): string;
  reset(): void;
  close(): Promise<void>;
}

export interface RecordingListenerOptions {
  host?: string;
  port?: number;
  greeting?: string;
  /** The raw HTTP answer; a 200 with a short body by default. */
  answer?: string;
}

const OK = 'HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}';

export async function startRecordingListener(options: RecordingListenerOptions = {}): Promise<RecordingListener> {
  let count = 0;
  let bytes = '';
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    count += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    if (options.greeting) socket.write(options.greeting);
    let head = '';
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.toString('latin1');
      // A TLS ClientHello gets what a plain HTTP server answers it.
      if (head === '' && chunk[0] === 0x16) return void socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      head += chunk.toString('latin1');
      // A greeting server hangs up once the client speaks: a test never waits for a handshake that cannot come.
      if (options.greeting) socket.destroy();
      else if (head.includes('\r\n\r\n')) socket.end(options.answer ?? OK);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve);
  });
  const address = server.address() as AddressInfo;
  return {
    host: address.address,
    port: address.port,
    connections: () => count,
    received: () => bytes,
    reset: () => {
      count = 0;
      bytes = '';
    },
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
