// Runs a Template on one CDN input, the way a Smart CDN does (docs/local-service.md "Signed
// content-delivery URLs"): the input is the Template's `:original`, the URL's parameters are its fields
// (`${fields.w}`), and `${fields.input}` is the input's path. No Assembly record is made.

import { createHash } from 'node:crypto';
import { copyFile, link, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AssetAccess, CredentialLookup } from '../robots/robot-types';
import { executeSteps, CANCELED_CODE } from '../robots/execute-steps';
import { describeUpload, digestFile, newFileId, type StoredFile } from '../robots/file-record';
import type { JobSlots } from '../queue/job-slots';
import { ORIGINAL_STEP } from '../instructions/known-robots';
import { mergeTemplateParams } from '../templates/template-merge';
import type { TemplateRow } from '../templates/template-record';
import { safeFileName } from '../files/safe-name';
import { smartCdnProblems } from '../../shared/api/smart-cdn-rules';

/** What a CDN URL's `{input}` names, found: bytes on disk, a file name, and the bytes' hash. */
export interface CdnInput {
  localPath: string;
  name: string;
  sha256: string;
  /** `${fields.input}`: the path as the URL gave it, with a leading `/` (service-facts §2). */
  path: string;
}

export interface CdnFound {
  assemblyFile(assemblyId: string, name: string): StoredFile | null;
  assets?: AssetAccess;
}

/**
 * `{input}` → the bytes it names: a stored asset's path in the workspace (`photos/cat.jpg`, what a Smart
 * CDN reads from storage), else `<assembly_id>/<file name>` (a result or upload of an Assembly). Null: none.
 */
export async function resolveCdnInput(found: CdnFound, input: string): Promise<CdnInput | null> {
  const path = `/${input.replace(/^\/+/, '')}`;
  const asset = found.assets?.store.byPath(found.assets.workspace, input.replace(/^\/+/, ''));
  if (asset) return { localPath: found.assets!.store.blobPath(asset.sha256), name: asset.filename, sha256: asset.sha256, path };
  const m = /^([0-9a-f]{32})\/(.+)$/.exec(input);
  const file = m ? found.assemblyFile(m[1]!, m[2]!) : null;
  if (!file) return null;
  // Records written before sha256 existed: hash the bytes once (the cache key needs them).
  const sha256 = file.sha256 ?? (await digestFile(file.localPath).catch(() => null))?.sha256;
  return sha256 ? { localPath: file.localPath, name: file.name, sha256, path } : null;
}

/** A hash of the Template's content: the cache forgets results of a Template that was edited. Pure. */
export const templateRevision = (t: TemplateRow): string => createHash('sha256').update(JSON.stringify(t.content) ?? 'null').digest('hex').slice(0, 32);

export interface CdnRunOptions {
  template: TemplateRow;
  input: CdnInput;
  /** The URL's parameters (without the signing ones); a repeated key gives a list. */
  fields: Record<string, string | string[]>;
  /** An empty folder of its own. */
  workDir: string;
  slots?: JobSlots;
  assets?: AssetAccess;
  credentials?: CredentialLookup;
  timeoutMs: number;
}

export type CdnRunOutcome =
  | { ok: true; file: StoredFile }
  | { ok: false; code: string; message: string; httpCode: number; step?: string };

const CDN_TIMEOUT = 'CDN_TEMPLATE_TIMEOUT';

type CdnRefusal = Extract<CdnRunOutcome, { ok: false }>;

/**
 * Whether the Smart CDN may run this Template at all, decided before anything runs: it has steps, and
 * they keep to the Smart CDN's robot allow-list and step limit (shared/api/smart-cdn-rules.ts). The
 * first problem, or the Template's merged params.
 */
export function checkCdnTemplate(template: TemplateRow): { ok: true; params: Record<string, unknown>; steps: Record<string, unknown> } | CdnRefusal {
  const merged = mergeTemplateParams(template.content, {});
  if (!merged.ok) return { ok: false, code: merged.error.code, message: merged.error.message, httpCode: 422 };
  const steps = merged.params.steps;
  if (typeof steps !== 'object' || steps === null || Array.isArray(steps)) {
    return { ok: false, code: 'CDN_TEMPLATE_NO_STEPS', message: `The Template "${template.name}" has no steps to run.`, httpCode: 422 };
  }
  const [problem] = smartCdnProblems(steps);
  if (problem) return { ok: false, code: problem.code, message: `The Template "${template.name}" cannot run on the Smart CDN (${problem.rule}): ${problem.message}`, httpCode: 422, step: problem.step };
  return { ok: true, params: merged.params, steps: steps as Record<string, unknown> };
}

