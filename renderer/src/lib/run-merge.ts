import type { Run, RunProgress } from '../../../shared/ipc/models';

/** Apply a batched progress event (totals + only the changed files) to a run, keeping file order. */
export const applyProgress = (run: Run, progress: RunProgress): Run => {
  if (progress.runId !== run.runId) return run;
  if (progress.files.length === 0) return { ...run, totals: progress.totals };
  const changed = new Map(progress.files.map((f) => [f.fileId, f]));
  const files = run.files.map((f) => changed.get(f.fileId) ?? f);
  // Files the run did not list yet (progress can arrive before the first run:updated) go at the end.
  if (changed.size > 0) {
    const known = new Set(run.files.map((f) => f.fileId));
    for (const f of progress.files) if (!known.has(f.fileId)) files.push(f);
  }
  return { ...run, totals: progress.totals, files };
};

/** Put an updated run into a newest-first list, replacing its older copy. */
export const upsertRun = (runs: readonly Run[], run: Run): Run[] => {
  const index = runs.findIndex((r) => r.runId === run.runId);
  if (index === -1) return [run, ...runs];
  const next = runs.slice();
  next[index] = run;
  return next;
};
