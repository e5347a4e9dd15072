// Reads a service child's memory from memory-probe.mjs (preloaded with `--expose-gc --import`): after a
// full collection, so what is left is what the service holds, not garbage waiting for the collector.
import { kill } from 'node:process';
import type { ServiceProcess } from './service-process';

/** Node arguments that make a service child answer `serviceMemory` (no periodic lines: MEMORY_PROBE_MS=0 in its env). */
export const MEMORY_PROBE_ARGS = ['--expose-gc', '--import', new URL('./memory-probe.mjs', import.meta.url).pathname];

export interface ServiceMemory {
  rssMb: number;
  heapUsedMb: number;
}

/** The child's RSS and JS heap in MB right after a full collection. */
export async function serviceMemory(service: ServiceProcess, timeoutMs = 10_000): Promise<ServiceMemory> {
  const count = () => service.output().split('memory-probe gc ').length;
  const before = count();
  kill(service.child.pid!, 'SIGUSR2');
  const end = Date.now() + timeoutMs;
  while (count() === before) {
    if (Date.now() > end) throw new Error('The service did not report its memory (was it started with MEMORY_PROBE_ARGS?)');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const out = service.output();
  const line = out.slice(out.lastIndexOf('memory-probe gc '));
  const num = (key: string) => Number(new RegExp(`${key}=(\\d+)`).exec(line)?.[1] ?? Number.NaN);
  return { rssMb: num('rss'), heapUsedMb: num('heapUsed') };
}
