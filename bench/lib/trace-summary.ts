import { fmt } from './bench-kit';

export interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  /** Thread (CPU) time: less than `dur` when the thread waited for a core. */
  tdur?: number;
  tid: number;
  pid: number;
  args?: { name?: string; data?: { message?: string; type?: string } };
}

/** What `traced` stamps in the measured page (console.timeStamp) so its main thread is found among the others. */
export const PAGE_MARK = 'bench:measured-page';

const threadOf = (e: TraceEvent) => `${String(e.pid)}:${String(e.tid)}`;

/** The main thread of the page that stamped PAGE_MARK; else the busiest renderer main thread. */
export function measuredThread(events: readonly TraceEvent[]): string | null {
  const marked = events.find((e) => e.name === 'TimeStamp' && e.args?.data?.message === PAGE_MARK);
  if (marked) return threadOf(marked);
  const mains = new Set(events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map(threadOf));
  const busy = new Map<string, number>();
  for (const e of events) if (e.name === 'RunTask' && mains.has(threadOf(e))) busy.set(threadOf(e), (busy.get(threadOf(e)) ?? 0) + (e.dur ?? 0));
  return [...busy.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/**
 * Where one thread spent the traced time, by event (wall / CPU ms; nested events count in their parents
 * too), then every task over `limitMs` with its CPU time and what ran inside it: a long task with little
 * CPU time waited for a core (the machine), one with much CPU time is the page's own work.
 */
export function summarizeTrace(events: readonly TraceEvent[], limitMs: number, thread = measuredThread(events), kinds = 14): string[] {
  if (!thread) return ['trace: no renderer main thread found'];
  const mine = events.filter((e) => e.ph === 'X' && e.dur !== undefined && threadOf(e) === thread);
  const byName = new Map<string, { wall: number; cpu: number }>();
  for (const e of mine) {
    const sum = byName.get(e.name) ?? { wall: 0, cpu: 0 };
    sum.wall += (e.dur ?? 0) / 1000;
    sum.cpu += (e.tdur ?? 0) / 1000;
    byName.set(e.name, sum);
  }
  const runTasks = mine.filter((e) => e.name === 'RunTask');
  const wall = runTasks.reduce((a, e) => a + (e.dur ?? 0), 0) / 1000;
  const cpu = runTasks.reduce((a, e) => a + (e.tdur ?? 0), 0) / 1000;
  const long = runTasks.filter((e) => (e.dur ?? 0) > limitMs * 1000).sort((a, b) => (b.dur ?? 0) - (a.dur ?? 0));
  const longCpu = long.filter((e) => (e.tdur ?? 0) > limitMs * 1000).length;
  const cpuSorted = runTasks.map((e) => (e.tdur ?? 0) / 1000).sort((a, b) => a - b);
  // Animation frames: the bench's scroller asks one per frame in either page.
  const frames = mine.filter((e) => e.name === 'FireAnimationFrame').length;
  const over = (ms: number) => cpuSorted.filter((c) => c > ms).length;
  const lines = [
    "trace, the measured page's main thread (wall / CPU ms; nested events also count in their parents):",
    ...[...byName.entries()]
      .sort((a, b) => b[1].cpu - a[1].cpu)
      .slice(0, kinds)
      .map(([k, t]) => `  ${fmt(t.wall, 0).padStart(6)} / ${fmt(t.cpu, 0).padStart(6)} ms  ${k}`),
    `  tasks: ${String(runTasks.length)}, ${fmt(wall, 0)} ms of wall time, ${fmt(cpu, 0)} ms on a core${frames > 0 ? ` (${fmt(cpu / frames, 2)} ms per animation frame, ${String(frames)} frames)` : ''}`,
    `  CPU per task: max ${fmt(cpuSorted.at(-1) ?? 0, 1)} ms, p99 ${fmt(cpuSorted[Math.floor(cpuSorted.length * 0.99)] ?? 0, 1)} ms; tasks over 2 / 4 / 8 ms of CPU: ${String(over(2))} / ${String(over(4))} / ${String(over(8))}`,
    `  tasks over ${String(limitMs)} ms: ${String(long.length)} (${String(longCpu)} with > ${String(limitMs)} ms on a core); wall / CPU ms, what ran inside (wall ms):`,
  ];
  for (const task of long.slice(0, 8)) {
    const end = task.ts + (task.dur ?? 0);
    const inside = new Map<string, number>();
    for (const e of mine) {
      if (e === task || e.ts < task.ts || e.ts >= end || e.name === 'RunTask') continue;
      inside.set(e.name, (inside.get(e.name) ?? 0) + (e.dur ?? 0) / 1000);
    }
    const parts = [...inside.entries()].sort((a, b) => b[1] - a[1]).slice(0, 7);
    lines.push(`  ${fmt((task.dur ?? 0) / 1000, 0).padStart(6)} / ${fmt((task.tdur ?? 0) / 1000, 0).padStart(3)} ms: ${parts.map(([k, ms]) => `${k} ${fmt(ms, 0)}`).join(', ')}`);
  }
  return lines;
}
