import { z } from 'zod';
import type { JobSlots, QueueJob, SlotStats, SlotStatsQuery } from '../../../shared/ipc/queue-models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';

/** GET /queues/job_slots as service-facts.md §7 gives it, plus the local service's `queue_details` extension. */
const jobSlotsAnswerSchema = z.object({
  priority_job_slots: z.object({
    count: z.number(),
    slots: z.record(z.string(), z.record(z.string(), z.record(z.string(), z.number()))),
  }),
  queue_details: z
    .object({
      slots_total: z.number().int().positive(),
      jobs: z.array(z.object({ assembly_id: z.string(), step: z.string(), job_id: z.string(), robot: z.string(), started_at: z.string() })),
      waiting: z.array(z.object({ assembly_id: z.string(), jobs: z.number().int(), since: z.string() })),
    })
    .optional(),
});

const slotStatsAnswerSchema = z.object({
  granularity: z.number().int().positive(),
  aggregation: z.enum(['avg', 'max']),
  slots_total: z.number().int().positive().optional(),
  stats: z.array(z.object({ data_from_ts: z.number().int(), slots_in_use: z.number(), assemblies_queued: z.number() })),
});

const invalid = (what: string, e: z.ZodError): Result<never> => err(AppErrorCode.invalidResponse, `The service sent an unexpected ${what}: ${e.issues[0]?.message ?? 'unreadable'}`);

/**
 * When core first saw each job, for services that do not say when a job started (the hosted one):
 * "for how long" is then at least that long. Jobs no longer running are forgotten.
 */
export class FirstSeen {
  private readonly seen = new Map<string, string>();
  mark(keys: readonly string[], nowIso: string): (key: string) => string {
    const live = new Set(keys);
    for (const k of this.seen.keys()) if (!live.has(k)) this.seen.delete(k);
    for (const k of keys) if (!this.seen.has(k)) this.seen.set(k, nowIso);
    return (k) => this.seen.get(k) ?? nowIso;
  }
}

/** The answer as the renderer's model: one row per job, oldest first. Pure apart from `firstSeen`. */
export function toJobSlots(body: unknown, firstSeen: FirstSeen, nowMs: number): Result<JobSlots> {
  const parsed = jobSlotsAnswerSchema.safeParse(body);
  if (!parsed.success) return invalid('job-slot answer', parsed.error);
  const { priority_job_slots: slots, queue_details: details } = parsed.data;
  const nowIso = new Date(nowMs).toISOString();
  const known = new Map((details?.jobs ?? []).map((j) => [`${j.assembly_id}/${j.step}/${j.job_id}`, j]));
  const keys: { assemblyId: string; step: string; jobId: string }[] = [];
  for (const [assemblyId, steps] of Object.entries(slots.slots)) {
    for (const [step, jobs] of Object.entries(steps)) for (const jobId of Object.keys(jobs)) keys.push({ assemblyId, step, jobId });
  }
  const seenAt = firstSeen.mark(keys.map((k) => `${k.assemblyId}/${k.step}/${k.jobId}`), nowIso);
  const jobs: QueueJob[] = keys.map((k) => {
    const key = `${k.assemblyId}/${k.step}/${k.jobId}`;
    const d = known.get(key);
    return { ...k, robot: d?.robot ?? null, startedAt: d?.started_at ?? seenAt(key) };
  });
  jobs.sort((a, b) => a.startedAt.localeCompare(b.startedAt) || a.assemblyId.localeCompare(b.assemblyId));
  return ok({
    inUse: slots.count,
    total: details?.slots_total ?? null,
    jobs,
    waiting: details ? details.waiting.map((w) => ({ assemblyId: w.assembly_id, jobs: w.jobs, since: w.since })) : null,
    fetchedAt: nowIso,
  });
}

export async function getJobSlots(api: ApiClient, firstSeen: FirstSeen, now: () => number = Date.now): Promise<Result<JobSlots>> {
  const res = await api.request('GET', '/queues/job_slots');
  return res.ok ? toJobSlots(res.value, firstSeen, now()) : res;
}

/** The window of a range: the last hour in minutes, the last day in quarter hours (aligned, so buckets do not shift as it polls). Pure. */
export function statsWindow(range: SlotStatsQuery['range'], nowMs: number): { since: number; until: number; granularity: number } {
  const granularity = range === 'hour' ? 60 : 900;
  const span = range === 'hour' ? 3600 : 86_400;
  const until = (Math.floor(nowMs / 1000 / granularity) + 1) * granularity;
  return { since: until - span, until, granularity };
}

export async function getSlotStats(api: ApiClient, q: Omit<SlotStatsQuery, 'workspaceId'>, now: () => number = Date.now): Promise<Result<SlotStats>> {
  const res = await api.request('GET', '/priority_job_slot_stats', { ...statsWindow(q.range, now()), region: 'all', aggregation: q.aggregation });
  if (!res.ok) return res;
  const parsed = slotStatsAnswerSchema.safeParse(res.value);
  if (!parsed.success) return invalid('job-slot statistics answer', parsed.error);
  const a = parsed.data;
  return ok({
    granularity: a.granularity,
    aggregation: a.aggregation,
    total: a.slots_total ?? null,
    points: a.stats.map((s) => ({ at: s.data_from_ts, inUse: s.slots_in_use, queued: s.assemblies_queued })),
  });
}
