import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate } from '../auth/authenticate';
import { sendError, sendJson } from '../http/api-error';
import type { ServiceDatabase } from '../store/database';
import type { AssemblyState } from './assembly-state';
import { bearerOf, tokenLookup } from '../auth/bearer';

export interface ListQuery {
  page: number;
  pagesize: number;
  type: string;
  fromMs: number | null;
  toMs: number | null;
  keywords: string[];
  assemblyId: string | null;
}

const TYPE_STATES: Record<string, (s: Pick<AssemblyState, 'ok' | 'error'>) => boolean> = {
  all: () => true,
  uploading: (s) => !s.error && s.ok === 'ASSEMBLY_UPLOADING',
  executing: (s) => !s.error && s.ok === 'ASSEMBLY_EXECUTING',
  canceled: (s) => !s.error && s.ok === 'ASSEMBLY_CANCELED',
  completed: (s) => !s.error && s.ok === 'ASSEMBLY_COMPLETED',
  request_aborted: (s) => !s.error && s.ok === 'REQUEST_ABORTED',
  failed: (s) => Boolean(s.error),
};

/** `Y-m-d H:i:s` (UTC) as the list params use it; ISO also accepted. */
function parseListDate(v: unknown): number | null {
  if (typeof v !== 'string' || v === '' || v === 'NOW()') return null;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2} \d/.test(v) ? `${v.replace(' ', 'T')}Z` : v);
  return Number.isFinite(ms) ? ms : null;
}

/** The list params of GET /assemblies (service-facts.md §7), with their defaults; a string is an error message. */
export function parseListQuery(params: Record<string, unknown>): ListQuery | string {
  const page = params.page === undefined ? 1 : Number(params.page);
  const pagesize = params.pagesize === undefined ? 50 : Number(params.pagesize);
  if (!Number.isInteger(page) || page < 1) return 'page must be an integer >= 1';
  if (!Number.isInteger(pagesize) || pagesize < 1 || pagesize > 5000) return 'pagesize must be an integer from 1 to 5000';
  const type = typeof params.type === 'string' ? params.type : 'all';
  if (!(type in TYPE_STATES)) return `type must be one of ${Object.keys(TYPE_STATES).join(', ')}`;
  const keywords = Array.isArray(params.keywords) ? params.keywords.map(String) : typeof params.keyword === 'string' ? [params.keyword] : [];
  return {
    page,
    pagesize,
    type,
    fromMs: parseListDate(params.fromdate),
    toMs: parseListDate(params.todate),
    keywords,
    assemblyId: typeof params.assembly_id === 'string' ? params.assembly_id : null,
  };
}

/** One list item (NS `assemblyIndexItemSchema`) from the stored state. */
export function listItem(s: AssemblyState, instance: string): Record<string, unknown> {
  const created = new Date(s.createdAtMs).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '');
  return {
    id: s.id,
    parent_id: null,
    account_id: s.authKey,
    template_id: s.templateId ?? null,
    instance,
    notify_url: null,
    redirect_url: null,
    files: JSON.stringify(s.uploads.map((u) => u.file.name)),
    warning_count: s.warnings.length,
    execution_duration: s.executionDurationS ?? 0,
    execution_start: s.executionStart,
    region: 'local',
    num_input_files: s.uploads.length,
    bytes_usage: s.bytesReceived,
    bytes_expected: s.bytesExpected,
    bytes_received: s.bytesReceived,
    upload_duration: s.uploadFinishedAtMs ? (s.uploadFinishedAtMs - s.createdAtMs) / 1000 : 0,
    ok: s.ok,
    error: s.error,
    created,
    created_ts: Math.floor(s.createdAtMs / 1000),
  };
}

export function filterAssemblies(states: AssemblyState[], q: ListQuery): AssemblyState[] {
  const matchesType = TYPE_STATES[q.type] ?? TYPE_STATES.all!;
  return states.filter((s) => {
    if (!matchesType(s)) return false;
    if (q.assemblyId && s.id !== q.assemblyId) return false;
    if (q.fromMs !== null && s.createdAtMs < q.fromMs) return false;
    if (q.toMs !== null && s.createdAtMs > q.toMs) return false;
    if (q.keywords.length === 0) return true;
    const haystack = [s.id, JSON.stringify(s.fields), s.message, ...s.uploads.map((u) => u.file.name)].join('\n').toLowerCase();
    return q.keywords.every((k) => haystack.includes(k.toLowerCase()));
  });
}

/** GET /assemblies: signature required; `{items, count}` with count = the total across pages. */
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
  if (typeof q === 'string') return sendError(res, { code: 'ASSEMBLY_LIST_INVALID_PARAMS', message: q, httpCode: 400 });
  const all = db.assembliesOf(auth.value.account.authKey).map((row) => JSON.parse(row.data) as AssemblyState);
  const matching = filterAssemblies(all, q);
  const page = matching.slice((q.page - 1) * q.pagesize, q.page * q.pagesize);
  sendJson(res, 200, { items: page.map((s) => listItem(s, instance)), count: matching.length });
}
