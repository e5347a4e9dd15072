import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../shared/api/codes';
import { authenticate, type AuthedParams } from '../auth/authenticate';
import { apiError, sendError, sendJson, type ApiError } from '../http/api-error';
import { newFileId, readFormBody, type ReceivedFile } from '../http/form-body';
import type { RateLimiter } from '../http/rate-limiter';
import { INSTRUCTION_LIMITS, jsonTextTooDeep } from '../instructions/instruction-limits';
import { validateInstructions, whereOf } from '../instructions/validate-instructions';
import { limitValue } from '../auth/authenticate';
import { findTemplate } from '../templates/template-routes';
import { mergeTemplateParams } from '../templates/template-merge';
import { TemplateError } from '../templates/template-record';
import type { TemplateStore } from '../templates/template-store';
import type { TemplateRow } from '../templates/template-record';
import type { ServiceDatabase } from '../store/database';
import type { AssemblyRuntime } from './assembly-runtime';
import { OK_MESSAGES, maskSecrets, statusDate, type AssemblyState } from './assembly-state';
import { bearerOf, tokenLookup } from '../auth/bearer';
import type { TestFaults } from '../files/test-faults';
import { checkNotifyUrl, INVALID_NOTIFY_URL, type AllowedHosts } from '../notifications/notify-url';
import type { AddressPolicy } from '../notifications/notify-address';
import { parseNotificationPayload } from '../notifications/notify-payload';

/** Ours: a `notification_payload` that is not a list of the four known values (400). */
export const INVALID_NOTIFICATION_PAYLOAD = 'ASSEMBLY_INVALID_NOTIFICATION_PAYLOAD';

export interface CreateContext {
  db: ServiceDatabase;
  runtime: AssemblyRuntime;
  rateLimiter: RateLimiter;
  templates: TemplateStore;
  /** How long a body may take to bring its params and signature (default BODY_LIMITS.unauthenticatedMs). */
  admitWithinMs?: number;
  /** File parts one body may carry (default BODY_LIMITS.files). */
  maxFileParts?: number;
  /** Test-only faults (service/files/test-faults.ts); none unless a test turned them on. */
  faults?: TestFaults;
  /** Hosts notify_url may name (`--notify-allow-hosts`); empty or absent = any. */
  notifyAllowedHosts?: AllowedHosts;
  /** The account setting "Require a correct Signature" (`--require-signature`; the embedded service: always). */
  requireSignature?: boolean;
  /** Which addresses notify_url may name (`--notify-allow-private-networks`); see notify-address.ts. */
  notifyAddressPolicy?: AddressPolicy;
}

/** notify_url and notification_payload of the params an Assembly runs with (after any Template). */
export function notifySettings(params: Record<string, unknown>, allowed: AllowedHosts, policy: AddressPolicy = {}): { notifyUrl: string | null; notificationPayload: string[] } | ApiError {
  const notify = checkNotifyUrl(params.notify_url, allowed, policy);
  if ('problem' in notify) return apiError(INVALID_NOTIFY_URL, notify.problem, 400);
  const payload = parseNotificationPayload(params.notification_payload);
  if (typeof payload === 'string') return apiError(INVALID_NOTIFICATION_PAYLOAD, payload, 400);
  return { notifyUrl: notify.url, notificationPayload: payload };
}

/** The request's own params without `auth`, kept (unmasked, never shown) for replays that re-read the Template. */
export function requestParamsOf(params: Record<string, unknown>): Record<string, unknown> {
  const { auth: _auth, ...rest } = params;
  return rest;
}

const RESERVED_FIELDS = new Set(['params', 'signature', 'num_expected_upload_files', 'tus_num_expected_upload_files']);
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `num_expected_upload_files` or `tus_num_expected_upload_files` (both spellings exist, §6): an integer >= 0. */
export function expectedUploads(fields: Record<string, string>): number | ApiError {
  const raw = fields.num_expected_upload_files ?? fields.tus_num_expected_upload_files;
  if (raw === undefined || raw.trim() === '') return 0;
  if (!/^\s*\d+\s*$/.test(raw)) {
    return apiError(ErrorCode.invalidNumExpected, `Your 'num_expected_upload_files' parameter value is invalid ("${raw}"). It must be a number greater than or equal zero.`, 400);
  }
  return Number(raw);
}

/** params.fields, overridden by the other form fields of the request. */
export function mergeFields(params: Record<string, unknown>, form: Record<string, string>): Record<string, unknown> {
  const fromParams = isObject(params.fields) ? params.fields : {};
  const fromForm = Object.fromEntries(Object.entries(form).filter(([k]) => !RESERVED_FIELDS.has(k)));
  return { ...fromParams, ...fromForm };
}

