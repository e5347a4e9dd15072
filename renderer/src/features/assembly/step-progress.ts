import type { AssemblyStatus } from '../../../../shared/api/assembly-status';
import { isAssemblyBusy } from '../../../../shared/api/codes';
import type { StepProgress } from '../../../../shared/ipc/assembly-models';

/**
 * What the detail says of each step of an Assembly. `unknown`: the service did not say (no
 * `progress_per_step`, no results yet), so no number is shown. `not-run`: it ended before this step ended.
 */
export type StepRowState = 'waiting' | 'executing' | 'done' | 'failed' | 'not-run' | 'unknown';

export interface StepRow {
  step: string;
  robot: string | null;
  state: StepRowState;
  /** 0–100, or null when not known (no bar value is drawn then). */
  progress: number | null;
  /** Input files done / in all, when the service reports them for this step. */
  filesDone: number | null;
  filesTotal: number | null;
  /** Result files the status record lists for it so far. */
  results: number;
}

type StepSpec = { robot?: unknown; use?: unknown };

const ORIGINAL = ':original';

/** The steps of the Assembly's params (`merged_params` first: a Template's steps merged in), or {}. Pure. */
export function stepsOfStatus(status: AssemblyStatus): Record<string, StepSpec> {
  for (const raw of [status.merged_params, status.params]) {
    if (typeof raw !== 'string') continue;
    try {
      const steps = (JSON.parse(raw) as { steps?: unknown }).steps;
      if (steps && typeof steps === 'object' && !Array.isArray(steps)) return steps as Record<string, StepSpec>;
    } catch {
      // Not JSON: try the next, else no steps.
    }
  }
  return {};
}

/** Step names a `use` refers to: "a", ["a", "b"], or { steps: ["a" | { name: "a" }] }. Pure. */
export function useRefs(use: unknown): string[] {
  if (typeof use === 'string') return [use];
  if (Array.isArray(use)) return use.flatMap(useRefs);
  if (use && typeof use === 'object') {
    const list = (use as { steps?: unknown }).steps;
    if (Array.isArray(list)) return list.flatMap((s: unknown) => (typeof s === 'string' ? [s] : s && typeof s === 'object' && typeof (s as { name?: unknown }).name === 'string' ? [(s as { name: string }).name] : []));
  }
  return [];
}

/** Steps in the order they can run (each after the steps it uses), otherwise as written; a loop keeps written order. Pure. */
export function stepOrder(steps: Record<string, StepSpec>): string[] {
  const names = Object.keys(steps);
  const used = new Set(names.flatMap((n) => useRefs(steps[n]?.use)));
  if (used.has(ORIGINAL) && !names.includes(ORIGINAL)) names.unshift(ORIGINAL);
  const order: string[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (name: string): void => {
    if (state.get(name)) return;
    state.set(name, 'visiting');
    for (const ref of useRefs(steps[name]?.use)) if (names.includes(ref)) visit(ref);
    state.set(name, 'done');
    order.push(name);
  };
  names.forEach(visit);
  return order;
}

/**
 * One row per step, from the service's own per-step progress when it sends it (`perStep`), else derived
 * from the status record alone: steps with results are done, `:original` is done once it executes, the
 * rest unknown — never made-up percentages. An ended Assembly: completed = every step done; failed = the
 * step it names failed, and steps not done did not run. Pure.
 */
export function stepRows(status: AssemblyStatus, perStep: readonly StepProgress[] | null): StepRow[] {
  const declared = stepsOfStatus(status);
  const live = new Map((perStep ?? []).map((s) => [s.step, s]));
  const results = status.results ?? {};
  const names = [...(perStep ?? []).map((s) => s.step)];
  for (const name of [...stepOrder(declared), ...Object.keys(results)]) if (!names.includes(name)) names.push(name);

  const busy = isAssemblyBusy(status);
  const completed = !busy && !status.error && status.ok === 'ASSEMBLY_COMPLETED';
  const executing = busy && status.ok !== 'ASSEMBLY_UPLOADING';
  return names.map((step) => {
    const known = live.get(step);
    const robotOf = declared[step]?.robot;
    const robot = known?.robot ?? (typeof robotOf === 'string' ? robotOf : step === ORIGINAL ? '/upload/handle' : null);
    const count = results[step]?.length ?? 0;
    const row: StepRow = { step, robot, state: 'unknown', progress: null, filesDone: known?.filesDone ?? null, filesTotal: known && known.state !== 'waiting' ? known.filesTotal : null, results: count };
    if (completed) return { ...row, state: 'done', progress: 100, filesDone: row.filesTotal ?? row.filesDone };
    if (status.error && status.step === step) return { ...row, state: 'failed', progress: known?.progress ?? null };
    if (known) {
      if (!busy && known.state !== 'done') return { ...row, state: 'not-run', progress: known.state === 'executing' ? known.progress : null };
      return { ...row, state: known.state, progress: known.progress };
    }
    if (count > 0 || (step === ORIGINAL && (executing || !busy))) return { ...row, state: 'done', progress: 100 };
    return busy ? row : { ...row, state: 'not-run' };
  });
}

/** A running step's percentage to a tenth ("42.3 %", "42 %"): a long encode's whole percent outlasts the service's 2 s events. */
const stepPercent = (progress: number): string => `${Math.round(progress * 10) / 10} %`;

/** "42.3 % · 1 of 3 files" style summary of one row. Pure. */
export function stepRowText(row: StepRow): string {
  const files = row.filesTotal !== null && row.filesTotal > 0 ? `${row.filesDone ?? 0} of ${row.filesTotal} file${row.filesTotal === 1 ? '' : 's'}` : null;
  const resultText = row.results > 0 ? `${row.results} result${row.results === 1 ? '' : 's'}` : null;
  switch (row.state) {
    case 'waiting':
      return 'Waiting';
    case 'executing':
      return [stepPercent(row.progress ?? 0), files].filter(Boolean).join(' · ');
    case 'done':
      return ['Done', files ?? resultText].filter(Boolean).join(' · ');
    case 'failed':
      return 'Failed';
    case 'not-run':
      return 'Did not finish';
    case 'unknown':
      return resultText ?? 'Not reported';
  }
}