/**
 * How long caches may keep what a Template serves, from its `/file/serve` step's `cache_duration`
 * (seconds, a plain whole number); null when it has none (the CDN's default applies). Pure.
 */
export function serveCacheSeconds(steps: Record<string, unknown>): number | null {
  for (const step of Object.values(steps)) {
    if (typeof step !== 'object' || step === null || (step as { robot?: unknown }).robot !== '/file/serve') continue;
    const v = (step as { cache_duration?: unknown }).cache_duration;
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : Number.NaN;
    if (Number.isInteger(n) && n >= 0) return n;
  }
  return null;
}

/** The steps run and the file served: the first result of the last step that reports results. */
export async function runCdnTemplate(o: CdnRunOptions): Promise<CdnRunOutcome> {
  const checked = checkCdnTemplate(o.template);
  if (!checked.ok) return checked;
  const { params, steps } = checked;
  const templateFields = typeof params.fields === 'object' && params.fields !== null ? (params.fields as Record<string, unknown>) : {};
  const fields = { ...templateFields, ...o.fields, input: o.input.path };

  // The input as the Template's upload: a hard link (else a copy) so the robots never touch the original.
  const id = newFileId();
  const inDir = join(o.workDir, 'input');
  await mkdir(inDir, { recursive: true });
  const localPath = join(inDir, safeFileName(o.input.name));
  await link(o.input.localPath, localPath).catch(() => copyFile(o.input.localPath, localPath));
  const upload = await describeUpload({ localPath, name: o.input.name, id, field: 'file' });

  const typed = steps as Record<string, { robot: string; use?: unknown }>;
  const produced = new Map<string, StoredFile[]>();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), o.timeoutMs);
  // A job-slot "Assembly" of its own, so CDN work waits its turn beside Assemblies (never hidden from the pool).
  const runId = newFileId();
  o.slots?.enter(runId);
  try {
    const outcome = await executeSteps({
      assemblyId: runId,
      steps: typed,
      uploads: [upload],
      fields,
      workDir: join(o.workDir, 'steps'),
      signal: abort.signal,
      onResult: (step, file) => produced.set(step, [...(produced.get(step) ?? []), file]),
      credentials: o.credentials,
      assets: o.assets,
      ...(o.slots
        ? {
            parallelJobs: 1,
            acquireSlot: async (job, signal) => (await o.slots!.acquire({ assemblyId: runId, ...job }, signal)).release,
          }
        : {}),
    });
    if (!outcome.ok) {
      if (outcome.code === CANCELED_CODE) return { ok: false, code: CDN_TIMEOUT, message: `The Template "${o.template.name}" took longer than ${Math.round(o.timeoutMs / 1000)} s.`, httpCode: 504 };
      const where = outcome.step ? ` at step "${outcome.step}"` : '';
      return { ok: false, code: outcome.code, message: `The Template "${o.template.name}" failed${where}: ${outcome.message}`, httpCode: 422, ...(outcome.step ? { step: outcome.step } : {}) };
    }
  } finally {
    clearTimeout(timer);
    o.slots?.leave(runId);
  }
  // Only `:original`: nothing to make, the input is served as it is (e.g. builtin/store-originals).
  if (Object.keys(typed).every((name) => name === ORIGINAL_STEP)) return { ok: true, file: upload };
  // Steps run in `use` order and only reporting steps call onResult: the last key is the last such step.
  const last = [...produced.keys()].at(-1);
  const file = last ? produced.get(last)![0] : undefined;
  if (!file) return { ok: false, code: 'CDN_NO_RESULT', message: `The Template "${o.template.name}" made no file from "${o.input.name}" (its steps skipped or declined it).`, httpCode: 422 };
  return { ok: true, file };
}
