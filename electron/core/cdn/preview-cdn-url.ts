import { err, ok, type Result } from '../../../shared/result';

/** Images up to this size come back as a data: URL for the preview (the page may load no other images). */
export const MAX_PREVIEW_BYTES = 8 * 1024 * 1024;
const PREVIEW_TIMEOUT_MS = 150_000;

export interface CdnPreview {
  /** The HTTP status the URL answered with. */
  status: number;
  contentType: string | null;
  size: number;
  /** `X-Cache` (the local service says HIT or MISS; other CDNs may say nothing). */
  cache: string | null;
  dataUrl: string | null;
  /** The service's error (its code and message) when the URL did not serve a file. */
  error: { code: string; message: string } | null;
}

/**
 * Only content-delivery URLs are fetched: `<endpoint>/file/…` of this workspace, or an https
 * `*.tlcdn.com` URL — never an arbitrary address the page names. Pure.
 */
export function isCdnUrl(url: string, endpoint: string): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  const base = new URL(endpoint);
  if (u.origin === base.origin && u.pathname.startsWith(`${base.pathname.replace(/\/+$/, '')}/file/`)) return true;
  return u.protocol === 'https:' && u.hostname.endsWith('.tlcdn.com');
}

/** Fetches what a signed URL serves, as a user's browser would, and describes it for the CDN screen. */
export async function previewCdnUrl(url: string, endpoint: string, doFetch: typeof fetch = fetch): Promise<Result<CdnPreview>> {
  if (!isCdnUrl(url, endpoint)) return err('CDN_PREVIEW_URL_REFUSED', 'Only a content-delivery URL of this workspace can be previewed.');
  let res: Response;
  try {
    res = await doFetch(url, { signal: AbortSignal.timeout(PREVIEW_TIMEOUT_MS), redirect: 'error' });
  } catch (e) {
    return err('CDN_PREVIEW_UNREACHABLE', `Could not fetch the URL: ${e instanceof Error ? e.message : String(e)}`);
  }
  const body = Buffer.from(await res.arrayBuffer());
  const contentType = res.headers.get('content-type');
  const cache = res.headers.get('x-cache');
  if (!res.ok) {
    let code = `HTTP_${res.status}`;
    let message = body.toString('utf8').slice(0, 500);
    try {
      const json = JSON.parse(body.toString('utf8')) as { error?: unknown; message?: unknown };
      if (typeof json.error === 'string') code = json.error;
      if (typeof json.message === 'string') message = json.message;
    } catch {
      // Not JSON: the text is the message.
    }
    return ok({ status: res.status, contentType, size: body.length, cache, dataUrl: null, error: { code, message } });
  }
  const mime = contentType?.split(';')[0]?.trim() ?? '';
  const dataUrl = mime.startsWith('image/') && body.length <= MAX_PREVIEW_BYTES ? `data:${mime};base64,${body.toString('base64')}` : null;
  return ok({ status: res.status, contentType, size: body.length, cache, dataUrl, error: null });
}
