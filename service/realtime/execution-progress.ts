// The `assembly_execution_progress` event's data (service-facts.md §5), with the local service's own
// addition `progress_per_step`: clients that read only `progress_combined` and
// `progress_per_original_file` (every known one reads named keys of the JSON) pass over it.

import type { OriginalProgress } from '../robots/execute-steps';

/** How far one step of the Assembly is. `files_total` is 0 until the step starts (its inputs are known then). */
export interface StepProgress {
  step: string;
  robot: string;
  state: 'waiting' | 'executing' | 'done';
  /** 0..100 (to a tenth), from the jobs done and the running job's own report (ffmpeg's encoded time). */
  progress: number;
  files_done: number;
  files_total: number;
}

export interface ExecutionProgressData {
  progress_combined: number;
  progress_per_original_file: OriginalProgress[];
  progress_per_step: StepProgress[];
}

export const executionProgressData = (combined: number, perFile: OriginalProgress[], perStep: readonly StepProgress[]): ExecutionProgressData => ({
  progress_combined: combined,
  progress_per_original_file: perFile,
  progress_per_step: perStep.map((s) => ({ ...s })),
});

/** The steps as they stand once the Assembly completed: every one done. Pure. */
export const allStepsDone = (perStep: readonly StepProgress[]): StepProgress[] =>
  perStep.map((s) => ({ ...s, state: 'done', progress: 100, files_done: Math.max(s.files_done, s.files_total) }));
