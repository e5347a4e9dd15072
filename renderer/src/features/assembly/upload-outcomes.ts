import type { AssemblyStatus } from '../../../../shared/api/assembly-status';

/** What became of one uploaded file: how many results came from it, or why none did. */
export interface UploadOutcome {
  readonly id: string;
  readonly name: string;
  readonly size: number | null;
  readonly results: number;
  /** Why a step produced nothing from it, in the service's words ("Empty file (0 bytes): nothing to resize"). */
  readonly reasons: readonly string[];
  /** A reason is a `warning` (a file the step could not use), not only a `notice` (a filter declined it). */
  readonly warned: boolean;
}

type Warning = NonNullable<AssemblyStatus['warnings']>[number] & { original_id?: unknown; name?: unknown; reason?: unknown; step?: unknown };

const originalIds = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/** The reason of a warning with the step it came from, when the service names it. */
const reasonOf = (w: Warning): string => {
  const reason = typeof w.reason === 'string' && w.reason !== '' ? w.reason : w.msg;
  return typeof w.step === 'string' && typeof w.reason === 'string' ? `${reason} (step "${w.step}")` : reason;
};

/**
 * Per upload of a status record: its results (matched by `original_id`, service-facts.md §4) and the
 * warnings about it. The local service names the upload in a warning (`original_id`); a warning without
 * it counts for the file whose quoted name it mentions, as the real service's `{level, msg}` may.
 */
export function uploadOutcomes(status: AssemblyStatus | null | undefined): UploadOutcome[] {
  const uploads = status?.uploads ?? [];
  if (uploads.length === 0) return [];
  const results = new Map<string, number>();
  for (const files of Object.values(status?.results ?? {})) {
    for (const file of files) for (const id of originalIds(file.original_id)) results.set(id, (results.get(id) ?? 0) + 1);
  }
  const reasons = new Map<string, string[]>();
  const warned = new Set<string>();
  const add = (id: string, reason: string, level: string) => {
    if (level === 'warning') warned.add(id);
    const list = reasons.get(id) ?? [];
    if (!list.includes(reason)) list.push(reason);
    reasons.set(id, list);
  };
  const byName = new Map(uploads.filter((u) => u.id && u.name).map((u) => [`"${u.name}"`, u.id!]));
  for (const w of (status?.warnings ?? []) as Warning[]) {
    if (typeof w.original_id === 'string') add(w.original_id, reasonOf(w), w.level);
    else for (const [quoted, id] of byName) if (w.msg.includes(quoted)) add(id, w.msg, w.level);
  }
  // The file a failed Assembly failed on, when the service names it (the local service does).
  const failedOn = (status as { original_id?: unknown } | null | undefined)?.original_id;
  if (status?.error && typeof failedOn === 'string') {
    const where = typeof status.step === 'string' ? `the step "${status.step}" failed on it` : 'the Assembly failed on it';
    add(failedOn, `${where}: ${status.message ?? status.error}`, 'warning');
  }
  return uploads.map((u, i) => {
    const id = u.id ?? `upload-${i}`;
    return { id, name: u.name ?? u.original_name ?? id, size: u.size ?? null, results: results.get(id) ?? 0, reasons: reasons.get(id) ?? [], warned: warned.has(id) };
  });
}

/** How the Assembly ended, for a file without results or reasons. */
export type AssemblyEnd = 'completed' | 'failed' | 'canceled' | 'other';

const NO_RESULT: Record<AssemblyEnd, string> = {
  completed: 'No result: no step produced a file from it',
  failed: 'No result: the Assembly failed first',
  canceled: 'No result: the Assembly was canceled first',
  other: 'No result',
};

/** The outcome as the row says it, once the Assembly is over. */
export function describeOutcome(o: UploadOutcome, end: AssemblyEnd): { text: string; tone: 'success' | 'warning' | 'neutral' } {
  if (o.reasons.length > 0) return { text: `No result: ${o.reasons.join('; ')}`, tone: o.warned ? 'warning' : 'neutral' };
  if (o.results > 0) return { text: o.results === 1 ? '1 result' : `${o.results.toLocaleString('en-US')} results`, tone: 'success' };
  return { text: NO_RESULT[end], tone: 'neutral' };
}
