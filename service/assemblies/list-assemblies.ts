import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate } from '../auth/authenticate';
import { sendError, sendJson } from '../http/api-error';
import type { ServiceDatabase } from '../store/database';
import type { ListKind } from './assembly-summary';
import { bearerOf, tokenLookup } from '../auth/bearer';

/** Ours (the real code for bad list params is not known): 400. */
export const LIST_INVALID_PARAMS = 'ASSEMBLY_LIST_INVALID_PARAMS';

export interface ListQuery {
  page: number;
  pagesize: number;
  /** `all` or one kind. */
  type: 'all' | ListKind;
  fromMs: number | null;
  toMs: number | null;
  keywords: string[];
  assemblyId: string | null;
}

export const LIST_TYPES = ['all', 'uploading', 'executing', 'canceled', 'completed', 'failed', 'request_aborted'] as const;
const MAX_KEYWORDS = 20;
const MAX_KEYWORD_CHARS = 200;
/** Past this the offset (page − 1) × pagesize no longer fits what SQLite binds; no list is that long. */
const MAX_PAGE = 1_000_000;

/** `Y-m-d H:i:s` (UTC) as the list params use it (also `Y-m-d`, and ISO); `NOW()` and '' = no bound; NaN = invalid. */
export function parseListDate(v: unknown): number | null {
  if (v === undefined || v === null || v === '' || v === 'NOW()') return null;
  if (typeof v !== 'string') return NaN;
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(v.trim());
  if (m) {
    const [, y, mo, d, h = '0', mi = '0', s = '0'] = m;
    const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
    // Date.UTC rolls 2026-02-31 over into March: refuse dates that do not exist.
    return new Date(ms).getUTCDate() === Number(d) && Number(h) < 24 && Number(mi) < 60 && Number(s) < 60 ? ms : NaN;
  }
  const iso = /^\d{4}-\d{2}-\d{2}T[\d:.]+(?:Z|[+-]\d{2}:?\d{2})$/.test(v.trim()) ? Date.parse(v) : NaN;
  return Number.isFinite(iso) ? iso : NaN;
}

/** An integer param, given as a number or a numeric string (form-encoded SDKs); undefined when absent. */
function intParam(v: unknown): number | undefined {
  if (v === undefined || v === null || v === '') return undefined;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*-?\d+\s*$/.test(v) ? Number(v) : NaN;
  return Number.isInteger(n) ? n : NaN;
}

/** The list params of GET /assemblies (service-facts.md §7), with their defaults; a string is the problem. Pure. */
export function parseListQuery(params: Record<string, unknown>): ListQuery | string {
  const page = intParam(params.page) ?? 1;
  const pagesize = intParam(params.pagesize) ?? 50;
  if (!Number.isInteger(page) || page < 1 || page > MAX_PAGE) return `page must be an integer from 1 to ${MAX_PAGE} (got ${JSON.stringify(params.page)})`;
  if (!Number.isInteger(pagesize) || pagesize < 1 || pagesize > 5000) return `pagesize must be an integer from 1 to 5000 (got ${JSON.stringify(params.pagesize)})`;
  const type = params.type === undefined || params.type === null || params.type === '' ? 'all' : params.type;
  if (typeof type !== 'string' || !(LIST_TYPES as readonly string[]).includes(type)) return `type must be one of ${LIST_TYPES.join(', ')} (got ${JSON.stringify(type)})`;
  const fromMs = parseListDate(params.fromdate);
  const toMs = parseListDate(params.todate);
  if (Number.isNaN(fromMs)) return `fromdate must be a UTC date as "YYYY-MM-DD HH:MM:SS" (got ${JSON.stringify(params.fromdate)})`;
  if (Number.isNaN(toMs)) return `todate must be a UTC date as "YYYY-MM-DD HH:MM:SS" or "NOW()" (got ${JSON.stringify(params.todate)})`;
  // GO's ListOptions sends `keyword` (singular): accepted as one keyword.
  const rawKeywords = params.keywords ?? params.keyword;
  const list = rawKeywords === undefined || rawKeywords === null || rawKeywords === '' ? [] : Array.isArray(rawKeywords) ? rawKeywords : [rawKeywords];
  if (!list.every((k) => typeof k === 'string' || typeof k === 'number')) return 'keywords must be an array of strings';
  const keywords = list.map((k) => String(k).trim().toLowerCase()).filter((k) => k !== '');
  if (keywords.length > MAX_KEYWORDS || keywords.some((k) => k.length > MAX_KEYWORD_CHARS)) return `keywords may hold at most ${MAX_KEYWORDS} words of ${MAX_KEYWORD_CHARS} characters`;
  const id = params.assembly_id;
  if (id !== undefined && id !== null && id !== '' && (typeof id !== 'string' || !/^[0-9a-f]{32}$/.test(id))) return 'assembly_id must be 32 lowercase hex characters';
  return { page, pagesize, type: type as ListQuery['type'], fromMs, toMs, keywords, assemblyId: typeof id === 'string' && id !== '' ? id : null };
}

/**
 * GET /assemblies: signature (or Bearer `assemblies:read`) required; `{items, count}` newest first with
 * count = the total across pages. `keywords` match the search text (id, redirect_url, fields, notify_url,
 * error, file names) and also `parent_id` (ours: an Assembly's id finds its replays). Served from the summary table (store/assembly-index.ts), never by
 * reading every Assembly record.
 */
export function listAssemblies(db: ServiceDatabase, req: IncomingMessage, res: ServerResponse, query: URLSearchParams, instance: string): void {
  const nowMs = Date.now();
  const auth = authenticate({
    params: query.get('params') ?? undefined,
    signature: query.get('signature') ?? undefined,
    referer: typeof req.headers.referer === 'string' ? req.headers.referer : undefined,
    nowMs,
    signatureRequired: true,
    findAccount: (k) => db.getAccount(k),
    rememberNonce: (k, n, exp) => db.rememberNonce(k, n, exp, nowMs),
    bearer: bearerOf(req),
    findToken: tokenLookup(db),
    requiredScope: 'assemblies:read',
  });
  if (!auth.ok) return sendError(res, auth.error);
  db.touchAccount(auth.value.account.authKey, nowMs);
  const q = parseListQuery(auth.value.params);
  if (typeof q === 'string') return sendError(res, { code: LIST_INVALID_PARAMS, message: q, httpCode: 400 });
  // The account's Assemblies, whichever of its keys made them: replay, notifications, bill and statistics
  // are account-wide, and Activity must not lose older Assemblies after a key rotation (issue 25).
  const page = db.assemblyIndex.query({ ...q, authKey: null, kind: q.type === 'all' ? null : q.type });
  // Items are stored without `instance`, which follows the current base URL.
  const items = page.items.map((item) => ({ instance, ...(JSON.parse(item) as Record<string, unknown>) }));
  sendJson(res, 200, { items, count: page.count });
}
