import type { AssemblyListItem, ParsedAssemblyListQuery } from '../../../shared/ipc/assembly-models';
import type { Run } from '../../../shared/ipc/models';

/** A run's own fields as Activity shows them beside the service's. */
const extras = (run: Run): AssemblyListItem['run'] => ({ runId: run.runId, state: run.state, totals: run.totals });

/** A run the service cannot list: its Assembly was never created (still creating, or creating failed). */
export function runOnlyItem(run: Run): AssemblyListItem {
  const names = run.files.map((f) => f.relativePath.slice(f.relativePath.lastIndexOf('/') + 1));
  return {
    id: null,
    parentId: null,
    templateId: null,
    state: run.error?.code ?? run.state,
    error: run.error?.code ?? null,
    created: run.createdAt,
    fileNames: names,
    numInputFiles: run.totals.filesTotal,
    bytes: run.totals.bytesTotal,
    executionDuration: null,
    notifyUrl: null,
    run: extras(run),
  };
}

/** Does a run without an Assembly match the filter as the service would match an Assembly? */
export function runMatches(item: AssemblyListItem, query: ParsedAssemblyListQuery): boolean {
  if (query.state === 'failed' && !item.error) return false;
  if (query.state === 'uploading' && item.error) return false;
  if (!['all', 'failed', 'uploading'].includes(query.state)) return false;
  const day = item.created.slice(0, 10);
  if (query.fromDate && day < query.fromDate) return false;
  if (query.toDate && day > query.toDate) return false;
  const haystack = [item.run?.runId ?? '', item.error ?? '', ...item.fileNames].join('\n').toLowerCase();
  return query.keywords.every((k) => haystack.includes(k.trim().toLowerCase()));
}

/**
 * One list, not two: each Assembly of the service's page that this app started carries its run's extras
 * (upload progress, the Assembly view), and runs whose Assembly does not exist yet (still creating, or creating
 * failed) lead page 1 when they match the filter. `count` includes them, so paging stays consistent.
 */
export function mergeRuns(
  page: { items: AssemblyListItem[]; count: number },
  runs: readonly Run[],
  query: ParsedAssemblyListQuery,
): { items: AssemblyListItem[]; count: number } {
  const byAssembly = new Map<string, Run>();
  for (const run of runs) if (run.assemblyId) byAssembly.set(run.assemblyId, run);
  const items = page.items.map((item) => {
    const run = item.id ? byAssembly.get(item.id) : undefined;
    return run ? { ...item, run: extras(run) } : item;
  });
  const pending = runs
    .filter((run) => !run.assemblyId)
    .map(runOnlyItem)
    .filter((item) => runMatches(item, query))
    .sort((a, b) => b.created.localeCompare(a.created));
  return { items: query.page === 1 ? [...pending, ...items] : items, count: page.count + pending.length };
}
