import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../shared/api/codes';
import { authorizedParams } from '../auth/authorized-params';
import { apiError, sendError, sendJson } from '../http/api-error';
import type { ServiceDatabase } from '../store/database';
import { computeBill, monthEndMs, monthStartMs, parseBillMonth } from './bill';
import type { PriceList } from './price-list';

export interface BillRouteContext {
  db: ServiceDatabase;
  priceList: PriceList;
}

const BILL = /^\/bill\/([^/]*)\/?$/;
const DAY_MS = 86_400_000;

/**
 * GET /bill/{YYYY-MM} (scope `billing:read`, signature required): the month's bill from the usage rows
 * (bucketed by the Assemblies' creation time, UTC) and the price list. Returns false for other paths.
 */
export async function routeBill(ctx: BillRouteContext, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
  const match = BILL.exec(path);
  if (!match || (req.method ?? 'GET') !== 'GET') return false;
  const auth = await authorizedParams(ctx.db, req, query);
  if (!auth.ok) {
    sendError(res, auth.error);
    return true;
  }
  let text: string;
  try {
    text = decodeURIComponent(match[1]!);
  } catch {
    text = match[1]!;
  }
  const month = parseBillMonth(text);
  if (!month) {
    sendError(res, apiError(ErrorCode.billInvalidDate, `The bill date must be a month as YYYY-MM from 2000-01 on (got "${text.slice(0, 40)}").`, 400));
    return true;
  }
  const range = { fromMs: monthStartMs(month), toMs: monthEndMs(month), bucketMs: DAY_MS, region: null };
  const assemblyDays = ctx.db.usage.buckets(range).map((b) => ({ k: b.k, assemblies: b.assemblies }));
  sendJson(res, 200, computeBill(ctx.priceList, month, { robotDays: ctx.db.usage.robotBuckets(range), assemblyDays }, Date.now()));
  return true;
}
