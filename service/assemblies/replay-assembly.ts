import { access } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../shared/api/codes';
import { authorizeRequest } from '../auth/authorize-request';
import { readFormFields } from '../http/form-fields';
import { apiError, sendError, sendJson, type ApiError } from '../http/api-error';
import { newFileId } from '../http/form-body';
import { validateInstructions } from '../instructions/validate-instructions';
import { findTemplate } from '../templates/template-routes';
import { mergeTemplateParams } from '../templates/template-merge';
import { TemplateError } from '../templates/template-record';
import { baseState, notifySettings, requestParamsOf, type CreateContext } from './create-assembly';
import { isRunning, maskSecrets, type AssemblyState } from './assembly-state';
import { assemblyUrl, updateStreamUrl, type ServiceUrls } from './status-record';

/** Real codes (service-facts.md §9, "replay"). */
export const ReplayError = {
  notFinished: 'ASSEMBLY_NOT_FINISHED',
  cannotBeReplayed: 'ASSEMBLY_CANNOT_BE_REPLAYED',
  /** Bad replay params (`reparse_template`, `fields`, `template_id` of the wrong type). */
  notReplayed: 'ASSEMBLY_NOT_REPLAYED',
} as const;

export const REPLAYING_MESSAGE = 'The Assembly is now in the process of being replayed.';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface ReplayPlan {
  /** The params the new Assembly runs with (Template merged). */
  params: Record<string, unknown>;
  /** The request's own params (before the Template), for a later replay. */
  requestParams: Record<string, unknown>;
  template: { id: string; name: string; content: unknown } | null;
}

/** `reparse_template`: 0 (default) or 1; also "0"/"1" and booleans from form-encoded SDKs. */
function reparseFlag(v: unknown): boolean | null {
  if (v === undefined || v === null || v === '' || v === 0 || v === '0' || v === false) return false;
  if (v === 1 || v === '1' || v === true) return true;
  return null;
}

/**
 * What a replay runs (service-facts.md §7 "Replay"): the original request with `steps` replaced, `fields`
 * merged over the original's and `notify_url` replaced when given. A Template is merged under it: with
 * `reparse_template: 0` the content the original ran with, with 1 (or another `template_id`) the Template
 * as it is now. Pure apart from the Template lookup.
 */
export function planReplay(original: AssemblyState, p: Record<string, unknown>, lookup: (id: string) => { id: string; name: string; content: unknown } | null): ReplayPlan | ApiError {
  const reparse = reparseFlag(p.reparse_template);
  if (reparse === null) return apiError(ReplayError.notReplayed, `reparse_template must be 0 or 1 (got ${JSON.stringify(p.reparse_template)}).`, 400);
  if (p.steps !== undefined && p.steps !== null && !isObject(p.steps)) return apiError(ErrorCode.invalidSteps, 'steps must be an object of steps.', 400);
  if (p.fields !== undefined && p.fields !== null && !isObject(p.fields)) return apiError(ReplayError.notReplayed, 'fields must be an object.', 400);
  if (p.template_id !== undefined && p.template_id !== null && p.template_id !== '' && typeof p.template_id !== 'string') {
    return apiError(TemplateError.noTemplateId, 'template_id must be a string.', 400);
  }
  let base: Record<string, unknown>;
  if (original.requestParams) base = { ...original.requestParams };
  else {
    try {
      base = requestParamsOf(JSON.parse(original.params) as Record<string, unknown>);
    } catch {
      base = {};
    }
  }
  // Without a Template the steps ran are the request's own (kept unmasked in `steps`).
  if (!original.templateId) base.steps = original.steps;
  const request: Record<string, unknown> = { ...base, fields: { ...original.fields, ...(isObject(p.fields) ? p.fields : {}) } };
  if (isObject(p.steps)) request.steps = p.steps;
  if (p.notify_url !== undefined) request.notify_url = p.notify_url;
  // A replay may ask for execution progress the original did not (an app following it live).
  if (p.emit_execution_progress !== undefined) request.emit_execution_progress = p.emit_execution_progress === true;
  const newTemplateId = typeof p.template_id === 'string' && p.template_id !== '' ? p.template_id : null;
  if (newTemplateId !== null) request.template_id = newTemplateId;
  // "Run it with another Template": that Template's steps, unless the replay brings its own.
  if (newTemplateId !== null && newTemplateId !== original.templateId && !isObject(p.steps)) delete request.steps;
  const templateId = newTemplateId ?? original.templateId ?? null;
  if (templateId === null) return { params: request, requestParams: request, template: null };
  let template: ReplayPlan['template'];
  if (reparse || templateId !== original.templateId || original.templateContent === undefined) {
    template = lookup(templateId);
    if (!template) return apiError(TemplateError.notFound, `No Template with id ${templateId} was found.`, 404, { template_id: templateId });
  } else {
    template = { id: templateId, name: original.templateName ?? '', content: JSON.parse(original.templateContent) as unknown };
  }
  const merged = mergeTemplateParams(template.content, request);
  if (!merged.ok) return merged.error;
  return { params: merged.params, requestParams: request, template };
}

