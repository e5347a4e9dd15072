import type { Route } from '../state/navigation-store';
import { templateListFromQuery, templateListToQuery } from './template-list-params';

/**
 * A route ↔ the URL's hash (`#/run/<id>`, `#/templates/<id>?sort=name`, `#/transfers?batch=…`). The hash works the
 * same under the browser host (`http://127.0.0.1:<port>/`) and Electron (a file:// or app URL) and never
 * touches the query, so reload, back and forward land where the user was. Ids are one encoded segment
 * (built-in Template ids hold `/` and `@`). Anything unknown is the Upload view.
 */

const UPLOAD: Route = { name: 'upload' };

/** Screens whose hash is their name alone. */
const PLAIN = ['upload', 'activity', 'credentials', 'workspaces', 'auth-keys', 'cdn', 'usage', 'statistics', 'queue', 'watch-folders'] as const;
type PlainName = (typeof PLAIN)[number];
const isPlain = (name: string): name is PlainName => (PLAIN as readonly string[]).includes(name);

const enc = (id: string): string => encodeURIComponent(id);

/** `#/…` for a route. */
export function formatRoute(route: Route): string {
  switch (route.name) {
    case 'run':
      return `#/run/${enc(route.runId)}`;
    case 'assembly':
      return `#/assemblies/${enc(route.assemblyId)}`;
    case 'transfers':
      return route.batchId ? `#/transfers?batch=${enc(route.batchId)}` : '#/transfers';
    case 'assets':
      return route.folder ? `#/assets?folder=${enc(route.folder)}` : '#/assets';
    case 'templates': {
      const query = route.list ? templateListToQuery(route.list) : '';
      return `${route.selectedId ? `#/templates/${enc(route.selectedId)}` : '#/templates'}${query ? `?${query}` : ''}`;
    }
    case 'template-editor':
      if (!route.id) return '#/templates/new';
      return `#/templates/${enc(route.id)}/${route.copy ? 'duplicate' : 'edit'}`;
    default:
      return `#/${route.name}`;
  }
}

const dec = (segment: string): string | null => {
  try {
    const id = decodeURIComponent(segment);
    return id.trim() === '' ? null : id;
  } catch {
    return null;
  }
};

/** The route a hash names (with or without its `#`); unknown, empty or malformed → Upload. */
export function parseRoute(hash: string): Route {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  const queryAt = raw.indexOf('?');
  const pathPart = queryAt === -1 ? raw : raw.slice(0, queryAt);
  const query = new URLSearchParams(queryAt === -1 ? '' : raw.slice(queryAt + 1));
  const segments = pathPart.split('/').filter((s) => s !== '');
  const [head, second, third, ...rest] = segments;
  if (head === undefined) return UPLOAD;
  if (rest.length > 0) return UPLOAD;

  if (head === 'run') {
    const runId = second === undefined || third !== undefined ? null : dec(second);
    return runId ? { name: 'run', runId } : UPLOAD;
  }
  if (head === 'assemblies') {
    const assemblyId = second === undefined || third !== undefined ? null : dec(second);
    return assemblyId && /^[0-9a-f]{32}$/i.test(assemblyId) ? { name: 'assembly', assemblyId: assemblyId.toLowerCase() } : { name: 'activity' };
  }
  if (head === 'transfers') {
    if (second !== undefined) return UPLOAD;
    const batchId = query.get('batch');
    return batchId ? { name: 'transfers', batchId } : { name: 'transfers' };
  }
  if (head === 'assets') {
    if (second !== undefined) return UPLOAD;
    const folder = (query.get('folder') ?? '').replace(/^\/+|\/+$/g, '');
    return folder ? { name: 'assets', folder } : { name: 'assets' };
  }
  if (head === 'templates') {
    // The list's sort, order, dates, built-ins, search and page ride in the query (lib/template-list-params).
    const list = templateListToQuery(templateListFromQuery(query)) === '' ? {} : { list: templateListFromQuery(query) };
    if (second === undefined) return { name: 'templates', ...list };
    if (second === 'new') return third === undefined ? { name: 'template-editor' } : UPLOAD;
    const id = dec(second);
    if (!id) return UPLOAD;
    if (third === undefined) return { name: 'templates', selectedId: id, ...list };
    if (third === 'edit') return { name: 'template-editor', id };
    if (third === 'duplicate') return { name: 'template-editor', id, copy: true };
    return UPLOAD;
  }
  if (second === undefined && isPlain(head)) return { name: head };
  return UPLOAD;
}

/** Same screen and same item: navigating there again adds no history entry. */
export const sameRoute = (a: Route, b: Route): boolean => formatRoute(a) === formatRoute(b);
