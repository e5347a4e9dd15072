import { builtinTemplates } from './builtin-templates';
import { likeMatcher } from './like-pattern';
import type { TemplateRow } from './template-record';

/** GET /templates params (spec "GET /templates params"), parsed with their defaults. */
export interface TemplateListQuery {
  page: number;
  pagesize: number;
  sort: 'created' | 'id' | 'last_used' | 'modified' | 'name';
  order: 'asc' | 'desc';
  fromMs: number | null;
  toMs: number | null;
  /** The keywords joined with commas: one LIKE pattern (`%` and `_` are wildcards), '' for none. */
  keywords: string;
  includeBuiltin: 'all' | 'exclusively-all' | 'exclusively-latest' | 'latest' | 'none';
}

const SORTS = ['created', 'id', 'last_used', 'modified', 'name'] as const;
const ORDERS = ['asc', 'desc'] as const;
const INCLUDE = ['all', 'exclusively-all', 'exclusively-latest', 'latest', 'none'] as const;
const MAX_KEYWORDS = 1000;
const DATE = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

const oneOf = <T extends string>(values: readonly T[], v: unknown): v is T => typeof v === 'string' && (values as readonly string[]).includes(v);

function intParam(v: unknown, name: string, min: number, max: number, fallback: number): number | string {
  if (v === undefined || v === null || v === '') return fallback;
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min || n > max) return `${name} must be an integer from ${min} to ${max}.`;
  return n;
}

/** `YYYY-MM-DD HH:mm:ss` in UTC, strictly (a date the calendar does not have is an error too). */
function dateParam(v: unknown, name: string): number | null | string {
  if (v === undefined || v === null || v === '') return null;
  const m = typeof v === 'string' ? DATE.exec(v) : null;
  if (!m) return `${name} must be a date like 2026-01-31 23:59:59 (UTC).`;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  if (new Date(ms).toISOString().slice(0, 19).replace('T', ' ') !== v) return `${name} is not a valid date: ${v}.`;
  return ms;
}

/** The list params with their defaults; a string is the message of a TEMPLATE_LIST_ERROR. */
export function parseTemplateListQuery(params: Record<string, unknown>): TemplateListQuery | string {
  const page = intParam(params.page, 'page', 1, Number.MAX_SAFE_INTEGER, 1);
  if (typeof page === 'string') return page;
  const pagesize = intParam(params.pagesize, 'pagesize', 1, 850, 850);
  if (typeof pagesize === 'string') return pagesize;
  const sort = params.sort ?? 'created';
  if (!oneOf(SORTS, sort)) return `sort must be one of ${SORTS.join(', ')}.`;
  const order = params.order ?? 'desc';
  if (!oneOf(ORDERS, order)) return `order must be asc or desc.`;
  const fromMs = dateParam(params.fromdate, 'fromdate');
  if (typeof fromMs === 'string') return fromMs;
  const toMs = dateParam(params.todate, 'todate');
  if (typeof toMs === 'string') return toMs;
  let keywords = '';
  if (Array.isArray(params.keywords)) {
    if (!params.keywords.every((k) => typeof k === 'string')) return 'keywords must be a string or an array of strings.';
    keywords = params.keywords.join(',');
  } else if (typeof params.keywords === 'string') keywords = params.keywords;
  else if (params.keywords !== undefined && params.keywords !== null) return 'keywords must be a string or an array of strings.';
  // Matching costs name length × pattern length per Template: keep the pattern to what a search box holds.
  if (keywords.length > MAX_KEYWORDS) return `keywords may hold at most ${MAX_KEYWORDS} characters (got ${keywords.length}).`;
  const includeBuiltin = params.include_builtin ?? 'none';
  if (!oneOf(INCLUDE, includeBuiltin)) return `include_builtin must be one of ${INCLUDE.join(', ')}.`;
  return { page, pagesize, sort, order, fromMs, toMs, keywords, includeBuiltin };
}

const sortValue = (t: TemplateRow, sort: TemplateListQuery['sort']): string | number =>
  sort === 'created' ? t.createdMs : sort === 'modified' ? t.modifiedMs : sort === 'last_used' ? (t.lastUsedMs ?? -1) : sort === 'id' ? t.id : t.name.toLowerCase();

/**
 * Built-in Templates first (filtered by slug substring only), then the account's (filtered by name and
 * creation date, sorted), one pagination over both. `count` is the total across pages.
 */
export function listTemplates(own: readonly TemplateRow[], q: TemplateListQuery): { items: TemplateRow[]; count: number } {
  const builtins =
    q.includeBuiltin === 'none' ? [] : builtinTemplates(q.includeBuiltin.endsWith('latest') ? 'latest' : 'all');
  const needle = q.keywords.toLowerCase();
  const matchingBuiltins = builtins.filter((t) => needle === '' || t.name.slice('builtin/'.length).toLowerCase().includes(needle));
  let workspace: TemplateRow[] = [];
  if (!q.includeBuiltin.startsWith('exclusively-')) {
    const like = q.keywords === '' ? () => true : likeMatcher(`%${q.keywords}%`);
    const sign = q.order === 'asc' ? 1 : -1;
    workspace = own
      .filter((t) => {
        // Records carry whole seconds (`YYYY-MM-DD HH:mm:ss`), so dates compare at that precision.
        const created = Math.floor(t.createdMs / 1000) * 1000;
        return like(t.name) && (q.fromMs === null || created >= q.fromMs) && (q.toMs === null || created <= q.toMs);
      })
      .sort((a, b) => {
        const [x, y] = [sortValue(a, q.sort), sortValue(b, q.sort)];
        return (x < y ? -1 : x > y ? 1 : a.id < b.id ? -1 : 1) * sign;
      });
  }
  const all = [...matchingBuiltins, ...workspace];
  const start = (q.page - 1) * q.pagesize;
  return { items: all.slice(start, start + q.pagesize), count: all.length };
}
