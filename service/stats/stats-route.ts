import type { IncomingMessage, ServerResponse } from 'node:http';
import { authorizedParams } from '../auth/authorized-params';
import { sendError, sendJson } from '../http/api-error';
import type { ServiceDatabase } from '../store/database';
import { assemblyStats } from './assembly-stats';
import { parseStatsParams } from './stats-params';

/**
 * GET /assembly_stats (our path and scope `assemblies:read`, docs/local-service.md "Statistics"): signed
 * `params` in the query (or a Bearer token). Buckets are summed in SQL (usage/usage-store.ts).
 */
export async function assemblyStatsRoute(db: ServiceDatabase, req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
  const auth = await authorizedParams(db, req, query);
  if (!auth.ok) return sendError(res, auth.error);
  const p = parseStatsParams(auth.params, Date.now());
  if ('code' in p) return sendError(res, p);
  const range = { fromMs: p.sinceS * 1000, toMs: p.untilS * 1000, bucketMs: p.granularity * 1000, region: p.region };
  sendJson(res, 200, assemblyStats(p, db.usage.buckets(range), db.usage.errorBuckets(range)));
}