export function baseState(id: string, req: IncomingMessage, nowMs: number): Omit<AssemblyState, 'authKey' | 'params' | 'steps' | 'fields' | 'emitExecutionProgress' | 'maxSize' | 'maxNumberOfFiles' | 'expectedTusUploads'> {
  const header = (name: string): string | null => {
    const v = req.headers[name];
    return typeof v === 'string' ? v : null;
  };
  return {
    id,
    ok: 'ASSEMBLY_UPLOADING',
    error: null,
    message: OK_MESSAGES.ASSEMBLY_UPLOADING,
    startDate: statusDate(nowMs),
    createdAtMs: nowMs,
    uploadFinishedAtMs: null,
    executionStart: null,
    executionStartMs: null,
    executionDurationS: null,
    bytesReceived: 0,
    bytesExpected: Number(req.headers['content-length'] ?? 0) || 0,
    startedTusUploads: 0,
    finishedTusUploads: 0,
    tusUploads: [],
    uploads: [],
    results: {},
    warnings: [],
    client: {
      transloadit_client: header('transloadit-client'),
      client_agent: header('user-agent'),
      client_ip: req.socket.remoteAddress ?? null,
      client_referer: header('referer'),
    },
    progressCombined: 0,
  };
}

/**
 * `template_id` in params: the Template's content with the request merged over it (service-facts.md §8).
 * The signature covered the request's own params only; the Template is never part of what is signed.
 */
export function applyTemplate(
  templates: TemplateStore,
  params: Record<string, unknown>,
  signed: boolean,
  nowMs: number,
): { params: Record<string, unknown>; template: TemplateRow | null } | ApiError {
  const id = params.template_id;
  if (id === undefined || id === null || id === '') return { params, template: null };
  if (typeof id !== 'string') return apiError(TemplateError.noTemplateId, 'template_id must be a string.', 400);
  const template = findTemplate(templates, id);
  if (!template) return apiError(TemplateError.notFound, `No Template with id ${id} was found.`, 404, { template_id: id });
  if (template.requireSignatureAuth === 1 && !signed) {
    return apiError(ErrorCode.noSignatureField, `The Template ${id} requires signature authentication: send a signature with params.`, 401);
  }
  const merged = mergeTemplateParams(template.content, params);
  if (!merged.ok) return merged.error;
  if (!template.builtinVersion) templates.touch(template.id, nowMs);
  return { params: merged.params, template };
}

/** `auth.max_size` / `auth.max_number_of_files` set in the Template (the request's own win when given). */
function templateLimit(params: Record<string, unknown>, key: 'max_size' | 'max_number_of_files', min: number, integer: boolean): number | null {
  const auth = isObject(params.auth) ? params.auth : {};
  const v = limitValue(auth[key], min, integer);
  return v === undefined || Number.isNaN(v) ? null : v;
}

interface Admitted {
  auth: AuthedParams;
  params: Record<string, unknown>;
  template: TemplateRow | null;
  notify: { notifyUrl: string | null; notificationPayload: string[] };
}

/**
 * Everything that can be decided from `params` and `signature` alone: authentication, the Template and
 * the instructions. Runs before the first file part is accepted, so a refused request costs no disk.
 */
function admitRequest(ctx: CreateContext, req: IncomingMessage, fields: Record<string, string>, nowMs: number): Admitted | ApiError {
  if (fields.params !== undefined && jsonTextTooDeep(fields.params)) {
    return apiError(ErrorCode.invalidParams, `The params field nests deeper than ${INSTRUCTION_LIMITS.jsonDepth} levels of arrays and objects.`, 400);
  }
  const auth = authenticate({
    params: fields.params,
    signature: fields.signature,
    referer: typeof req.headers.referer === 'string' ? req.headers.referer : undefined,
    nowMs,
    findAccount: (k) => ctx.db.getAccount(k),
    rememberNonce: (k, n, exp) => ctx.db.rememberNonce(k, n, exp, nowMs),
    bearer: bearerOf(req),
    findToken: tokenLookup(ctx.db),
    requiredScope: 'assemblies:write',
    accountRequiresSignature: ctx.requireSignature === true,
  });
  if (!auth.ok) {
    if (auth.error.code === ErrorCode.noParams) return { ...auth.error, message: `${auth.error.message} It must come before any file part.` };
    return auth.error;
  }
  ctx.db.touchAccount(auth.value.account.authKey, nowMs);
  // A valid Bearer token counts as signature authentication (spec "Bearer tokens").
  const withTemplate = applyTemplate(ctx.templates, auth.value.params, Boolean(fields.signature) || bearerOf(req) !== null, nowMs);
  if ('code' in withTemplate) return withTemplate;
  const problem = validateInstructions(withTemplate.params.steps, { modelServer: Boolean(ctx.runtime.chat?.(auth.value.account.authKey).config.endpoint) });
  if (problem) return apiError(problem.code, problem.message, 400, whereOf(problem));
  const notify = notifySettings(withTemplate.params, ctx.notifyAllowedHosts ?? [], ctx.notifyAddressPolicy);
  if ('code' in notify) return notify;
  return { auth: auth.value, ...withTemplate, notify };
}