export interface ReplayContext extends CreateContext {
  urls: ServiceUrls;
}

/** params and signature from the body (over the query), authenticated; signature required (spec: "required"). */
export async function authorizedFields(ctx: Pick<CreateContext, 'db'>, req: IncomingMessage, query: URLSearchParams): Promise<{ params: Record<string, unknown>; authKey: string } | ApiError> {
  const body = await readFormFields(req);
  if (!body.ok) return apiError(ErrorCode.invalidFormData, body.message, body.httpCode);
  const auth = authorizeRequest(ctx.db, req, { ...Object.fromEntries(query), ...body.fields }, true);
  return auth.ok ? { params: auth.value.params, authKey: auth.value.account.authKey } : auth.error;
}

/** POST /assemblies/{id}/replay: signature (or Bearer `assemblies:write`) required; a new Assembly over the same inputs. */
export async function replayAssembly(ctx: ReplayContext, req: IncomingMessage, res: ServerResponse, id: string, query: URLSearchParams): Promise<void> {
  const auth = await authorizedFields(ctx, req, query);
  if ('code' in auth) return sendError(res, auth);
  const original = ctx.runtime.get(id);
  if (!original) return sendError(res, apiError(ErrorCode.assemblyNotFound, `Assembly ${id} was not found.`, 404, { assembly_id: id }));
  if (isRunning(original)) {
    return sendError(res, apiError(ReplayError.notFinished, `Assembly ${id} is still ${original.ok === 'ASSEMBLY_UPLOADING' ? 'uploading' : 'executing'}: replay it once it has ended.`, 400, { assembly_id: id }));
  }
  if (original.ok === 'REQUEST_ABORTED' && !original.error) {
    return sendError(res, apiError(ReplayError.cannotBeReplayed, `Assembly ${id} never received its whole request (REQUEST_ABORTED): there is nothing to replay.`, 400, { assembly_id: id }));
  }
  for (const u of original.uploads) {
    try {
      await access(u.file.localPath);
    } catch {
      return sendError(res, apiError(ReplayError.cannotBeReplayed, `The input "${u.file.name}" of Assembly ${id} is no longer stored.`, 400, { assembly_id: id }));
    }
  }
  const plan = planReplay(original, auth.params, (tid) => findTemplate(ctx.templates, tid));
  if ('code' in plan) return sendError(res, plan);
  const steps = plan.params.steps;
  const problem = validateInstructions(steps, { modelServer: Boolean(ctx.runtime.chat?.(auth.authKey).config.endpoint) });
  if (problem) return sendError(res, apiError(problem.code, problem.message, 400, problem.step ? { step: problem.step } : undefined));
  const notify = notifySettings(plan.params, ctx.notifyAllowedHosts ?? [], ctx.notifyAddressPolicy);
  if ('code' in notify) return sendError(res, notify);
  const nowMs = Date.now();
  const retryIn = ctx.rateLimiter.take(nowMs);
  if (retryIn > 0) return sendError(res, apiError(ErrorCode.rateLimit, 'Request limit reached', 413, { info: { retryIn } }));
  // The key that asked for the replay signs its notifications.
  const authKey = auth.authKey;
  const newId = newFileId();
  const bytes = original.uploads.reduce((n, u) => n + u.file.size, 0);
  const state: AssemblyState = {
    ...baseState(newId, req, nowMs),
    authKey,
    params: original.params,
    mergedParams: maskSecrets(JSON.stringify(plan.params)),
    steps: steps as AssemblyState['steps'],
    fields: isObject(plan.params.fields) ? plan.params.fields : {},
    emitExecutionProgress: plan.params.emit_execution_progress === true,
    maxSize: original.maxSize,
    maxNumberOfFiles: original.maxNumberOfFiles,
    expectedTusUploads: 0,
    bytesReceived: bytes,
    bytesExpected: bytes,
    parentId: original.id,
    requestParams: plan.requestParams,
    ...notify,
    ...(plan.template ? { templateId: plan.template.id, templateName: plan.template.name, templateContent: JSON.stringify(plan.template.content) } : {}),
  };
  if (!(await ctx.runtime.create(state, { described: original.uploads.map((u) => u.file) }))) {
    return sendError(res, apiError(ReplayError.notReplayed, 'The replay could not be stored; try again.', 500));
  }
  const url = assemblyUrl(ctx.urls, newId);
  sendJson(res, 200, {
    ok: 'ASSEMBLY_REPLAYING',
    message: REPLAYING_MESSAGE,
    success: true,
    assembly_id: newId,
    parent_id: original.id,
    assembly_url: url,
    assembly_ssl_url: url,
    update_stream_url: updateStreamUrl(ctx.urls, newId),
    notify_url: notify.notifyUrl,
  });
}
