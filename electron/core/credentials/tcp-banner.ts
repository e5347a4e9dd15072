import { connect } from 'node:net';

/**
 * Opens a TCP connection and reads the server's first line (SSH and FTP servers greet first), then
 * closes. Resolves with the line ('' if the server said nothing within `greetingMs` of connecting);
 * rejects on a network error or when the connection is not made within `timeoutMs`.
 */
export function readBanner(host: string, port: number, timeoutMs: number, greetingMs = 3_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    let connected = false;
    const socket = connect({ host, port });
    let greeting: NodeJS.Timeout | undefined;
    const done = (fn: () => void) => {
      clearTimeout(timer);
      clearTimeout(greeting);
      socket.destroy();
      fn();
    };
    const timer = setTimeout(() => done(() => (connected ? resolve(text.trim()) : reject(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })))), timeoutMs);
    socket.setEncoding('latin1');
    // Connected: a server that greets does so at once; one that waits for us (HTTP) is not what we want.
    socket.once('connect', () => {
      connected = true;
      greeting = setTimeout(() => done(() => resolve(text.trim())), Math.min(greetingMs, timeoutMs));
    });
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0 || text.length > 512) done(() => resolve(text.slice(0, end >= 0 ? end : 512).trim()));
    });
    socket.once('end', () => done(() => resolve(text.trim())));
    socket.once('error', (e) => done(() => reject(e)));
  });
}
