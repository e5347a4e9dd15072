import { z } from 'zod';

/** One robot job holding a slot (GET /queues/job_slots). */
export const queueJobSchema = z.object({
  assemblyId: z.string(),
  step: z.string(),
  jobId: z.string(),
  /** Known from the local service's details; null from a service that does not say. */
  robot: z.string().nullable(),
  /** ISO: when it got its slot (the local service says), else when core first saw it. */
  startedAt: z.string(),
});
export type QueueJob = z.infer<typeof queueJobSchema>;

/** An Assembly waiting for a slot (only the local service says which). */
export const waitingAssemblySchema = z.object({ assemblyId: z.string(), jobs: z.number().int(), since: z.string() });

export const jobSlotsSchema = z.object({
  /** Slots in use right now (`priority_job_slots.count`). */
  inUse: z.number().int().nonnegative(),
  /** The pool's size; null when the service does not say (the hosted one). */
  total: z.number().int().positive().nullable(),
  jobs: z.array(queueJobSchema),
  /** null: the service does not list waiting Assemblies. */
  waiting: z.array(waitingAssemblySchema).nullable(),
  /** ISO: when core fetched it. */
  fetchedAt: z.string(),
});
export type JobSlots = z.infer<typeof jobSlotsSchema>;

export const slotStatsRangeSchema = z.enum(['hour', 'day']);
export type SlotStatsRange = z.infer<typeof slotStatsRangeSchema>;

export const slotStatsQuerySchema = z.object({
  workspaceId: z.string().optional(),
  range: slotStatsRangeSchema,
  aggregation: z.enum(['avg', 'max']),
});
export type SlotStatsQuery = z.infer<typeof slotStatsQuerySchema>;

/** GET /priority_job_slot_stats, one point per bucket (empty buckets included). */
export const slotStatsSchema = z.object({
  granularity: z.number().int().positive(),
  aggregation: z.enum(['avg', 'max']),
  total: z.number().int().positive().nullable(),
  points: z.array(z.object({ at: z.number().int(), inUse: z.number(), queued: z.number() })),
});
export type SlotStats = z.infer<typeof slotStatsSchema>;
