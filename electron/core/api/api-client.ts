import { assemblyStatusSchema, type AssemblyStatus } from '../../../shared/api/assembly-status';
import type { Instructions } from '../../../shared/api/instructions';
import { requiredScope } from '../../../shared/api/required-scope';
import { AppErrorCode, err, ok, type AppError, type Result } from '../../../shared/result';
import { CLOCK_CODES, clockRefusalMessage, createServerClock, type ServerClock } from '../net/server-clock';
import { SYSTEM_TRANSPORT, tlsProblem, type Transport } from '../net/transport';
import { multipartStream, type StreamedPart } from './multipart-stream';
import { buildParams, signParams, type SignatureAlgo } from './sign-params';

export interface ApiClientOptions {
  /** Base URL without a trailing slash, e.g. `https://api2.transloadit.com` or the local service's URL. */
  endpoint: string;
  authKey: string;
  /** The Auth Secret, read from the vault per request; null sends unsigned requests. */
  getSecret: () => Promise<string | null>;
  signatureAlgo?: SignatureAlgo;
  /**
   * Bearer mode: a token holding `scope` (the scope this request needs, null when it needs none). With
   * `renew`, the cached one was refused and a fresh one is wanted. Requests then carry no signature.
   */
  getBearer?: (scope: string | null, renew: boolean) => Promise<Result<string>>;
  fetch?: typeof fetch;
  /** The workspace's trust (its CA file, net/transport.ts): its fetch serves when `fetch` is absent. */
  transport?: Transport;
  clock?: () => number;
  /**
   * The deployment's time (net/server-clock.ts), shared with the workspace's token minting: signatures
   * expire by it, and every answer's Date corrects it. Default: one over `clock`.
   */
  serverClock?: ServerClock;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
  maxRetries?: number;
  timeoutMs?: number;
}

export interface UploadField {
  field: string;
  name: string;
  data: Blob;
}

export interface CreateAssemblyInput {
  instructions: Instructions;
  expectedUploads: number;
  /** Small files sent in the POST itself (multipart); big ones go through tus. */
  files?: UploadField[];
  /** Files streamed from disk in the POST (the transfer engine: read and hashed as they are sent). */
  streamFiles?: StreamedPart[];
  /** More form fields (they override params.fields), e.g. the transfer engine's batch marker. */
  fields?: Record<string, string>;
  /** Retries of 413 RATE_LIMIT_REACHED / 429 inside this call (default 5); the transfer engine paces itself and passes 0. */
  retries?: number;
  /**
   * A client-chosen id (32 lowercase hex): POST /assemblies/{id} ("Create Assembly With Id", as the Node SDK
   * does). The service creates at most one Assembly per id and refuses a second with DO_NOT_REUSE_ASSEMBLY_IDS.
   */
  assemblyId?: string;
}

