import { isAbsolute, relative, resolve, sep } from 'node:path';
import { APP_HOST, APP_SCHEME } from '../ipc/sender-validation';

/**
 * Map an `app://app/<path>` request to a file inside the built renderer, or null when the URL is not ours
 * or would escape the folder (`..`, encoded separators, NUL). Unknown extension-less paths get index.html.
 */
export function resolveAppRequest(rendererDir: string, rawUrl: string): string | null {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return null;
  }
  if (url.protocol !== `${APP_SCHEME}:` || url.host !== APP_HOST) return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((s) => s.length > 0);
  if (segments.some((s) => s === '..' || s === '.')) return null;
  const root = resolve(rendererDir);
  const last = segments[segments.length - 1];
  const target = !last || !last.includes('.') ? resolve(root, 'index.html') : resolve(root, ...segments);
  const inside = relative(root, target);
  if (inside.startsWith('..') || isAbsolute(inside) || inside.split(sep).includes('..')) return null;
  return target;
}

const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  css: 'text/css; charset=utf-8',
  json: 'application/json',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  webp: 'image/webp',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
};

export function appContentType(filePath: string): string {
  const ext = filePath.slice(filePath.lastIndexOf('.') + 1).toLowerCase();
  return TYPES[ext] ?? 'application/octet-stream';
}
