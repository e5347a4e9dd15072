import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AssemblyRuntime } from '../assemblies/assembly-runtime';
import { apiError, sendError } from '../http/api-error';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { serveFile } from '../http/serve-file';
import { newFileId, type StoredFile } from '../robots/file-record';
import type { AccountRow, ServiceDatabase } from '../store/database';
import { findTemplate } from '../templates/template-routes';
import type { TemplateRow } from '../templates/template-record';
import type { TemplateStore } from '../templates/template-store';
import { cdnCacheKey, SIGNING_PARAMS, type CdnCache, type CdnCacheEntry } from './cdn-cache';
import { checkCdnTemplate, resolveCdnInput, runCdnTemplate, serveCacheSeconds, templateRevision, type CdnInput } from './run-cdn-template';
import { cdnSignatureMatches, parseCdnUrl } from './verify-cdn-url';
import { CDN_SIGN_SCOPE, scopesAllowCdnSigning } from '../../shared/api/scopes';

export interface CdnRouteContext {
  db: ServiceDatabase;
  runtime: AssemblyRuntime;
  templates: TemplateStore;
  cdn: CdnRuntime;
  /** The one workspace this service serves (`local`): the URL's first segment must name it. */
  workspace: string;
}

/** The Smart CDN's own state: its result cache, a folder for runs, and how long a run may take. */
export interface CdnRuntime {
  cache: CdnCache;
  workRoot: string;
  timeoutMs: number;
}

const MAX_CACHE_S = 86_400;
/**
 * Signed URLs must end: the spec calls `exp` optional, but a URL without one (or with one centuries
 * away) could never be revoked short of rotating the key. The app signs for at most a year.
 */
export const MAX_CDN_LIFETIME_MS = 366 * 86_400_000;

/** A file of an Assembly: the last step's result of that name, else the upload. */
function findStored(runtime: AssemblyRuntime, assemblyId: string, name: string): StoredFile | null {
  const s = runtime.get(assemblyId);
  if (!s) return null;
  const results = Object.values(s.results).flat().reverse();
  return results.find((f) => f.name === name) ?? s.uploads.map((u) => u.file).find((f) => f.name === name) ?? null;
}

/** The oldest active key allowed for content delivery (used when a URL names none, as the spec says). */
const defaultCdnKey = (db: ServiceDatabase): AccountRow | null => db.allAccounts().find((a) => a.smartCdn === true && a.isActive !== false && scopesAllowCdnSigning(a.scope)) ?? null;

/**
 * GET `/file/{workspace}/{template}/{input}` — signed content-delivery URLs (spec "Signed content-delivery
 * URLs", service-facts §2). The signature, its expiry and the key are checked; then the Template runs on
 * the input (a stored asset's path, or `<assembly_id>/<file name>`) with the URL's parameters as fields, and
 * its result is served and cached (`X-Cache: HIT|MISS`, `ETag`, Range and HEAD as for any file).
 */
