// The fault proxy in link mode (service/testing/link-shaper.ts) in a process of its own, between the
// benchmark's clients and the service: its timers are not held up by the clients' work in this process.
import { spawn } from 'node:child_process';
import type { LinkOptions } from '../../service/testing/link-shaper';
import { ROOT } from './bench-kit';

export interface LinkProxy {
  url: string;
  /** The proxy's process (its CPU is the link's, not the clients'). */
  pid: number | undefined;
  close(): Promise<void>;
}

const SCRIPT = `
import { startFaultProxy } from './service/testing/fault-proxy.ts';
const [target, link] = [process.argv[1], JSON.parse(process.argv[2])];
// BENCH_TRACE=1: every request as it reaches the proxy (ms since the proxy started), on stderr; a rule that never fires.
const t0 = performance.now();
if (process.env.BENCH_TRACE) {
  // …and every answer as it reaches the client (a JSON answer is held until its last byte would arrive), with
  // the client's port: requests on one port share a connection (a new one pays a round trip's handshake).
  const { ServerResponse } = await import('node:http');
  const end = ServerResponse.prototype.end;
  ServerResponse.prototype.end = function (...args) {
    console.error('trace ' + (performance.now() - t0).toFixed(0) + ' ms   answer ' + this.statusCode + ' to ' + this.req.method + ' ' + this.req.url.slice(0, 60) + ' (client port ' + this.req.socket.remotePort + ')');
    return end.apply(this, args);
  };
}
const rules = process.env.BENCH_TRACE ? [{ action: { kind: 'delay', ms: 0 }, match: (r) => (console.error('trace ' + (performance.now() - t0).toFixed(0) + ' ms ' + r.method + ' ' + r.url.slice(0, 80)), false) }] : [];
const proxy = await startFaultProxy({ target, link, rules });
console.log('proxy ' + proxy.url);
`;

export async function spawnLinkProxy(target: string, link: LinkOptions): Promise<LinkProxy> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT, target, JSON.stringify(link)], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^proxy (http:\/\/\S+)$/m.exec(out);
      if (m?.[1]) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`the link proxy exited (${String(code)}): ${out}`)));
  });
  return {
    url,
    pid: child.pid,
    close: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** "100 ms, 200 Mbit/s" */
export const describeLink = (l: LinkOptions): string => `${String(l.rttMs)} ms round trips, ${String(l.uplinkBps / 1e6)} Mbit/s up`;
