import { z } from 'zod';
import { assemblyFileSchema, type AssemblyFile, type AssemblyStatus } from '../api/assembly-status';
import { runSchema, type Run } from './models';

/**
 * `run:updated` as it crosses the bridge: a status record of an Assembly with 2,000 results is megabytes,
 * and it changes a few times a second while results arrive. Core sends the record whole once, then only
 * what was appended to `uploads` and to each step's `results` since the event before (they only grow
 * while an Assembly runs). A page that missed the start (it connected late, or an event was lost) sees
 * that the offsets do not match what it holds and fetches the run again.
 */

export const runDeltaSchema = z.object({
  /** How many uploads the receiver must already hold; `uploads` follow them. */
  uploadsFrom: z.number().int().nonnegative(),
  uploads: z.array(assemblyFileSchema),
  /** Per step: how many results the receiver must already hold, and the ones after them. */
  results: z.record(z.string(), z.object({ from: z.number().int().nonnegative(), items: z.array(assemblyFileSchema) })),
});
export type RunDelta = z.infer<typeof runDeltaSchema>;

export const runUpdateSchema = z.object({
  /**
   * The run. Its `files` are never sent here (they travel as `run:progress`); with a `delta`, its status
   * carries no `uploads` or `results` (the delta has what is new).
   */
  run: runSchema,
  delta: runDeltaSchema.nullable(),
});
export type RunUpdate = z.infer<typeof runUpdateSchema>;

const withoutLists = (status: AssemblyStatus): AssemblyStatus => {
  const { uploads: _uploads, results: _results, ...rest } = status;
  return rest;
};

const sameFile = (a: AssemblyFile | undefined, b: AssemblyFile | undefined): boolean =>
  a !== undefined && b !== undefined && (a.id ?? a.ssl_url ?? a.name) === (b.id ?? b.ssl_url ?? b.name);

/** Whether `next` only appends to `prev` (the same files, by id, in the same places). Cheap: ids only. */
const appends = (prev: readonly AssemblyFile[], next: readonly AssemblyFile[]): boolean =>
  next.length >= prev.length && prev.every((file, i) => sameFile(file, next[i]));

/**
 * The event for `next`, given the status sent before for the same run (null: none). Falls back to the
 * whole record when something other than an append happened.
 */
export function runUpdateOf(next: Run, sentBefore: AssemblyStatus | null): RunUpdate {
  const run: Run = { ...next, files: [] };
  const status = next.status;
  if (!status || !sentBefore) return { run, delta: null };
  const prevUploads = sentBefore.uploads ?? [];
  const nextUploads = status.uploads ?? [];
  if (!appends(prevUploads, nextUploads)) return { run, delta: null };
  const prevResults = sentBefore.results ?? {};
  const nextResults = status.results ?? {};
  // A step that disappeared is not an append.
  if (Object.keys(prevResults).some((step) => !(step in nextResults))) return { run, delta: null };
  const results: RunDelta['results'] = {};
  for (const [step, items] of Object.entries(nextResults)) {
    const before = prevResults[step] ?? [];
    if (!appends(before, items)) return { run, delta: null };
    if (items.length > before.length) results[step] = { from: before.length, items: items.slice(before.length) };
  }
  return {
    run: { ...run, status: withoutLists(status) },
    delta: { uploadsFrom: prevUploads.length, uploads: nextUploads.slice(prevUploads.length), results },
  };
}

/**
 * The run after an update, given the copy held (undefined: none). Null when the update cannot be applied
 * to what is held (the holder must fetch the run whole). File rows held are kept.
 */
export function applyRunUpdate(held: Run | undefined, update: RunUpdate): Run | null {
  const files = held?.files ?? [];
  if (!update.delta) return { ...update.run, files };
  const heldStatus = held?.status;
  if (!held || !heldStatus) return null;
  const { delta } = update;
  const uploads = heldStatus.uploads ?? [];
  if (uploads.length !== delta.uploadsFrom) return null;
  const results: Record<string, AssemblyFile[]> = { ...(heldStatus.results ?? {}) };
  for (const [step, part] of Object.entries(delta.results)) {
    const before = results[step] ?? [];
    if (before.length !== part.from) return null;
    results[step] = [...before, ...part.items];
  }
  const status: AssemblyStatus = { ...update.run.status, uploads: delta.uploads.length ? [...uploads, ...delta.uploads] : uploads, results };
  return { ...update.run, files, status };
}
