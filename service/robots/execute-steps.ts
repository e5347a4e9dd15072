// Runs validated steps in `use`-graph order; the jobs of a step (one per input file or bundle) side by
// side in job slots (service/queue/), reporting result files in input order as soon as they exist.
//
// `result` default (service-facts §8, disagreement 9): we follow the older documented behaviour —
// true for leaf steps (no other step uses them), false for intermediate steps — unless a step sets
// `result` itself. `:original` is reported only with an explicit `result: true`.
//
// `:original` may be used without being declared; it is then an implicit /upload/handle step.
// Non-suitable inputs (e.g. a PDF into /image/resize) are skipped with a warning; the step fails
// with INVALID_INPUT_ERROR only if it had inputs and none of them suited it. A step with no inputs
// (say, all declined by a filter) produces nothing and is not an error.
// Most robots run once per input file. Bundling robots run once per bundle: one for all with
// `bundle_steps`, one per original with `group_by_original`, else one per used step — except /file/compress,
// which makes one archive per file unless told to bundle (the vendor's docs, "Advanced use").

import { mkdir } from 'node:fs/promises';
import { ErrorCode } from '../../shared/api/codes';
import { resolveInside, UnsafePathError } from '../files/inside-dir';
import { safeFileName } from '../files/safe-name';
import { interpolateParams, NEVER_INTERPOLATED, type Scope } from '../instructions/interpolation';
import { ORIGINAL_STEP } from '../instructions/known-robots';
import { INSTRUCTION_LIMITS } from '../instructions/instruction-limits';
import { validateRobotParams } from '../instructions/robot-params';
import { parseUse } from '../instructions/use-spec';
import type { StepProgress } from '../realtime/execution-progress';
import { topologicalOrder, validateInstructions } from '../instructions/validate-instructions';
import { toPublicFile, type StoredFile } from './file-record';
import { BUNDLE_RUNNERS, ROBOT_RUNNERS, SOURCE_RUNNERS } from './robot-registry';
import type { AssetAccess, ChatAccess, CredentialLookup, NetworkAccess, RobotFileOutcome } from './robot-types';
import { runSourceStep } from './source-step';
import { canReadHeic } from './image-formats';
import { emptyInput, unsupportedFormat } from './unsuitable-input';

/** Asked once: this machine's image library and HEIC (image-formats.ts). */
const HEIC_READABLE = canReadHeic();

type StepSpec = { robot: string; use?: unknown; [k: string]: unknown };

const seconds = (ms: number): number => Math.round(ms) / 1000;
/** A result's `queue_time` (waiting for a job slot) and `exec_time` (its robot running), in seconds. Pure. */
export const jobTimes = (queuedAt: number, startedAt: number, endedAt: number): { queue_time: number; exec_time: number } => ({
  queue_time: seconds(startedAt - queuedAt),
  exec_time: seconds(endedAt - startedAt),
});

export interface ExecuteContext {
  assemblyId: string;
  steps: Record<string, StepSpec>;
  uploads: StoredFile[];
  fields: Record<string, unknown>;
  workDir: string;
  signal: AbortSignal;
  onResult(step: string, file: StoredFile): void;
  /**
   * 0..100 overall, per upload (`progress_per_original_file` of the SSE progress event), and per step (ours).
   * The per-upload list is built when called (O(uploads)): only for an event that is sent.
   */
  onProgress?(progressCombined: number, perOriginalFile: () => OriginalProgress[], perStep: StepProgress[]): void;
  /**
   * A file a step could not use was skipped, or an error was ignored (`ignore_errors`). `about` names the
   * input files it is about and the reason alone, so the status can say it at each file.
   */
  onWarning?(step: string, message: string, about?: WarningAbout): void;
  /** Template credentials for storage robots (none when absent). */
  credentials?: CredentialLookup;
  /** Metering: a job of `robot` succeeded on `inputBytes` of input. */
  onProcessed?(robot: string, inputBytes: number): void;
  /** Stored assets for /transloadit/store and /transloadit/import (none when absent). */
  assets?: AssetAccess;
  /** The chat endpoint and tool-server auth for /ai/chat, bound to this Assembly's Auth Key. */
  chat?: ChatAccess;
  /** Where /http/import may connect (the service's outgoing-address policy). */
  network?: NetworkAccess;
  /**
   * Takes a job slot (service/queue/job-slots.ts) for one robot run; resolves with its release, rejects
   * when `signal` aborts first. Absent: no pool (unit tests).
   */
  acquireSlot?(job: { step: string; robot: string; jobId: string }, signal: AbortSignal): Promise<() => void>;
  /**
   * Follows a robot's run to its real end: an aborted job's Assembly goes on at once, but the robot may still
   * be writing (a sharp pipeline cannot be stopped), and the service's stop waits for that.
   */
  track?(run: Promise<unknown>): void;
  /** How many jobs of one step may run at once (the pool's size); 1 when absent. */
  parallelJobs?: number;
  /** Bytes the Assembly's steps may write (default outputCap of its uploads and imports); tests pass small ones. */
  maxOutputBytes?: number;
  /** auth.max_number_of_files: input files "uploaded or imported" (spec); null or absent = no limit. */
  maxNumberOfFiles?: number | null;
}

