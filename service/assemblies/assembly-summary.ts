import type { AssemblyState } from './assembly-state';
import { LOCAL_ACCOUNT_ID, LOCAL_REGION } from './status-record';

/** The list's `type` values (service-facts.md §7) an Assembly can be in; `all` is every one. */
export type ListKind = 'uploading' | 'executing' | 'canceled' | 'completed' | 'failed' | 'request_aborted';

/**
 * What GET /assemblies needs of one Assembly, kept in its own table next to the state so the list never
 * reads (or parses) whole Assembly records: 10,000 Assemblies are filtered and paged in SQL.
 */
export interface AssemblySummary {
  id: string;
  authKey: string;
  createdMs: number;
  kind: ListKind | null;
  /** Lowercased text the list's `keywords` match: id, redirect_url, fields, notify_url, error message, file names. */
  search: string;
  /** The list item without `instance` (added at answer time, it follows the base URL). */
  item: string;
  /** When the next notification delivery is due (ms), null when none is pending. */
  notifyDueMs: number | null;
}

/** Keeps one Assembly's search text bounded (2,000 file names would otherwise make it large). */
const MAX_SEARCH_CHARS = 64 * 1024;

export function listKind(s: Pick<AssemblyState, 'ok' | 'error'>): ListKind | null {
  if (s.error) return 'failed';
  switch (s.ok) {
    case 'ASSEMBLY_UPLOADING':
      return 'uploading';
    case 'ASSEMBLY_EXECUTING':
    case 'ASSEMBLY_REPLAYING':
      return 'executing';
    case 'ASSEMBLY_CANCELED':
      return 'canceled';
    case 'ASSEMBLY_COMPLETED':
      return 'completed';
    case 'REQUEST_ABORTED':
      return 'request_aborted';
    default:
      return null;
  }
}

/** `Y-m-d H:i:s` UTC, as the list params and items use it. */
export const listDate = (ms: number): string => new Date(ms).toISOString().replace('T', ' ').replace(/\.\d+Z$/, '');

/** One list item (NS `assemblyIndexItemSchema`) from the stored state, without `instance`. Pure. */
export function listItem(s: AssemblyState): Record<string, unknown> {
  return {
    id: s.id,
    parent_id: s.parentId ?? null,
    account_id: LOCAL_ACCOUNT_ID,
    template_id: s.templateId ?? null,
    notify_url: s.notifyUrl ?? null,
    redirect_url: redirectUrl(s),
    files: JSON.stringify(s.uploads.map((u) => u.file.name)),
    warning_count: s.warnings.length,
    execution_duration: s.executionDurationS ?? 0,
    execution_start: s.executionStart,
    region: LOCAL_REGION,
    num_input_files: s.uploads.length,
    bytes_usage: s.bytesReceived,
    bytes_expected: s.bytesExpected,
    bytes_received: s.bytesReceived,
    upload_duration: s.uploadFinishedAtMs ? (s.uploadFinishedAtMs - s.createdAtMs) / 1000 : 0,
    ok: s.error ? null : s.ok,
    error: s.error,
    created: listDate(s.createdAtMs),
    created_ts: Math.floor(s.createdAtMs / 1000),
    ...(s.templateName ? { template_name: s.templateName } : {}),
  };
}

/** `redirect_url` from the params as received (the legacy form-redirect flow); null when none. */
function redirectUrl(s: AssemblyState): string | null {
  try {
    const p = JSON.parse(s.mergedParams ?? s.params) as Record<string, unknown>;
    return typeof p.redirect_url === 'string' ? p.redirect_url : null;
  } catch {
    return null;
  }
}

/** The earliest due time of a pending notification delivery, or null. */
export function notifyDueMs(s: AssemblyState): number | null {
  let due: number | null = null;
  for (const d of s.deliveries ?? []) if (d.dueAtMs !== null && (due === null || d.dueAtMs < due)) due = d.dueAtMs;
  return due;
}

export function assemblySummary(s: AssemblyState): AssemblySummary {
  const names = s.uploads.map((u) => u.file.name).join('\n');
  const search = [s.id, redirectUrl(s) ?? '', JSON.stringify(s.fields ?? {}), s.notifyUrl ?? '', s.error ? `${s.error}\n${s.message}` : '', names]
    .join('\n')
    .toLowerCase()
    .slice(0, MAX_SEARCH_CHARS);
  return { id: s.id, authKey: s.authKey, createdMs: s.createdAtMs, kind: listKind(s), search, item: JSON.stringify(listItem(s)), notifyDueMs: notifyDueMs(s) };
}