/** POST /assemblies and POST /assemblies/{id}: multipart files and/or announced tus uploads. */
export async function createAssembly(ctx: CreateContext, req: IncomingMessage, res: ServerResponse, chosenId: string | null, query: URLSearchParams): Promise<void> {
  // A chosen id is taken from the first byte: a second request with it (a late retry) is refused at once,
  // even while the first is still being received.
  if (chosenId && !ctx.runtime.claim(chosenId)) {
    req.resume();
    sendError(res, apiError(ErrorCode.doNotReuseIds, `Assembly id ${chosenId} was already used. Generate a new id for each Assembly.`, 400));
    return;
  }
  try {
    await receiveAssembly(ctx, req, res, chosenId ?? newFileId(), query);
  } finally {
    if (chosenId) ctx.runtime.release(chosenId);
  }
}

async function receiveAssembly(ctx: CreateContext, req: IncomingMessage, res: ServerResponse, id: string, query: URLSearchParams): Promise<void> {
  const uploadDir = join(ctx.runtime.assemblyDir(id), 'uploads');
  const nowMs = Date.now();
  let admitted: Admitted | null = null;
  const body = await readFormBody(req, {
    uploadDir,
    admitWithinMs: ctx.admitWithinMs,
    maxFileParts: ctx.maxFileParts,
    corrupt: (name) => ctx.faults?.takeCorrupt(name) ?? false,
    admit: (bodyFields) => {
      const result = admitRequest(ctx, req, { ...Object.fromEntries(query), ...bodyFields }, nowMs);
      if ('code' in result) return result;
      admitted = result;
      return null;
    },
  });
  const discard = (): Promise<void> => rm(ctx.runtime.assemblyDir(id), { recursive: true, force: true });
  if (body.kind === 'invalid') {
    await discard();
    sendError(res, apiError(ErrorCode.invalidFormData, body.message, 400));
    return;
  }
  if (body.kind === 'refused' || admitted === null) {
    await discard();
    if (body.kind === 'refused') sendError(res, body.error);
    return;
  }
  const { auth, params, template, notify } = admitted as Admitted;
  const { rawParams, account } = auth;
  const fields: Record<string, string> = { ...Object.fromEntries(query), ...body.fields };
  const state: AssemblyState = {
    ...baseState(id, req, nowMs),
    authKey: account.authKey,
    params: maskSecrets(rawParams),
    steps: (isObject(params.steps) ? params.steps : {}) as AssemblyState['steps'],
    fields: mergeFields(params, fields),
    emitExecutionProgress: params.emit_execution_progress === true,
    maxSize: auth.maxSize ?? templateLimit(params, 'max_size', 0, false),
    maxNumberOfFiles: auth.maxNumberOfFiles ?? templateLimit(params, 'max_number_of_files', 1, true),
    expectedTusUploads: 0,
    ...notify,
    requestParams: requestParamsOf(auth.params),
    ...(template ? { templateId: template.id, templateName: template.name, templateContent: JSON.stringify(template.content), mergedParams: maskSecrets(JSON.stringify(params)) } : {}),
  };
  const fileBytes = body.files.reduce((n, f) => n + f.size, 0);
  // A complete multipart body counts whole (the spec's max_size includes request-body overhead).
  state.bytesReceived = body.kind === 'complete' ? Math.max(fileBytes, state.bytesExpected) : fileBytes;
  if (body.kind === 'complete' && state.bytesExpected === 0) state.bytesExpected = state.bytesReceived;

  if (body.kind === 'aborted') {
    // The connection dropped mid-body: keep a record of it, as the real service does.
    state.ok = 'REQUEST_ABORTED';
    state.message = OK_MESSAGES.REQUEST_ABORTED;
    await ctx.runtime.create(state, []);
    await rm(uploadDir, { recursive: true, force: true });
    return;
  }
  const expected = expectedUploads(fields);
  if (typeof expected !== 'number') {
    await discard();
    sendError(res, expected);
    return;
  }
  const retryIn = ctx.rateLimiter.take(nowMs);
  if (retryIn > 0) {
    await discard();
    sendError(res, apiError(ErrorCode.rateLimit, 'Request limit reached', 413, { info: { retryIn } }));
    return;
  }
  state.expectedTusUploads = expected;
  const created = await ctx.runtime.create(state, body.files.map((f: ReceivedFile) => ({ localPath: f.localPath, name: f.name, field: f.field, id: f.fileId, digests: f.digests, head: f.head, size: f.size })));
  if (!created) {
    await discard();
    sendError(res, apiError(ErrorCode.doNotReuseIds, `Assembly id ${id} was already used. Generate a new id for each Assembly.`, 400));
    return;
  }
  sendJson(res, 200, ctx.runtime.status(ctx.runtime.get(id) ?? state));
}