export interface WarningAbout {
  files: StoredFile[];
  code: string;
  /** Why, without the file's name: "Empty file (0 bytes): nothing to resize". */
  reason: string;
  /** `notice` for what the instructions asked for (a filter declining a file); `warning` by default. */
  level?: 'notice' | 'warning';
}

export interface OriginalProgress {
  original_id: string;
  progress: number;
}

export type ExecuteOutcome =
  | { ok: true }
  /** `original_id` and `name`: the upload whose file the step failed on, when it failed on one. */
  | { ok: false; code: string; message: string; step?: string; reason?: string; original_id?: string; name?: string };

export const CANCELED_CODE = 'ASSEMBLY_CANCELED';
/** Ours: the steps of one Assembly wrote more than its cap. */
export const OUTPUT_TOO_LARGE = 'ASSEMBLY_OUTPUT_TOO_LARGE';

/** What the steps of an Assembly may write given `inputBytes` (uploaded and imported). Pure. */
export const outputCap = (inputBytes: number): number => INSTRUCTION_LIMITS.outputBaseBytes + INSTRUCTION_LIMITS.outputPerInputByte * inputBytes;
/** Robots whose outputs have their own byte bound, not counted against the Assembly's output cap. */
const SELF_BOUNDED_ROBOTS: ReadonlySet<string> = new Set(['/file/decompress']);
/** Robots that do no work (an upload passes on as it is): their jobs take no slot, so they never wait behind real work nor keep it waiting. */
const SLOTLESS_ROBOTS: ReadonlySet<string> = new Set(['/upload/handle', '/file/serve']);

/**
 * The job's outcome, or a rejection as soon as `signal` aborts: a robot that misses the abort (a network
 * call that never settles once its connection is ended) must not keep the Assembly executing forever.
 * Its slot comes back at the abort; whatever it settles with later is dropped.
 */
function unlessAborted<T>(job: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    job.catch(() => undefined);
    return Promise.reject(signal.reason as Error);
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason as Error);
    signal.addEventListener('abort', onAbort, { once: true });
    job.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

const canceled = (): ExecuteOutcome => ({ ok: false, code: CANCELED_CODE, message: 'The Assembly was canceled.' });

/** Which steps report their files (see the note at the top). */
export function resultSteps(steps: Record<string, StepSpec>): Set<string> {
  const used = new Set<string>();
  for (const step of Object.values(steps)) {
    const parsed = parseUse(step.use);
    if (parsed.ok) parsed.use.refs.forEach((r) => used.add(r.name));
  }
  const out = new Set<string>();
  for (const [name, step] of Object.entries(steps)) {
    const explicit = step.result === true || step.result === 'debug';
    if (name === ORIGINAL_STEP ? explicit : step.result === undefined ? !used.has(name) : explicit) out.add(name);
  }
  return out;
}

export interface TaggedFile {
  file: StoredFile;
  /** The used step the file came from. */
  fromStep: string;
}

/** A step's input files with the step each came from: outputs of the used steps, filtered by upload field, without duplicates. */
export function collectTaggedInputs(use: unknown, outputs: ReadonlyMap<string, StoredFile[]>): TaggedFile[] {
  const parsed = parseUse(use);
  if (!parsed.ok) return [];
  const seen = new Set<string>();
  const files: TaggedFile[] = [];
  for (const ref of parsed.use.refs) {
    for (const file of outputs.get(ref.name) ?? []) {
      if (ref.fields && !ref.fields.includes(file.field ?? '')) continue;
      if (parsed.use.fields && !parsed.use.fields.includes(file.field ?? '')) continue;
      if (seen.has(file.id)) continue;
      seen.add(file.id);
      files.push({ file, fromStep: ref.name });
    }
  }
  return files;
}

