/** Headers and HTML rewriting for what the browser host serves. Pure, so they are tested directly. */

export function browserHostCsp(port: number): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ws://127.0.0.1:${port} ws://localhost:${port}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}

export function securityHeaders(port: number): Record<string, string> {
  return {
    'Content-Security-Policy': browserHostCsp(port),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}

export const PAGE_BRIDGE_PATH = '/page-bridge.js';
const BRIDGE_TAG = `<script src="${PAGE_BRIDGE_PATH}"></script>`;

/**
 * Put the page bridge (a classic script) before the app's module script, so `window.assemblyline`
 * exists before any app code runs; falls back to the end of <head>, then the start of the document.
 */
export function injectPageBridge(html: string): string {
  if (html.includes(BRIDGE_TAG)) return html;
  const moduleScript = html.search(/<script\b[^>]*type=["']module["']/i);
  if (moduleScript >= 0) return `${html.slice(0, moduleScript)}${BRIDGE_TAG}\n    ${html.slice(moduleScript)}`;
  const headEnd = html.search(/<\/head>/i);
  if (headEnd >= 0) return `${html.slice(0, headEnd)}${BRIDGE_TAG}\n${html.slice(headEnd)}`;
  return `${BRIDGE_TAG}\n${html}`;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

export function contentTypeFor(filePath: string): string {
  const dot = filePath.lastIndexOf('.');
  const ext = dot >= 0 ? filePath.slice(dot).toLowerCase() : '';
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}
