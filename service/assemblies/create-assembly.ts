import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../shared/api/codes';
import { authenticate } from '../auth/authenticate';
import { apiError, sendError, sendJson, type ApiError } from '../http/api-error';
import { newFileId, readFormBody, type ReceivedFile } from '../http/form-body';
import type { RateLimiter } from '../http/rate-limiter';
import { validateInstructions } from '../instructions/validate-instructions';
import type { ServiceDatabase } from '../store/database';
import type { AssemblyRuntime } from './assembly-runtime';
import { OK_MESSAGES, maskSecrets, statusDate, type AssemblyState } from './assembly-state';

export interface CreateContext {
  db: ServiceDatabase;
  runtime: AssemblyRuntime;
  rateLimiter: RateLimiter;
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

function baseState(id: string, req: IncomingMessage, nowMs: number): Omit<AssemblyState, 'authKey' | 'params' | 'steps' | 'fields' | 'emitExecutionProgress' | 'maxSize' | 'maxNumberOfFiles' | 'expectedTusUploads'> {
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

/** POST /assemblies and POST /assemblies/{id}: multipart files and/or announced tus uploads. */
export async function createAssembly(ctx: CreateContext, req: IncomingMessage, res: ServerResponse, chosenId: string | null, query: URLSearchParams): Promise<void> {
  if (chosenId && ctx.runtime.exists(chosenId)) {
    req.resume();
    sendError(res, apiError(ErrorCode.doNotReuseIds, `Assembly id ${chosenId} was already used. Generate a new id for each Assembly.`, 400));
    return;
  }
  const id = chosenId ?? newFileId();
  const uploadDir = join(ctx.runtime.assemblyDir(id), 'uploads');
  const body = await readFormBody(req, uploadDir);
  const discard = (): Promise<void> => rm(ctx.runtime.assemblyDir(id), { recursive: true, force: true });
  if (body.kind === 'invalid') {
    await discard();
    sendError(res, apiError(ErrorCode.invalidFormData, body.message, 400));
    return;
  }
  const fields: Record<string, string> = { ...Object.fromEntries(query), ...body.fields };
  const nowMs = Date.now();
  const auth = authenticate({
    params: fields.params,
    signature: fields.signature,
    referer: typeof req.headers.referer === 'string' ? req.headers.referer : undefined,
    nowMs,
    findAccount: (k) => ctx.db.getAccount(k),
    rememberNonce: (k, n, exp) => ctx.db.rememberNonce(k, n, exp, nowMs),
  });
  if (!auth.ok) {
    await discard();
    if (body.kind === 'complete') sendError(res, auth.error);
    return;
  }
  const { params, rawParams, account } = auth.value;
  const state: AssemblyState = {
    ...baseState(id, req, nowMs),
    authKey: account.authKey,
    params: maskSecrets(rawParams),
    steps: (isObject(params.steps) ? params.steps : {}) as AssemblyState['steps'],
    fields: mergeFields(params, fields),
    emitExecutionProgress: params.emit_execution_progress === true,
    maxSize: auth.value.maxSize,
    maxNumberOfFiles: auth.value.maxNumberOfFiles,
    expectedTusUploads: 0,
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
  const problem = validateInstructions(params.steps);
  if (problem) {
    await discard();
    sendError(res, apiError(problem.code, problem.message, 400, problem.step ? { step: problem.step } : undefined));
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
  const created = await ctx.runtime.create(state, body.files.map((f: ReceivedFile) => ({ localPath: f.localPath, name: f.name, field: f.field, id: f.fileId })));
  if (!created) {
    await discard();
    sendError(res, apiError(ErrorCode.doNotReuseIds, `Assembly id ${id} was already used. Generate a new id for each Assembly.`, 400));
    return;
  }
  sendJson(res, 200, ctx.runtime.status(ctx.runtime.get(id) ?? state));
}
