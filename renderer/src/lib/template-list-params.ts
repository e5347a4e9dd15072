// The Templates screen's list params (spec "GET /templates params": sort, order, date range, built-ins,
// keywords, page), kept in the URL's hash query (`#/templates?sort=name&order=asc`) so a reload, Back and
// a shared link show the same list. Pure.

export const TEMPLATE_SORTS = ['created', 'modified', 'name', 'last_used', 'id'] as const;
export type TemplateSort = (typeof TEMPLATE_SORTS)[number];
export const TEMPLATE_ORDERS = ['desc', 'asc'] as const;
export type TemplateOrder = (typeof TEMPLATE_ORDERS)[number];
/** `include_builtin`: none, latest versions, every version, or built-ins only (latest / every). */
export const TEMPLATE_BUILTINS = ['none', 'latest', 'all', 'exclusively-latest', 'exclusively-all'] as const;
export type TemplateBuiltins = (typeof TEMPLATE_BUILTINS)[number];

export interface TemplateListParams {
  /** The search box (a LIKE pattern: `%` and `_` are wildcards). */
  readonly q: string;
  readonly sort: TemplateSort;
  readonly order: TemplateOrder;
  /** Whole days, `YYYY-MM-DD` (inclusive); '' for open. */
  readonly from: string;
  readonly to: string;
  readonly builtins: TemplateBuiltins;
  /** From 1. */
  readonly page: number;
}

/** The service's defaults (sort created, order desc, no built-ins), first page. */
export const DEFAULT_TEMPLATE_LIST: TemplateListParams = { q: '', sort: 'created', order: 'desc', from: '', to: '', builtins: 'none', page: 1 };

const oneOf = <T extends string>(values: readonly T[], v: string | null, fallback: T): T => (v !== null && (values as readonly string[]).includes(v) ? (v as T) : fallback);
const day = (v: string | null): string => (v !== null && /^\d{4}-\d{2}-\d{2}$/.test(v) && Number.isFinite(Date.parse(`${v}T00:00:00Z`)) ? v : '');

/** The params a hash query names; anything unknown or malformed is the default. */
export function templateListFromQuery(query: URLSearchParams): TemplateListParams {
  const page = Number(query.get('page'));
  return {
    q: (query.get('q') ?? '').slice(0, 1000),
    sort: oneOf(TEMPLATE_SORTS, query.get('sort'), DEFAULT_TEMPLATE_LIST.sort),
    order: oneOf(TEMPLATE_ORDERS, query.get('order'), DEFAULT_TEMPLATE_LIST.order),
    from: day(query.get('from')),
    to: day(query.get('to')),
    builtins: oneOf(TEMPLATE_BUILTINS, query.get('builtins'), DEFAULT_TEMPLATE_LIST.builtins),
    page: Number.isSafeInteger(page) && page >= 1 ? page : 1,
  };
}

/** The hash query for params (without `?`), only what differs from the defaults, in a fixed order; '' for defaults. */
export function templateListToQuery(params: TemplateListParams): string {
  const out = new URLSearchParams();
  for (const key of ['q', 'sort', 'order', 'from', 'to', 'builtins', 'page'] as const) {
    if (params[key] !== DEFAULT_TEMPLATE_LIST[key]) out.set(key, String(params[key]));
  }
  return out.toString();
}

/** A change of any filter starts again at page 1; a change of page alone keeps the filters. */
export function changeTemplateList(current: TemplateListParams, change: Partial<TemplateListParams>): TemplateListParams {
  const filtersChanged = (Object.keys(change) as Array<keyof TemplateListParams>).some((k) => k !== 'page' && change[k] !== current[k]);
  return { ...current, ...change, page: change.page ?? (filtersChanged ? 1 : current.page) };
}

/** Whether anything narrows the list (for the empty state's words). */
export const isFiltered = (params: TemplateListParams): boolean => params.q.trim() !== '' || params.from !== '' || params.to !== '';