export async function routeCdn(ctx: CdnRouteContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
  const r = parseCdnUrl(url.pathname, url.search);
  if (!r) return false;
  const now = Date.now();
  // A URL names its workspace; one signed for another workspace is not this one's to serve (issue 25).
  if (r.workspace !== ctx.workspace) {
    sendError(res, apiError('CDN_WORKSPACE_NOT_FOUND', `This service serves the workspace "${ctx.workspace}"; the URL names "${r.workspace}".`, 404));
    return true;
  }
  const key = r.authKey ? ctx.db.getAccount(r.authKey) : defaultCdnKey(ctx.db);
  if (!r.sig) {
    sendError(res, apiError('CDN_SIGNATURE_MISSING', 'This URL carries no sig: sign it with a content-delivery key.', 403));
    return true;
  }
  if (!key) {
    sendError(res, apiError('CDN_AUTH_KEY_UNKNOWN', `No Auth Key ${r.authKey ?? '(allowed for content delivery)'} exists.`, 403));
    return true;
  }
  if (key.isActive === false) {
    sendError(res, apiError('AUTH_KEY_INACTIVE', `The auth key "${key.authKey}" is inactive.`, 403));
    return true;
  }
  if (key.smartCdn !== true) {
    sendError(res, apiError('CDN_AUTH_KEY_NOT_ALLOWED', `The auth key "${key.authKey}" is not allowed to sign content-delivery URLs (is_allowed_for_smartcdn is off).`, 403));
    return true;
  }
  // A key with a scope list signs CDN URLs only when the list holds smart_cdn:sign (null = every scope).
  if (!scopesAllowCdnSigning(key.scope)) {
    sendError(res, apiError('CDN_AUTH_KEY_NOT_ALLOWED', `The auth key "${key.authKey}" may not sign content-delivery URLs: its scope (${key.scope || 'none'}) does not include ${CDN_SIGN_SCOPE}.`, 403));
    return true;
  }
  if (!cdnSignatureMatches(r, key.authSecret)) {
    sendError(res, apiError('CDN_SIGNATURE_INVALID', 'The sig does not match this URL (HMAC-SHA256 of workspace/template/input?sorted-params).', 403));
    return true;
  }
  if (Number.isNaN(r.expMs)) {
    sendError(res, apiError('CDN_SIGNATURE_INVALID', 'exp must be milliseconds since the epoch.', 403));
    return true;
  }
  // exp is optional (spec rule 2: "optional but recommended"): a URL without it does not expire.
  if (r.expMs !== null && r.expMs > now + MAX_CDN_LIFETIME_MS) {
    sendError(res, apiError('CDN_EXPIRY_TOO_FAR', `exp=${r.expMs} is more than a year ahead: sign this URL for a shorter time.`, 403));
    return true;
  }
  if (r.expMs !== null && r.expMs <= now) {
    sendError(res, apiError('CDN_SIGNATURE_EXPIRED', `This URL expired at ${new Date(r.expMs).toISOString()}.`, 403));
    return true;
  }
  // A CDN URL names its Template by name (the slug users see) or by id.
  const template = findTemplate(ctx.templates, r.template) ?? ctx.templates.all().find((t) => t.name === r.template) ?? null;
  if (!template) {
    sendError(res, apiError('TEMPLATE_NOT_FOUND', `No Template ${r.template}.`, 404));
    return true;
  }
  // Robots off the allow-list or too many steps: refused before anything runs or is read.
  const allowed = checkCdnTemplate(template);
  if (!allowed.ok) {
    sendError(res, apiError(allowed.code, allowed.message, allowed.httpCode, allowed.step ? { step: allowed.step } : undefined));
    return true;
  }
  const input = await resolveCdnInput({ assemblyFile: (id, name) => findStored(ctx.runtime, id, name), assets: ctx.runtime.assets }, r.input);
  if (!input) {
    sendError(res, apiError('FILE_NOT_FOUND', `Nothing stored at ${r.input} (a stored asset's path, or <assembly_id>/<file name>).`, 404));
    return true;
  }
  ctx.db.touchAccount(key.authKey, now);
  const fields = fieldsOf(r.params);
  const cacheKey = cdnCacheKey({ templateId: template.id, templateRevision: templateRevision(template), inputVersion: input.sha256, params: [...r.params].filter(([k]) => !SIGNING_PARAMS.has(k)) });
  const hit = ctx.cdn.cache.get(cacheKey);
  const joined = !hit && ctx.cdn.cache.isRunning(cacheKey);
  const served = hit ? { ok: true as const, entry: hit, cache: 'HIT' as const } : await ctx.cdn.cache.once(cacheKey, () => produce(ctx, cacheKey, template, input, fields));
  if (!served.ok) {
    sendError(res, apiError(served.code, served.message, served.httpCode, served.step ? { step: served.step } : undefined));
    return true;
  }
  // A response may not outlive its signature in a cache (spec rule 9); /file/serve's cache_duration
  // replaces the default day.
  const maxAge = Math.max(0, Math.min(serveCacheSeconds(allowed.steps) ?? MAX_CACHE_S, r.expMs === null ? MAX_CACHE_S : Math.floor((r.expMs - now) / 1000)));
  const etag = `"${served.entry.sha256}"`;
  // Concurrent requests that waited on another's run are hits too: the Template ran once for them all.
  const headers = { ETag: etag, 'X-Cache': hit || joined ? 'HIT' : served.cache };
  if (ifNoneMatch(req.headers['if-none-match'], etag)) {
    res.writeHead(304, { ...headers, 'Cache-Control': `public, max-age=${maxAge}` });
    res.end();
    return true;
  }
  if (!(await serveFile(req, res, served.entry.localPath, served.entry.mime, served.entry.name, `public, max-age=${maxAge}`, 'inline', headers))) {
    sendError(res, apiError('FILE_NOT_FOUND', 'The result is gone from the cache: ask again.', 404));
  }
  return true;
}

/** `If-None-Match` holds this ETag (or `*`). */
const ifNoneMatch = (header: string | undefined, etag: string): boolean =>
  header !== undefined && header.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === etag);

/** The URL's parameters as the Template's fields; a repeated key gives a list. Pure. */
export function fieldsOf(params: URLSearchParams): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const key of new Set(params.keys())) {
    if (SIGNING_PARAMS.has(key)) continue;
    const all = params.getAll(key);
    out[key] = all.length === 1 ? all[0]! : all;
  }
  return out;
}

type Produced = { ok: true; entry: CdnCacheEntry; cache: 'MISS' } | { ok: false; code: string; message: string; httpCode: number; step?: string };

/** Runs the Template once and keeps its result in the cache (a result larger than the cache is served once). */
async function produce(ctx: CdnRouteContext, cacheKey: string, template: TemplateRow, input: CdnInput, fields: Record<string, string | string[]>): Promise<Produced> {
  const workDir = join(ctx.cdn.workRoot, newFileId());
  await mkdir(workDir, { recursive: true });
  let keepWorkDir = false;
  try {
    const run = await runCdnTemplate({ template, input, fields, workDir, slots: ctx.runtime.slots, assets: ctx.runtime.assets, credentials: ctx.runtime.credentials, timeoutMs: ctx.cdn.timeoutMs });
    if (!run.ok) return run;
    const f = run.file;
    const from = { localPath: f.localPath, name: f.name, mime: f.mime, size: f.size, sha256: f.sha256 ?? f.md5hash ?? cacheKey };
    const entry = await ctx.cdn.cache.put(cacheKey, from);
    if (entry) return { ok: true, entry, cache: 'MISS' };
    // Too large to keep: served from the work folder, which goes a minute later.
    keepWorkDir = true;
    setTimeout(() => void rm(workDir, { recursive: true, force: true }), 60_000).unref();
    return { ok: true, entry: from, cache: 'MISS' };
  } finally {
    if (!keepWorkDir) await rm(workDir, { recursive: true, force: true });
  }
}
