// A bounded pool of job slots: every robot job (one robot run on one file, or on one bundle) holds one
// slot while it runs. Jobs wait in line when every slot is taken; the line is FIFO across Assemblies in
// the order they became ready (`enter`), then in the order their jobs asked. No I/O and no timers: the
// clock is injected, so the unit tests drive it.
//
// A job holds exactly one slot and never asks for another while holding it, so the pool cannot deadlock.

export interface SlotJob {
  assemblyId: string;
  step: string;
  /** Unique within its Assembly and step (the lead input file's id). */
  jobId: string;
  robot: string;
}

export interface RunningJob extends SlotJob {
  startedAtMs: number;
}

/** An Assembly with jobs in line and none running: it waits for a slot. */
export interface WaitingAssembly {
  assemblyId: string;
  /** When its first job still waiting asked. */
  sinceMs: number;
  jobs: number;
}

export interface SlotSnapshot {
  size: number;
  inUse: number;
  running: RunningJob[];
  waiting: WaitingAssembly[];
}

export interface Grant {
  /** Gives the slot back; a second call does nothing. */
  release(): void;
  /** How long the job waited in line. */
  waitedMs: number;
}

interface Waiter {
  job: SlotJob;
  seq: number;
  askedAtMs: number;
  grant(g: Grant): void;
  unlisten(): void;
}

export class SlotAbortError extends Error {
  constructor() {
    super('The job stopped waiting for a slot (its Assembly ended).');
    this.name = 'AbortError';
  }
}

/** The default size: one slot per core, at least 2 (so a running Assembly never blocks all others on a small machine). */
export const defaultSlotCount = (cores: number): number => Math.max(2, Math.floor(cores));

/** `--job-slots` / ASSEMBLYLINE_JOB_SLOTS: a whole number 1..256; throws naming `what`. Pure. */
export function parseSlotCount(text: string, what: string): number {
  const n = Number(text.trim());
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new Error(`${what} must be a whole number from 1 to 256, got "${text}"`);
  return n;
}

/** The flag wins over the environment variable; neither: undefined (the default size). */
export function jobSlotsFrom(flag: string | undefined, env: string | undefined): number | undefined {
  if (flag !== undefined) return parseSlotCount(flag, '--job-slots');
  if (env !== undefined && env.trim() !== '') return parseSlotCount(env, 'ASSEMBLYLINE_JOB_SLOTS');
  return undefined;
}

export class JobSlots {
  private readonly running = new Map<string, RunningJob & { key: string }>();
  private readonly waiters: Waiter[] = [];
  /** Place in line of each Assembly that became ready and has not left. */
  private readonly order = new Map<string, number>();
  private nextOrder = 0;
  private nextSeq = 0;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly size: number,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`job slots: size must be a whole number ≥ 1, got ${size}`);
  }

  /** The Assembly is ready to execute: its place in line is taken now. */
  enter(assemblyId: string): void {
    if (!this.order.has(assemblyId)) this.order.set(assemblyId, this.nextOrder++);
  }

  /** The Assembly ended: it leaves the line (its jobs stopped waiting through their signals). */
  leave(assemblyId: string): void {
    this.order.delete(assemblyId);
  }

  /** Resolves when the job holds a slot; rejects with SlotAbortError when `signal` aborts first. */
  acquire(job: SlotJob, signal?: AbortSignal): Promise<Grant> {
    if (signal?.aborted) return Promise.reject(new SlotAbortError());
    this.enter(job.assemblyId);
    return new Promise<Grant>((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.waiters.indexOf(waiter);
        if (at < 0) return;
        this.waiters.splice(at, 1);
        reject(new SlotAbortError());
        this.changed();
      };
      const waiter: Waiter = {
        job,
        seq: this.nextSeq++,
        askedAtMs: this.now(),
        grant: resolve,
        unlisten: () => signal?.removeEventListener('abort', onAbort),
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
      this.dispatch();
      this.changed();
    });
  }

  /** Listeners hear every change (a grant, a release, a job joining or leaving the line). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get inUse(): number {
    return this.running.size;
  }

  /** Assemblies with jobs in line and none running. */
  queuedAssemblies(): number {
    const busy = new Set([...this.running.values()].map((r) => r.assemblyId));
    return new Set(this.waiters.map((w) => w.job.assemblyId).filter((id) => !busy.has(id))).size;
  }

  snapshot(): SlotSnapshot {
    const busy = new Set([...this.running.values()].map((r) => r.assemblyId));
    const waiting = new Map<string, WaitingAssembly>();
    for (const w of this.inLine()) {
      if (busy.has(w.job.assemblyId)) continue;
      const entry = waiting.get(w.job.assemblyId);
      if (entry) {
        entry.jobs += 1;
        entry.sinceMs = Math.min(entry.sinceMs, w.askedAtMs);
      } else waiting.set(w.job.assemblyId, { assemblyId: w.job.assemblyId, sinceMs: w.askedAtMs, jobs: 1 });
    }
    return {
      size: this.size,
      inUse: this.running.size,
      running: [...this.running.values()].map(({ key: _key, ...r }) => r),
      waiting: [...waiting.values()],
    };
  }

  /** Waiters in grant order: by their Assembly's place in line, then by when they asked. */
  private inLine(): Waiter[] {
    const place = (w: Waiter): number => this.order.get(w.job.assemblyId) ?? Number.MAX_SAFE_INTEGER;
    return [...this.waiters].sort((a, b) => place(a) - place(b) || a.seq - b.seq);
  }

  private dispatch(): void {
    while (this.running.size < this.size && this.waiters.length > 0) {
      const next = this.inLine()[0]!;
      this.waiters.splice(this.waiters.indexOf(next), 1);
      next.unlisten();
      const now = this.now();
      const key = `${next.job.assemblyId}\u0000${next.job.step}\u0000${next.job.jobId}\u0000${next.seq}`;
      this.running.set(key, { ...next.job, startedAtMs: now, key });
      let released = false;
      next.grant({
        waitedMs: now - next.askedAtMs,
        release: () => {
          if (released) return;
          released = true;
          this.running.delete(key);
          this.dispatch();
          this.changed();
        },
      });
    }
  }

  private changed(): void {
    for (const l of this.listeners) l();
  }
}

/**
 * The `priority_job_slots` object of GET /queues/job_slots (service-facts.md §7):
 * `{count, slots: {<assembly_id>: {<step>: {<job_id>: 1}}}}`; one slot per job. Pure.
 */
export function jobSlotsAnswer(snapshot: SlotSnapshot): { count: number; slots: Record<string, Record<string, Record<string, number>>> } {
  const slots: Record<string, Record<string, Record<string, number>>> = {};
  for (const r of snapshot.running) {
    const steps = (slots[r.assemblyId] ??= {});
    const jobs = (steps[r.step] ??= {});
    jobs[r.jobId] = (jobs[r.jobId] ?? 0) + 1;
  }
  return { count: snapshot.inUse, slots };
}
