import type { ParsedAssemblyListQuery } from '../../../shared/ipc/assembly-models';

/**
 * The app's list query → the params of `GET /assemblies` (service-facts §7). Days are whole UTC days:
 * `toDate` ends at 23:59:59 so "to today" includes today. Keywords go as an array (each must occur).
 */
export function listParams(query: ParsedAssemblyListQuery): Record<string, unknown> {
  const params: Record<string, unknown> = { page: query.page, pagesize: query.pageSize };
  if (query.state !== 'all') params.type = query.state;
  if (query.fromDate) params.fromdate = `${query.fromDate} 00:00:00`;
  if (query.toDate) params.todate = `${query.toDate} 23:59:59`;
  const keywords = query.keywords.map((k) => k.trim()).filter((k) => k !== '');
  if (keywords.length > 0) params.keywords = keywords;
  return params;
}

/** The service's `created` (`YYYY-MM-DD HH:MM:SS`, UTC) → ISO 8601; anything else is passed on as it came. */
export function serviceDateToIso(value: unknown): string {
  if (typeof value !== 'string') return '';
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]00:?00)?$/.exec(value.trim());
  return m ? `${m[1]}T${m[2]}.000Z` : value;
}
