// The hosted-like deployment (service/testing/hosted-deployment.ts: the local service behind TLS, the API,
// regional, tus and results roles each on its own loopback address through the fault proxy's link mode)
// in a process of its own: its proxies' timers and TLS work are not held up by the clients' work here.
import { spawn } from 'node:child_process';
import type { LinkOptions } from '../../service/testing/link-shaper';
import { ROOT } from './bench-kit';

export interface HostedProcess {
  /** The API's base URL (https://127.0.0.2:<port>). */
  endpoint: string;
  /** PEM of the CA made for this run: the workspace's CA file, the SDK's NODE_EXTRA_CA_CERTS. */
  caPem: string;
  authKey: string;
  authSecret: string;
  /** CPU seconds the deployment's process (service and fronts) has used so far. */
  cpuSeconds(): Promise<number>;
  close(): Promise<void>;
}

const SCRIPT = `
import { startHostedDeployment } from './service/testing/hosted-deployment.ts';
const [dataDir, link] = [process.argv[1], JSON.parse(process.argv[2])];
const d = await startHostedDeployment({ dataDir, link });
process.stdout.write('deployment ' + JSON.stringify({ endpoint: d.endpoint, caPem: d.caPem, authKey: d.service.authKey, authSecret: d.service.authSecret }) + '\\n');
process.stdin.on('data', () => {
  const u = process.cpuUsage();
  process.stdout.write('cpu ' + String((u.user + u.system) / 1e6) + '\\n');
});
process.stdin.on('end', () => void d.close().then(() => process.exit(0)));
`;

export async function spawnHostedDeployment(dataDir: string, link: LinkOptions): Promise<HostedProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT, dataDir, JSON.stringify(link)], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  const waiters: ((line: string) => void)[] = [];
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    let nl: number;
    while ((nl = out.indexOf('\n')) >= 0) {
      const line = out.slice(0, nl);
      out = out.slice(nl + 1);
      waiters.shift()?.(line);
    }
  });
  const nextLine = () => new Promise<string>((resolve) => waiters.push(resolve));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const first = await Promise.race([nextLine(), exited.then((code) => Promise.reject(new Error(`the hosted deployment exited (${String(code)})`)))]);
  if (!first.startsWith('deployment ')) throw new Error(`the hosted deployment said: ${first}`);
  const info = JSON.parse(first.slice('deployment '.length)) as Omit<HostedProcess, 'cpuSeconds' | 'close'>;
  return {
    ...info,
    cpuSeconds: async () => {
      const line = nextLine();
      child.stdin.write('\n');
      return Number((await line).slice('cpu '.length));
    },
    close: async () => {
      child.stdin.end();
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
