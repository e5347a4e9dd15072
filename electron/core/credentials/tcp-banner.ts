import { connect } from 'node:net';

/**
 * Opens a TCP connection and reads the server's first line (SSH and FTP servers greet first), then
 * closes. Resolves with the line ('' if the server said nothing within the time); rejects on a network error.
 */
export function readBanner(host: string, port: number, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    let connected = false;
    const socket = connect({ host, port });
    const done = (fn: () => void) => {
      clearTimeout(timer);
      socket.destroy();
      fn();
    };
    const timer = setTimeout(() => done(() => (connected ? resolve(text.trim()) : reject(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })))), timeoutMs);
    socket.setEncoding('latin1');
    socket.once('connect', () => (connected = true));
    socket.on('data', (chunk: string) => {
      text += chunk;
      const end = text.indexOf('\n');
      if (end >= 0 || text.length > 512) done(() => resolve(text.slice(0, end >= 0 ? end : 512).trim()));
    });
    socket.once('end', () => done(() => resolve(text.trim())));
    socket.once('error', (e) => done(() => reject(e)));
  });
}
