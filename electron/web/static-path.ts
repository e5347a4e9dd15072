import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * Map a URL path to a file inside `rootDir`, or null when it would leave it (`..`, encoded slashes,
 * NUL). `/` maps to index.html. Pure: whether the file exists is the caller's business.
 */
export function staticFilePath(rootDir: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const segments = decoded.split('/').filter((s) => s.length > 0);
  if (segments.some((s) => s === '..' || s === '.')) return null;
  const root = resolve(rootDir);
  const target = segments.length === 0 ? resolve(root, 'index.html') : resolve(root, ...segments);
  const inside = relative(root, target);
  if (inside.startsWith('..') || isAbsolute(inside) || inside.split(sep).includes('..')) return null;
  return target;
}