/** A step's input files (see collectTaggedInputs). */
export const collectInputs = (use: unknown, outputs: ReadonlyMap<string, StoredFile[]>): StoredFile[] =>
  collectTaggedInputs(use, outputs).map((t) => t.file);

/** Robots whose bundle is one file unless `bundle_steps` or `group_by_original` says otherwise. */
const ONE_FILE_BUNDLES: ReadonlySet<string> = new Set(['/file/compress']);

/**
 * Bundles for a robot that takes many inputs at once: one per original with `group_by_original`, one for
 * everything with `bundle_steps`, else one per used step (`unbundled: 'step'`) or one per file (`'file'`).
 * Empty bundles are dropped. Pure.
 */
export function bundleGroups(inputs: TaggedFile[], use: { bundleSteps: boolean; groupByOriginal: boolean }, unbundled: 'step' | 'file' = 'step'): TaggedFile[][] {
  const keyOf = (t: TaggedFile) => (use.groupByOriginal ? t.file.original_id : use.bundleSteps ? '' : unbundled === 'file' ? `${t.fromStep}\0${t.file.id}` : t.fromStep);
  const groups = new Map<string, TaggedFile[]>();
  for (const t of inputs) groups.set(keyOf(t), [...(groups.get(keyOf(t)) ?? []), t]);
  return [...groups.values()];
}

const prefixOf = (id: string): string => `${id.slice(0, 2)}/${id.slice(2)}`;

/** Assembly variables for one file (service-facts §8 "Assembly variables"); never the path on disk. */
export function fileScope(ctx: Pick<ExecuteContext, 'assemblyId' | 'fields'>, file: StoredFile, previousStep: string | null): Scope {
  return {
    file: { ...toPublicFile(file), url_name: file.name.replace(/[^\w.-]+/g, '_') },
    fields: ctx.fields,
    assembly: { id: ctx.assemblyId },
    unique_prefix: prefixOf(file.id),
    unique_original_prefix: prefixOf(file.original_id),
    previous_step: { name: previousStep },
    date: { now: Date.now() },
  };
}

const ignoresExecuteErrors = (step: StepSpec): boolean =>
  step.ignore_errors === true || (Array.isArray(step.ignore_errors) && step.ignore_errors.includes('execute'));

/** /file/filter resolves its own conditions with typed values; generic interpolation would turn them into text. */
const skipKeysFor = (robot: string): ReadonlySet<string> =>
  robot === '/file/filter' ? new Set([...NEVER_INTERPOLATED, 'accepts', 'declines']) : NEVER_INTERPOLATED;

