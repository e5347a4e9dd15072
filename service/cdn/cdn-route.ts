import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AssemblyRuntime } from '../assemblies/assembly-runtime';
import { apiError, sendError } from '../http/api-error';
import { serveFile } from '../http/serve-file';
import type { StoredFile } from '../robots/file-record';
import type { AccountRow, ServiceDatabase } from '../store/database';
import { findTemplate } from '../templates/template-routes';
import type { TemplateStore } from '../templates/template-store';
import { cdnSignatureMatches, parseCdnUrl } from './verify-cdn-url';

export interface CdnRouteContext {
  db: ServiceDatabase;
  runtime: AssemblyRuntime;
  templates: TemplateStore;
}

const MAX_CACHE_S = 86_400;
/**
 * Signed URLs must end: the spec calls `exp` optional, but a URL without one (or with one centuries
 * away) could never be revoked short of rotating the key. The app signs for at most a year.
 */
export const MAX_CDN_LIFETIME_MS = 366 * 86_400_000;

/** A file of an Assembly by `<assembly_id>/<name>`: the last step's result of that name, else the upload. */
function findStored(runtime: AssemblyRuntime, input: string): StoredFile | null {
  const m = /^([0-9a-f]{32})\/(.+)$/.exec(input);
  if (!m) return null;
  const s = runtime.get(m[1]!);
  if (!s) return null;
  const results = Object.values(s.results).flat().reverse();
  return results.find((f) => f.name === m[2]) ?? s.uploads.map((u) => u.file).find((f) => f.name === m[2]) ?? null;
}

/** The oldest active key allowed for content delivery (used when a URL names none, as the spec says). */
const defaultCdnKey = (db: ServiceDatabase): AccountRow | null => db.allAccounts().find((a) => a.smartCdn === true && a.isActive !== false) ?? null;

/**
 * GET `/file/{workspace}/{template}/{input}` — signed content-delivery URLs (spec "Signed content-delivery
 * URLs", service-facts §2). The signature, its expiry and the key are checked; the local service then serves
 * the stored file the input names (`<assembly_id>/<file name>`) as it is: it does not run the Template.
 */
export async function routeCdn(ctx: CdnRouteContext, req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> {
  const r = parseCdnUrl(url.pathname, url.search);
  if (!r) return false;
  const now = Date.now();
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
  if (!cdnSignatureMatches(r, key.authSecret)) {
    sendError(res, apiError('CDN_SIGNATURE_INVALID', 'The sig does not match this URL (HMAC-SHA256 of workspace/template/input?sorted-params).', 403));
    return true;
  }
  if (Number.isNaN(r.expMs)) {
    sendError(res, apiError('CDN_SIGNATURE_INVALID', 'exp must be milliseconds since the epoch.', 403));
    return true;
  }
  if (r.expMs === null) {
    sendError(res, apiError('CDN_EXPIRY_MISSING', 'This URL carries no exp: sign it with an expiry (milliseconds since the epoch, at most a year ahead).', 403));
    return true;
  }
  if (r.expMs > now + MAX_CDN_LIFETIME_MS) {
    sendError(res, apiError('CDN_EXPIRY_TOO_FAR', `exp=${r.expMs} is more than a year ahead: sign this URL for a shorter time.`, 403));
    return true;
  }
  if (r.expMs <= now) {
    sendError(res, apiError('CDN_SIGNATURE_EXPIRED', `This URL expired at ${new Date(r.expMs).toISOString()}.`, 403));
    return true;
  }
  // A CDN URL names its Template by name (the slug users see) or by id.
  if (!findTemplate(ctx.templates, r.template) && !ctx.templates.all().some((t) => t.name === r.template)) {
    sendError(res, apiError('TEMPLATE_NOT_FOUND', `No Template ${r.template}.`, 404));
    return true;
  }
  const file = findStored(ctx.runtime, r.input);
  if (!file) {
    sendError(res, apiError('FILE_NOT_FOUND', `Nothing stored at ${r.input} (use <assembly_id>/<file name>).`, 404));
    return true;
  }
  ctx.db.touchAccount(key.authKey, now);
  // A response may not outlive its signature in a cache (spec rule 9).
  const maxAge = Math.max(0, Math.min(MAX_CACHE_S, Math.floor((r.expMs - now) / 1000)));
  if (!(await serveFile(req, res, file.localPath, file.mime, file.name, `public, max-age=${maxAge}`))) sendError(res, apiError('FILE_NOT_FOUND', 'The stored file is gone.', 404));
  return true;
}
