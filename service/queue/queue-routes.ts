import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, QueueCode } from '../../shared/api/codes';
import { authorizedParams } from '../auth/authorized-params';
import { apiError, sendError, sendJson } from '../http/api-error';
import type { ServiceDatabase } from '../store/database';
import { jobSlotsAnswer, type JobSlots, type SlotSnapshot } from './job-slots';
import { bucketStarts, parseStatsWindow } from './stats-window';

export interface QueueRouteContext {
  db: ServiceDatabase;
  runtime: { slots: JobSlots };
}

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * Our extension beside `priority_job_slots` (docs/local-service.md "Job slots and the queue"): the pool's
 * size, each running job with its robot and start, and the Assemblies waiting. Clients of the hosted
 * service never see it and must not need it.
 */
function queueDetails(s: SlotSnapshot): Record<string, unknown> {
  return {
    slots_total: s.size,
    jobs: s.running.map((r) => ({ assembly_id: r.assemblyId, step: r.step, job_id: r.jobId, robot: r.robot, started_at: iso(r.startedAtMs) })),
    waiting: s.waiting.map((w) => ({ assembly_id: w.assemblyId, jobs: w.jobs, since: iso(w.sinceMs) })),
  };
}

/** GET /queues/job_slots and GET /priority_job_slot_stats (scope queues:read). False for other paths. */
export async function routeQueue(ctx: QueueRouteContext, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
  const slotsPath = path === '/queues/job_slots' || path === '/queues/job_slots/';
  const statsPath = path === '/priority_job_slot_stats' || path === '/priority_job_slot_stats/';
  if (!slotsPath && !statsPath) return false;
  if (req.method !== 'GET') {
    sendError(res, apiError(ErrorCode.server404, 'unknown method / url', 404));
    return true;
  }
  const auth = await authorizedParams(ctx.db, req, query);
  if (!auth.ok) {
    sendError(res, auth.error);
    return true;
  }
  if (slotsPath) {
    const snapshot = ctx.runtime.slots.snapshot();
    sendJson(res, 200, { ok: QueueCode.jobSlotsFound, priority_job_slots: jobSlotsAnswer(snapshot), queue_details: queueDetails(snapshot) });
    return true;
  }
  const params = auth.params;
  const window = parseStatsWindow(params, Math.floor(Date.now() / 1000));
  if ('kind' in window) {
    const code = window.kind === 'time' ? QueueCode.slotStatsInvalidTime : window.kind === 'region' ? QueueCode.slotStatsMissingRegion : QueueCode.slotStatsError;
    sendError(res, apiError(code, window.message, 400));
    return true;
  }
  const aggregation = params.aggregation ?? 'avg';
  if (aggregation !== 'avg' && aggregation !== 'max') {
    sendError(res, apiError(QueueCode.slotStatsInvalidAggregation, `\`aggregation\` must be "avg" or "max"; got ${JSON.stringify(aggregation)}.`, 400));
    return true;
  }
  const found = window.ourRegion ? ctx.db.jobSlotSamples.buckets({ ...window, aggregation }) : [];
  const byStart = new Map(found.map((b) => [b.fromS, b]));
  // Averages to two decimals (a slot busy 1 s of an hour is 0.0003: 0 reads truer than noise); maxima are whole.
  const round = (v: number): number => Math.round(v * 100) / 100;
  sendJson(res, 200, {
    ok: QueueCode.slotStatsFound,
    granularity: window.granularityS,
    aggregation,
    slots_total: ctx.runtime.slots.size,
    stats: bucketStarts(window).map((t) => {
      const b = byStart.get(t);
      return { data_from_ts: t, slots_in_use: b ? round(b.inUse) : 0, assemblies_queued: b ? round(b.queued) : 0 };
    }),
  });
  return true;
}