export async function executeSteps(ctx: ExecuteContext): Promise<ExecuteOutcome> {
  const invalid = validateInstructions(ctx.steps, { modelServer: Boolean(ctx.chat?.config.endpoint) });
  if (invalid) return { ok: false, ...invalid };
  const graph = topologicalOrder(ctx.steps);
  if (!('order' in graph)) return { ok: false, code: 'ASSEMBLY_INFINITE', message: 'The "use" parameters form a loop.' };
  const steps: Record<string, StepSpec> = { ...ctx.steps };
  if (!steps[ORIGINAL_STEP] && graph.order.includes(ORIGINAL_STEP)) steps[ORIGINAL_STEP] = { robot: '/upload/handle' };
  const reported = resultSteps(steps);
  const outputs = new Map<string, StoredFile[]>();
  // Bytes the steps wrote for this Assembly, against its cap (instruction-limits.ts; issue 25: image steps
  // only at first, while a video encode or an archive of a tiny upload could write as much).
  let outputBytes = 0;
  // Input files so far: the uploads, then every file an import brings in (spec: "uploaded or imported").
  let inputFiles = ctx.uploads.length;
  // Uploaded bytes, then every imported file's: the cap grows with what the Assembly was given.
  let inputBytes = ctx.uploads.reduce((n, u) => n + u.size, 0);
  const cap = () => ctx.maxOutputBytes ?? outputCap(inputBytes);
  const total = graph.order.length;
  // Per upload: how many steps are done for it. A step counts as done for every upload once it ends.
  const stepsDoneFor = new Map<string, Set<number>>(ctx.uploads.map((u) => [u.original_id, new Set<number>()]));
  // Per upload: how far the job running on it is (0..1), from robots that report it (ffmpeg's encoded time).
  const partial = new Map<string, number>();
  // Per step (`progress_per_step`): waiting until it starts, then its jobs done and the running jobs' reports.
  const perStep: StepProgress[] = graph.order.map((name) => ({ step: name, robot: steps[name]!.robot, state: 'waiting', progress: 0, files_done: 0, files_total: 0 }));
  let lastKey = '';
  const progress = (stepsDone: number, fraction: number) => {
    const value = Math.min(100, Math.floor((100 * (stepsDone + fraction)) / total));
    const current = perStep[Math.min(stepsDone, perStep.length - 1)];
    // Reported when the combined value or the running step's own percentage moves (≤ 1,001 times each per
    // step) or a step starts or ends, not after every file. The step's own value counts: in an Assembly of
    // four steps a 60 s encode moves the combined value every 2.4 s, its own every 0.6 s, and that is what
    // the app shows. The per-upload list costs O(uploads), so it is built only for an event that is sent
    // (at most one a second): built on every report, a step over 1,000 files cost 1,000 × 1,000 (issue 27:
    // a quarter of a millisecond per small file, more than its md5).
    const key = `${value}:${stepsDone}:${current?.state ?? ''}:${current?.progress ?? 0}`;
    if (key === lastKey) return;
    lastKey = key;
    const perOriginal = (): OriginalProgress[] =>
      [...stepsDoneFor].map(([id, done]) => ({ original_id: id, progress: Math.min(100, Math.floor((100 * (done.size + (partial.get(id) ?? 0))) / total)) }));
    ctx.onProgress?.(value, perOriginal, perStep);
  };

  for (const [index, name] of graph.order.entries()) {
    if (ctx.signal.aborted) return canceled();
    const step = steps[name]!;
    const runner = ROBOT_RUNNERS[step.robot];
    const bundleRunner = BUNDLE_RUNNERS[step.robot];
    // A robot that may also take input (/text/speak) runs as a source only when the step uses nothing.
    const sourceRunner = step.use === undefined || step.use === null ? SOURCE_RUNNERS[step.robot] : undefined;
    if (!runner && !bundleRunner && !sourceRunner) return { ok: false, code: 'ASSEMBLY_STEP_UNKNOWN_ROBOT', message: `The robot "${step.robot}" is not available.`, step: name };
    const parsedUse = parseUse(step.use);
    const inputs = name === ORIGINAL_STEP ? ctx.uploads.map((file) => ({ file, fromStep: ORIGINAL_STEP })) : collectTaggedInputs(step.use, outputs);
    const jobs = bundleRunner ? bundleGroups(inputs, parsedUse.ok ? parsedUse.use : { bundleSteps: false, groupByOriginal: false }, ONE_FILE_BUNDLES.has(step.robot) ? 'file' : 'step') : inputs.map((t) => [t]);
    const previousStep = parsedUse.ok ? parsedUse.use.refs[0]?.name ?? null : null;
    const outDir = resolveInside(ctx.workDir, safeFileName(`${index}-${name.replace(/[^\w-]+/g, '_')}`));
    await mkdir(outDir, { recursive: true });
    const stepProgress = perStep[index]!;
    if (sourceRunner) {
      // An import: one run for the step, its files become the step's output.
      Object.assign(stepProgress, { state: 'executing' });
      const outcome = await runSourceStep(sourceRunner, ctx, name, step, outDir);
      if (ctx.signal.aborted) return canceled();
      if (!outcome.ok) return { ok: false, code: outcome.code, message: outcome.message, step: name };
      inputFiles += outcome.files.length;
      inputBytes += outcome.files.reduce((n, f) => n + f.size, 0);
      const maxFiles = ctx.maxNumberOfFiles ?? null;
      if (maxFiles !== null && inputFiles > maxFiles) {
        return { ok: false, code: ErrorCode.maxFilesExceeded, message: `This Assembly has ${inputFiles} input files (${ctx.uploads.length} uploaded, ${inputFiles - ctx.uploads.length} imported); auth.max_number_of_files allows ${maxFiles}.`, step: name };
      }
      if (reported.has(name)) outcome.files.forEach((f) => ctx.onResult(name, f));
      outputs.set(name, outcome.files);
      stepsDoneFor.forEach((done) => done.add(index));
      Object.assign(stepProgress, { state: 'done', progress: 100, files_done: outcome.files.length, files_total: outcome.files.length });
      progress(index + 1, 0);
      continue;
    }
    const produced: StoredFile[] = [];
    const unsuitable: (RobotFileOutcome & { what: string })[] = [];
    Object.assign(stepProgress, { state: 'executing', files_total: inputs.length });
    progress(index, 0);

    // Jobs of a step run side by side, as many as there are slots, each holding one slot while its robot
    // runs (never while it waits for another). Their outcomes are taken in input order, so results are
    // reported and fed to the next step in the same order however the jobs finish.
    const stepAbort = new AbortController();
    const signal = AbortSignal.any([ctx.signal, stepAbort.signal]);
    const outcomes: (RobotFileOutcome | undefined)[] = new Array<RobotFileOutcome | undefined>(jobs.length);
    // Per job 0..1 and their sum, so progress with jobs side by side costs O(1) per report.
    const fractions = new Float64Array(jobs.length);
    let fractionSum = 0;
    const setFraction = (i: number, f: number): void => {
      fractionSum += f - fractions[i]!;
      fractions[i] = f;
      // To a tenth: a long encode's 1 % takes longer than the 2 s between events, so whole numbers would
      // leave the step's percentage standing still on screen across several events.
      stepProgress.progress = Math.floor((1000 * fractionSum) / jobs.length) / 10;
      progress(index, fractionSum / jobs.length);
    };
    // Set from the workers (closures): typed wide so the checks after they finish are not narrowed away.
    let failure = null as ExecuteOutcome | null;

    const runJob = async (i: number): Promise<RobotFileOutcome> => {
      const group = jobs[i]!;
      const lead = group[0]!.file;
      const what = group.length === 1 ? `"${lead.name}"` : `${group.length} files`;
      const scope = fileScope(ctx, lead, previousStep);
      const params = interpolateParams(step, scope, skipKeysFor(step.robot));
      const paramError = validateRobotParams(name, step.robot, params, { interpolated: true });
      if (paramError) return { ok: false, ...paramError };
      const empty = group.length === 1 ? emptyInput(step.robot, lead.size) : null;
      if (empty) return empty;
      const unreadable = group.length === 1 ? unsupportedFormat(step.robot, lead.mime, HEIC_READABLE) : null;
      if (unreadable) return unreadable;
      const onJobProgress = (f: number): void => {
        group.forEach((t) => partial.set(t.file.original_id, f));
        setFraction(i, f);
      };
      const queuedAt = performance.now();
      const release = ctx.acquireSlot && !SLOTLESS_ROBOTS.has(step.robot) ? await ctx.acquireSlot({ step: name, robot: step.robot, jobId: lead.id }, signal) : null;
      const startedAt = performance.now();
      const job = { step: name, robot: step.robot, params, scope, outDir, signal, credentials: ctx.credentials ?? (() => null), assets: ctx.assets, chat: ctx.chat, network: ctx.network, onProgress: onJobProgress };
      try {
        const run = bundleRunner ? bundleRunner({ ...job, inputs: group }) : runner!({ ...job, input: lead });
        ctx.track?.(run);
        const outcome = await unlessAborted(run, signal);
        // Each new result says how long its job waited for a slot and ran (seconds); an input passed on keeps its own.
        if (outcome.ok) {
          const times = jobTimes(queuedAt, startedAt, performance.now());
          for (const f of outcome.files) if (!group.some((t) => t.file === f)) Object.assign(f, times);
        }
        return outcome;
      } catch (e) {
        // A path outside the Assembly's folder was refused before anything was written: say so by its code.
        const code = e instanceof UnsafePathError ? e.code : 'INTERNAL_COMMAND_ERROR';
        return { ok: false, code, message: `Step "${name}" (${step.robot}) failed on ${what}: ${(e as Error).message}` };
      } finally {
        release?.();
      }
    };

    const failsStep = (outcome: RobotFileOutcome): boolean => !outcome.ok && !outcome.unsuitableInput && !ignoresExecuteErrors(step);

    /** Takes one job's outcome (in input order); returns the Assembly's outcome when it ends the Assembly. */
    const settle = (i: number, outcome: RobotFileOutcome): ExecuteOutcome | null => {
      if (ctx.signal.aborted) return canceled();
      const group = jobs[i]!;
      const lead = group[0]!.file;
      const what = group.length === 1 ? `"${lead.name}"` : `${group.length} files`;
      if (outcome.ok) {
        // New bytes only: a file passed on or stored elsewhere (same local file) was counted where it was made;
        // an unpacked archive is bounded by its own robot (file-decompress.ts maxOutputBytes, per archive).
        if (!SELF_BOUNDED_ROBOTS.has(step.robot)) outputBytes += outcome.files.filter((f) => !group.some((t) => t.file === f || t.file.localPath === f.localPath)).reduce((n, f) => n + f.size, 0);
        if (outputBytes > cap()) {
          return {
            ok: false,
            code: OUTPUT_TOO_LARGE,
            message: `The steps of this Assembly wrote ${outputBytes} bytes, more than the ${cap()} it may (1 GiB plus ${INSTRUCTION_LIMITS.outputPerInputByte} times the bytes it was given).`,
            step: name,
          };
        }
        ctx.onProcessed?.(step.robot, group.reduce((n, t) => n + t.file.size, 0));
        produced.push(...outcome.files);
        if (reported.has(name)) outcome.files.forEach((f) => ctx.onResult(name, f));
        if (outcome.note) ctx.onWarning?.(name, `Step "${name}" passed over ${what}: ${outcome.note}`, { files: group.map((t) => t.file), code: 'FILE_FILTER_DECLINED_FILE', reason: outcome.note, level: 'notice' });
      } else if (ignoresExecuteErrors(step)) {
        ctx.onWarning?.(name, `Ignored error ${outcome.code}: ${outcome.message}`, { files: group.map((t) => t.file), code: outcome.code, reason: outcome.message });
      } else if (outcome.unsuitableInput) {
        unsuitable.push({ ...outcome, what });
        ctx.onWarning?.(name, `Step "${name}" skipped ${what}: ${outcome.message}`, { files: group.map((t) => t.file), code: outcome.code, reason: outcome.message });
      } else {
        // The file it failed on, when there is one: the app says it at that file.
        const at = group.length === 1 ? { original_id: lead.original_id, name: lead.original_name } : {};
        return { ok: false, code: outcome.code, message: outcome.message, step: name, ...at };
      }
      group.forEach((t) => {
        partial.delete(t.file.original_id);
        stepsDoneFor.get(t.file.original_id)?.add(index);
      });
      stepProgress.files_done += group.length;
      setFraction(i, 1);
      return null;
    };

    let nextJob = 0;
    let nextToSettle = 0;
    const worker = async (): Promise<void> => {
      while (nextJob < jobs.length && failure === null && !signal.aborted) {
        const i = nextJob++;
        try {
          outcomes[i] = await runJob(i);
        } catch (e) {
          // A slot wait that was aborted: the Assembly ended, or a sibling job failed it.
          if (signal.aborted) return;
          throw e;
        }
        // A failure ends the step at once, not when the jobs before it finish (one of them may hang).
        const done = outcomes[i]!;
        if (failure === null && i > nextToSettle && failsStep(done)) {
          failure = settle(i, done);
          stepAbort.abort();
        }
        while (failure === null && nextToSettle < jobs.length && outcomes[nextToSettle] !== undefined) {
          const ended = settle(nextToSettle, outcomes[nextToSettle]!);
          outcomes[nextToSettle++] = undefined;
          if (ended) {
            failure = ended;
            stepAbort.abort(); // the jobs still running stop; their slots come back
          }
        }
      }
    };
    const parallel = Math.max(1, Math.min(ctx.parallelJobs ?? 1, jobs.length));
    await Promise.all(Array.from({ length: parallel }, worker));
    if (ctx.signal.aborted) return canceled();
    if (failure) return failure;

    const firstUnsuitable = unsuitable[0];
    if (firstUnsuitable && !firstUnsuitable.ok && unsuitable.length === jobs.length) {
      return {
        ok: false,
        code: firstUnsuitable.code,
        message: `Step "${name}" (${step.robot}) could use none of its ${inputs.length} input file(s). ${firstUnsuitable.what}: ${firstUnsuitable.message.replace(/\.$/, '')}.`,
        step: name,
        reason: firstUnsuitable.message,
      };
    }
    outputs.set(name, produced);
    stepsDoneFor.forEach((done) => done.add(index));
    Object.assign(stepProgress, { state: 'done', progress: 100 });
    progress(index + 1, 0);
  }
  return { ok: true };
}
