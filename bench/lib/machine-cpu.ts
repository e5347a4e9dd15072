import { readdirSync, readFileSync } from 'node:fs';

/** CPU seconds used so far, grouped: this process (core, browser host), its Chromium, its other children (the local service), and everything else on the machine. */
export interface CpuGroups {
  bench: number;
  chromium: number;
  children: number;
  /** The machine's busy time (/proc/stat) less the three above: other jobs, the kernel. */
  others: number;
}

/** CPU seconds the whole machine has been busy (all cores; not idle, not waiting for IO). */
function machineBusySeconds(): number {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').trim().split(/\s+/).slice(1).map(Number);
  const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
  return (total - (fields[3] ?? 0) - (fields[4] ?? 0)) / TICKS;
}

const TICKS = 100; // USER_HZ on Linux

/**
 * Who used the machine's CPU (from /proc; zeros elsewhere). A long task whose thread had little CPU time
 * waited for a core: this says who had the cores instead — the app's own other processes or other jobs.
 */
export function cpuGroups(): CpuGroups {
  const groups: CpuGroups = { bench: 0, chromium: 0, children: 0, others: 0 };
  const parent = new Map<number, number>();
  const comm = new Map<number, string>();
  const cpu = new Map<number, number>();
  let names: string[] = [];
  try {
    names = readdirSync('/proc');
  } catch {
    return groups;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
      const pid = Number(name);
      parent.set(pid, Number(fields[1]));
      comm.set(pid, stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')));
      cpu.set(pid, (Number(fields[11]) + Number(fields[12])) / TICKS);
    } catch {
      // gone meanwhile
    }
  }
  const descendsFromUs = (pid: number): boolean => {
    for (let p = parent.get(pid); p !== undefined && p > 1; p = parent.get(p)) if (p === process.pid) return true;
    return false;
  };
  for (const [pid, seconds] of cpu) {
    if (pid === process.pid) groups.bench += seconds;
    else if (!descendsFromUs(pid)) continue;
    else if (/chrom/i.test(comm.get(pid) ?? '')) groups.chromium += seconds;
    else groups.children += seconds;
  }
  groups.others = machineBusySeconds() - groups.bench - groups.chromium - groups.children;
  return groups;
}

/** `after - before`, per group, as CPU seconds per wall second over `seconds`. */
export const cpuShare = (before: CpuGroups, after: CpuGroups, seconds: number): CpuGroups => ({
  bench: (after.bench - before.bench) / seconds,
  chromium: (after.chromium - before.chromium) / seconds,
  children: (after.children - before.children) / seconds,
  others: Math.max(0, (after.others - before.others) / seconds),
});
