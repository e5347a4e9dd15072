import { BUSY_OK_CODES } from '../../../../shared/api/codes';
import type { AssemblyListItem, AssemblyListQuery, AssemblyStateFilter } from '../../../../shared/ipc/assembly-models';

/** What Activity's filter bar holds (dates as the date inputs give them: `YYYY-MM-DD` or ''). */
export interface ActivityFilters {
  readonly state: AssemblyStateFilter;
  readonly fromDate: string;
  readonly toDate: string;
  readonly search: string;
}

export const NO_FILTERS: ActivityFilters = { state: 'all', fromDate: '', toDate: '', search: '' };

/** Rows read per `assemblies:list` call: one call fills a screen several times over. */
export const PAGE_SIZE = 100;

/** The state chips, in the order shown. */
export const STATE_CHIPS: ReadonlyArray<{ readonly value: AssemblyStateFilter; readonly label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'executing', label: 'Running' },
  { value: 'uploading', label: 'Uploading' },
  { value: 'completed', label: 'Completed' },
  { value: 'failed', label: 'Failed' },
  { value: 'canceled', label: 'Canceled' },
  { value: 'request_aborted', label: 'Aborted' },
];

/**
 * The search box → the service's `keywords` (each must occur): words split on spaces, "quoted phrases"
 * kept whole, at most 20 of at most 200 characters, as the service takes them.
 */
export function searchKeywords(search: string): string[] {
  const words: string[] = [];
  for (const m of search.matchAll(/"([^"]*)"|(\S+)/g)) {
    const word = (m[1] ?? m[2] ?? '').trim().slice(0, 200);
    if (word !== '' && !words.includes(word)) words.push(word);
  }
  return words.slice(0, 20);
}

const isDay = (value: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The filters and a page → the `assemblies:list` request (empty dates and search left out). */
export function listRequest(filters: ActivityFilters, page: number, pageSize = PAGE_SIZE): AssemblyListQuery {
  const request: { -readonly [K in keyof AssemblyListQuery]: AssemblyListQuery[K] } = { state: filters.state, page, pageSize };
  if (isDay(filters.fromDate)) request.fromDate = filters.fromDate;
  if (isDay(filters.toDate)) request.toDate = filters.toDate;
  const keywords = searchKeywords(filters.search);
  if (keywords.length > 0) request.keywords = keywords;
  return request;
}

/** A date range the user can read at a glance is wrong (from after to): said before asking the service. */
export const dateRangeProblem = (filters: ActivityFilters): string | null =>
  isDay(filters.fromDate) && isDay(filters.toDate) && filters.fromDate > filters.toDate ? 'The first day is after the last day.' : null;

export const filtersActive = (filters: ActivityFilters): boolean =>
  filters.state !== 'all' || filters.fromDate !== '' || filters.toDate !== '' || filters.search.trim() !== '';

/** Quick ranges (UTC days, as the service counts them). */
export function dayRange(preset: 'today' | 'yesterday' | 'week', now: Date): Pick<ActivityFilters, 'fromDate' | 'toDate'> {
  const day = (offset: number) => new Date(now.getTime() - offset * 86_400_000).toISOString().slice(0, 10);
  if (preset === 'today') return { fromDate: day(0), toDate: day(0) };
  if (preset === 'yesterday') return { fromDate: day(1), toDate: day(1) };
  return { fromDate: day(6), toDate: day(0) };
}

/** Still moving on the service (or, for a run of this app, still uploading). */
export const isItemBusy = (item: AssemblyListItem): boolean =>
  !item.error && (BUSY_OK_CODES.includes(item.state) || item.state === 'CREATING' || (item.run !== null && BUSY_OK_CODES.includes(item.run.state)));

/** The pages that hold rows `start`–`end` (one page of margin each side), within `count`. */
export function pagesFor(start: number, end: number, count: number, pageSize = PAGE_SIZE): number[] {
  const last = Math.max(1, Math.ceil(count / pageSize));
  const first = Math.max(1, Math.floor(Math.max(0, start - pageSize / 2) / pageSize) + 1);
  const to = Math.min(last, Math.floor((end + pageSize / 2) / pageSize) + 1);
  const pages: number[] = [];
  for (let p = first; p <= to; p++) pages.push(p);
  return pages.length > 0 ? pages : [1];
}

/**
 * The row at `index` from the pages read so far; undefined while its page is on its way. Page 1 may hold
 * more than a page (runs of this app without an Assembly lead it): later pages shift by that much.
 */
export function rowAt(pages: ReadonlyMap<number, readonly AssemblyListItem[]>, index: number, pageSize = PAGE_SIZE): AssemblyListItem | undefined {
  const first = pages.get(1);
  const extra = first ? Math.max(0, first.length - pageSize) : 0;
  if (index < pageSize + extra) return first?.[index];
  const i = index - extra;
  return pages.get(Math.floor(i / pageSize) + 1)?.[i % pageSize];
}

/** Key of a row: the Assembly id, or the run of this app that has none yet. */
export const itemKey = (item: AssemblyListItem): string => item.id ?? `run:${item.run?.runId ?? ''}`;