export interface StatusFetchHooks {
  /** The deployment rate-limited the fetch (413 RATE_LIMIT_REACHED / 429): it is retried after `waitMs`. */
  onRateLimited?: (waitMs: number) => void;
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiClient {
  readonly endpoint: string;
  /**
   * How this workspace's requests reach its deployment (its CA file included): tus uploads, update streams
   * and result files use it too, whatever host they are on.
   */
  readonly transport: Transport;
  createAssembly(input: CreateAssemblyInput): Promise<Result<AssemblyStatus>>;
  /**
   * Unsigned GET of an absolute status URL (signatures are not supported on single-Assembly GET). A failed
   * Assembly's record (HTTP 200 with `error`) is a value here: it is that Assembly's final status.
   */
  getAssembly(url: string, hooks?: StatusFetchHooks): Promise<Result<AssemblyStatus>>;
  /** Signed DELETE of the Assembly URL; answers the status with `ASSEMBLY_CANCELED`. */
  cancelAssembly(url: string): Promise<Result<AssemblyStatus>>;
  /** Any other endpoint: `path` is relative to the endpoint, or an absolute URL. */
  request(
    method: HttpMethod,
    path: string,
    params?: Record<string, unknown>,
    fields?: Record<string, string>,
  ): Promise<Result<Record<string, unknown>>>;
  /**
   * A signed GET whose answer is not JSON (a stored asset's bytes): the open response, body unread, when
   * it is 2xx; the service's error (its code) otherwise.
   */
  openStream(path: string, params?: Record<string, unknown>, timeoutMs?: number): Promise<Result<Response>>;
}

const DEFAULT_MAX_RETRIES = 5;
const ASSEMBLY_ID = /^[0-9a-f]{32}$/;
const CLIENT_HEADER = 'assemblyline:0.1.0';

export function createApiClient(options: ApiClientOptions): ApiClient {
  const endpoint = options.endpoint.replace(/\/+$/, '');
  const transport: Transport = options.transport ?? (options.fetch ? { fetch: options.fetch, ca: null } : SYSTEM_TRANSPORT);
  const doFetch = options.fetch ?? transport.fetch;
  const serverClock = options.serverClock ?? createServerClock(options.clock ?? Date.now);
  const clock = serverClock.now;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const maxRetries = options.maxRetries ?? DEFAULT_MAX_RETRIES;
  const timeoutMs = options.timeoutMs ?? 60_000;

  const resolveUrl = (path: string): string => (/^https?:\/\//i.test(path) ? path : `${endpoint}/${path.replace(/^\/+/, '')}`);

  /** Params and signature, rebuilt per attempt so each retry carries a fresh nonce and expiry. */
  async function signed(body: Record<string, unknown>): Promise<{ params: string; signature: string | null }> {
    if (options.getBearer) return { params: buildParams(body, { authKey: '', now: clock() }), signature: null };
    const params = buildParams(body, { authKey: options.authKey, now: clock() });
    const secret = await options.getSecret();
    return { params, signature: secret ? signParams(params, secret, options.signatureAlgo ?? 'sha384') : null };
  }

  /** The Authorization header of a request that needs `scope`, in Bearer mode. */
  async function bearerHeader(scope: string | null, renew: boolean): Promise<Result<Record<string, string>>> {
    if (!options.getBearer) return ok({});
    const token = await options.getBearer(scope, renew);
    return token.ok ? ok({ Authorization: `Bearer ${token.value}` }) : token;
  }
  const scopeOf = (method: HttpMethod, url: string): string | null => {
    try {
      return requiredScope(method, new URL(url).pathname);
    } catch {
      return null;
    }
  };

  /** `statusRecord`: a 2xx answer that is an Assembly status stays a value even when it carries `error`. */
  async function send(
    method: HttpMethod,
    build: () => Promise<{ url: string; init?: RequestInit }>,
    statusRecord = false,
    retries = maxRetries,
    onRateLimited?: (waitMs: number) => void,
  ): Promise<Result<Record<string, unknown>>> {
    let renewed = false;
    let reclocked = false;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      let url = '';
      let bearer = false;
      const offsetBefore = serverClock.offsetMs();
      const sentAt = serverClock.local();
      try {
        const built = await build();
        url = built.url;
        const auth = statusRecord && method === 'GET' ? ok({}) : await bearerHeader(scopeOf(method, url), renewed);
        if (!auth.ok) return auth;
        bearer = 'Authorization' in auth.value;
        response = await doFetch(url, {
          ...built.init,
          method,
          headers: { Accept: 'application/json', 'Transloadit-Client': CLIENT_HEADER, ...auth.value, ...(built.init?.headers as Record<string, string> | undefined) },
          signal: AbortSignal.timeout(timeoutMs),
        });
      } catch (cause) {
        return err(tlsProblem(cause, url)?.code ?? AppErrorCode.network, networkMessage(url, cause));
      }
      serverClock.observe(response.headers.get('date'), sentAt, serverClock.local());
      const parsed = await readJson(response);
      const json = 'json' in parsed ? parsed.json : null;
      if (CLOCK_CODES.has(String(json?.error ?? ''))) {
        // Signed by a clock this answer shows to be off: sign again by the deployment's time, once.
        if (!reclocked && serverClock.offsetMs() !== offsetBefore) {
          reclocked = true;
          attempt--;
          continue;
        }
        return { ok: false, error: clockError(response.status, json!, response.headers.get('date') ? serverClock.offsetMs() : null) };
      }
      // A token the service no longer takes (expired early, revoked): mint a fresh one once and retry.
      if (bearer && !renewed && response.status === 401 && /^BEARER_TOKEN_(EXPIRED|INVALID)$/.test(String(json?.error ?? ''))) {
        renewed = true;
        continue;
      }
      const delay = retryDelayMs(response.status, response.headers.get('retry-after'), json, random);
      if (delay !== null && attempt < retries) {
        onRateLimited?.(delay);
        await sleep(delay);
        continue;
      }
      if (statusRecord && response.ok && 'json' in parsed && typeof parsed.json.assembly_id === 'string') return ok(parsed.json);
      return toResult(response, parsed);
    }
  }

  function formInit(params: string, signature: string | null, fields: Record<string, string>, files: UploadField[] = []): RequestInit {
    // Field order as the Node SDK sends it: params, extra fields, signature; files last, because the
    // service authenticates params and signature before it accepts any file part.
    const form = new FormData();
    form.append('params', params);
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    if (signature) form.append('signature', signature);
    for (const file of files) form.append(file.field, file.data, file.name);
    return { body: form };
  }

  async function request(
    method: HttpMethod,
    path: string,
    params: Record<string, unknown> = {},
    fields: Record<string, string> = {},
  ): Promise<Result<Record<string, unknown>>> {
    const url = resolveUrl(path);
    return send(method, async () => {
      const { params: json, signature } = await signed(params);
      if (method !== 'GET') return { url, init: formInit(json, signature, fields) };
      // GET carries params and signature in the query string; the signature stays unencoded (service-facts §0).
      const query = `${signature ? `signature=${signature}&` : ''}params=${encodeURIComponent(json)}`;
      return { url: `${url}${url.includes('?') ? '&' : '?'}${query}` };
    });
  }

  async function openStream(path: string, params: Record<string, unknown> = {}, streamTimeoutMs = 10 * 60_000, reclocked = false): Promise<Result<Response>> {
    const url = resolveUrl(path);
    let response: Response;
    const offsetBefore = serverClock.offsetMs();
    const sentAt = serverClock.local();
    try {
      const { params: json, signature } = await signed(params);
      const auth = await bearerHeader(scopeOf('GET', url), false);
      if (!auth.ok) return auth;
      const query = `${signature ? `signature=${signature}&` : ''}params=${encodeURIComponent(json)}`;
      response = await doFetch(`${url}${url.includes('?') ? '&' : '?'}${query}`, {
        method: 'GET',
        headers: { 'Transloadit-Client': CLIENT_HEADER, ...auth.value },
        signal: AbortSignal.timeout(streamTimeoutMs),
      });
    } catch (cause) {
      return err(tlsProblem(cause, url)?.code ?? AppErrorCode.network, networkMessage(url, cause));
    }
    serverClock.observe(response.headers.get('date'), sentAt, serverClock.local());
    if (response.ok && response.body) return ok(response);
    const body = await readJson(response);
    if ('json' in body && CLOCK_CODES.has(String(body.json.error ?? ''))) {
      if (!reclocked && serverClock.offsetMs() !== offsetBefore) return openStream(path, params, streamTimeoutMs, true);
      return { ok: false, error: clockError(response.status, body.json, response.headers.get('date') ? serverClock.offsetMs() : null) };
    }
    const failed = toResult(response, body);
    return failed.ok ? err(AppErrorCode.invalidResponse, `The service answered HTTP ${response.status} without a body.`) : failed;
  }

  return {
    endpoint,
    transport,
    openStream,
    async createAssembly({ instructions, expectedUploads, files, streamFiles, fields: extra, retries, assemblyId }) {
      if (assemblyId !== undefined && !ASSEMBLY_ID.test(assemblyId)) return err(AppErrorCode.invalidRequest, `An Assembly id is 32 lowercase hex characters, not "${assemblyId}".`);
      const url = assemblyId === undefined ? `${endpoint}/assemblies` : `${endpoint}/assemblies/${assemblyId}`;
      const result = await send('POST', async () => {
        // Execution progress on every Assembly the app creates (issue 26): the update stream then says how
        // far each step and file is, which the Assembly view shows live. Instructions may say false.
        const { params, signature } = await signed({ ...instructions, emit_execution_progress: instructions.emit_execution_progress ?? true });
        const fields = { ...extra, tus_num_expected_upload_files: String(expectedUploads) };
        if (!streamFiles) return { url, init: formInit(params, signature, fields, files) };
        const ordered: Array<[string, string]> = [['params', params], ...Object.entries(fields)];
        if (signature) ordered.push(['signature', signature]);
        const { body, contentType } = multipartStream(ordered, streamFiles);
        return { url, init: { body, headers: { 'Content-Type': contentType }, duplex: 'half' } as RequestInit };
      }, false, retries ?? maxRetries);
      return result.ok ? parseStatus(result.value) : result;
    },
    async getAssembly(url, hooks) {
      const result = await send('GET', async () => ({ url }), true, maxRetries, hooks?.onRateLimited);
      return result.ok ? parseStatus(result.value) : result;
    },
    async cancelAssembly(url) {
      const result = await send('DELETE', async () => {
        const { params, signature } = await signed({});
        return { url, init: formInit(params, signature, {}) };
      }, true);
      return result.ok ? parseStatus(result.value) : result;
    },
    request,
  };
}

/**
 * Statuses are parsed leniently: a field of an unexpected type (a null where a number was expected, say)
 * is dropped rather than failing the whole record, so a service quirk never hides a run's progress.
 */
export function parseStatus(body: Record<string, unknown>): Result<AssemblyStatus> {
  let candidate: unknown = body;
  for (let attempt = 0; attempt < 20; attempt++) {
    const parsed = assemblyStatusSchema.safeParse(candidate);
    if (parsed.success) return ok(parsed.data);
    const paths = parsed.error.issues.map((issue) => issue.path).filter((p) => p.length > 0);
    if (paths.length === 0) {
      return err(AppErrorCode.invalidResponse, `The service sent an Assembly status the app cannot read: ${parsed.error.issues[0]?.message ?? 'bad shape'}`);
    }
    candidate = structuredClone(candidate);
    // Later array indices first, so removing one element never shifts another that is still to go.
    for (const p of [...paths].sort(comparePathsDescending)) dropPath(candidate, p);
  }
  return err(AppErrorCode.invalidResponse, 'The service sent an Assembly status the app cannot read.');
}

function comparePathsDescending(a: readonly PropertyKey[], b: readonly PropertyKey[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const x = a[i]!;
    const y = b[i]!;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return y - x;
    return String(y).localeCompare(String(x));
  }
  return b.length - a.length;
}

function dropPath(root: unknown, path: readonly PropertyKey[]): void {
  let node = root as Record<PropertyKey, unknown> | undefined;
  for (const key of path.slice(0, -1)) {
    node = node?.[key] as Record<PropertyKey, unknown> | undefined;
    if (typeof node !== 'object' || node === null) return;
  }
  const last = path[path.length - 1]!;
  if (Array.isArray(node) && typeof last === 'number') node.splice(last, 1);
  else if (node) delete node[last];
}

type ParsedBody = { json: Record<string, unknown> } | { text: string };

async function readJson(response: Response): Promise<ParsedBody> {
  const text = await response.text().catch(() => '');
  try {
    const json: unknown = JSON.parse(text);
    if (typeof json === 'object' && json !== null && !Array.isArray(json)) return { json: json as Record<string, unknown> };
  } catch {
    // Not JSON: reported below with the start of the body.
  }
  return { text };
}

/** NS `_remoteJson`: 413 RATE_LIMIT_REACHED or any 429; info.retryIn, else Retry-After, else 1 s; ×(1+0.1·random). */
export function retryDelayMs(
  status: number,
  retryAfter: string | null,
  json: Record<string, unknown> | null,
  random: () => number,
): number | null {
  const rateLimited = (status === 413 && json?.error === 'RATE_LIMIT_REACHED') || status === 429;
  if (!rateLimited) return null;
  const retryIn = (json?.info as { retryIn?: unknown } | undefined)?.retryIn;
  const header = retryAfter === null || retryAfter.trim() === '' ? NaN : Number(retryAfter);
  const seconds = typeof retryIn === 'number' && retryIn >= 0 ? retryIn : Number.isFinite(header) && header >= 0 ? header : 1;
  return seconds * 1000 * (1 + 0.1 * random());
}

function toResult(response: Response, body: ParsedBody): Result<Record<string, unknown>> {
  if (!('json' in body)) {
    const snippet = body.text.slice(0, 200).trim();
    return err(
      response.ok ? AppErrorCode.invalidResponse : `SERVER_${response.status}`,
      `The service answered HTTP ${response.status} with a body that is not JSON${snippet ? `: ${snippet}` : ''}`,
      { httpCode: response.status },
    );
  }
  const json = body.json;
  // Assembly-level failures often come as HTTP 200 with an `error` key (service-facts §0).
  if (typeof json.error === 'string' || !response.ok) {
    return { ok: false, error: toAppError(response.status, json) };
  }
  return ok(json);
}

/** A refusal of the request's expiry, its message saying what this computer's clock has to do with it. */
function clockError(httpStatus: number, json: Record<string, unknown>, offsetMs: number | null): AppError {
  const error = toAppError(httpStatus, json);
  return { ...error, message: clockRefusalMessage(error.message, offsetMs) };
}

export function toAppError(httpStatus: number, json: Record<string, unknown>): AppError {
  const { error, message, http_code: httpCode, ...details } = json;
  const code = typeof error === 'string' && error ? error : `SERVER_${httpStatus}`;
  return {
    code,
    message: typeof message === 'string' && message ? message : `The service answered ${code} (HTTP ${httpStatus}).`,
    httpCode: typeof httpCode === 'number' ? httpCode : httpStatus,
    details,
  };
}

function networkMessage(url: string, cause: unknown): string {
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {
    // keep the raw string
  }
  const tls = tlsProblem(cause, url);
  if (tls) return tls.message;
  const inner = cause instanceof Error ? ((cause.cause as Error | undefined)?.message ?? cause.message) : String(cause);
  if (cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError')) {
    return `The service at ${origin} did not answer in time.`;
  }
  return `Could not reach the service at ${origin}: ${inner}`;
}
