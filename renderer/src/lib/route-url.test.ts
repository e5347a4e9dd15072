import { describe, expect, it } from 'vitest';
import type { Route } from '../state/navigation-store';
import { formatRoute, parseRoute, sameRoute } from './route-url';

const ROUTES: [Route, string][] = [
  [{ name: 'upload' }, '#/upload'],
  [{ name: 'activity' }, '#/activity'],
  [{ name: 'transfers' }, '#/transfers'],
  [{ name: 'transfers', batchId: 'b_12' }, '#/transfers?batch=b_12'],
  [{ name: 'run', runId: 'run_3f9a' }, '#/run/run_3f9a'],
  [{ name: 'assembly', assemblyId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' }, '#/assemblies/a1b2c3d4e5f60718293a4b5c6d7e8f90'],
  [{ name: 'templates' }, '#/templates'],
  [{ name: 'templates', selectedId: '0123456789abcdef0123456789abcdef' }, '#/templates/0123456789abcdef0123456789abcdef'],
  [{ name: 'templates', selectedId: 'builtin/resize@1' }, '#/templates/builtin%2Fresize%401'],
  [{ name: 'templates', list: { q: '', sort: 'name', order: 'asc', from: '', to: '', builtins: 'all', page: 2 } }, '#/templates?sort=name&order=asc&builtins=all&page=2'],
  [{ name: 'templates', selectedId: 'abc', list: { q: 'a b', sort: 'created', order: 'desc', from: '2026-01-01', to: '', builtins: 'none', page: 1 } }, '#/templates/abc?q=a+b&from=2026-01-01'],
  [{ name: 'template-editor' }, '#/templates/new'],
  [{ name: 'template-editor', id: 'builtin/resize@1' }, '#/templates/builtin%2Fresize%401/edit'],
  [{ name: 'template-editor', id: 'abc', copy: true }, '#/templates/abc/duplicate'],
  [{ name: 'credentials' }, '#/credentials'],
  [{ name: 'workspaces' }, '#/workspaces'],
  [{ name: 'auth-keys' }, '#/auth-keys'],
  [{ name: 'cdn' }, '#/cdn'],
  [{ name: 'usage' }, '#/usage'],
  [{ name: 'statistics' }, '#/statistics'],
  [{ name: 'queue' }, '#/queue'],
  [{ name: 'watch-folders' }, '#/watch-folders'],
  [{ name: 'assets' }, '#/assets'],
  [{ name: 'assets', folder: 'photos/2026' }, '#/assets?folder=photos%2F2026'],
];

describe('route ↔ hash', () => {
  it.each(ROUTES)('%o is %s and back', (route, hash) => {
    expect(formatRoute(route)).toBe(hash);
    expect(parseRoute(hash)).toEqual(route);
  });

  it('round-trips ids with characters that mean something in a URL', () => {
    for (const id of ['a b', 'x?y=1&z', 'hash#tag', 'per%cent', 'plus+sign', 'ümlaut', '../up']) {
      expect(parseRoute(formatRoute({ name: 'run', runId: id }))).toEqual({ name: 'run', runId: id });
      expect(parseRoute(formatRoute({ name: 'transfers', batchId: id }))).toEqual({ name: 'transfers', batchId: id });
    }
  });

  it('opens the Assets root for an empty or slash-only folder', () => {
    expect(parseRoute('#/assets?folder=')).toEqual({ name: 'assets' });
    expect(parseRoute('#/assets?folder=%2Fphotos%2F')).toEqual({ name: 'assets', folder: 'photos' });
  });

  it('reads the hash with or without its #, and ignores trailing slashes', () => {
    expect(parseRoute('/run/r1')).toEqual({ name: 'run', runId: 'r1' });
    expect(parseRoute('#/activity/')).toEqual({ name: 'activity' });
  });

  it.each(['', '#', '#/', '#/nowhere', '#/run', '#/run/', '#/run/a/b', '#/run/%E0%A4%A', '#/activity/extra', '#/templates/abc/rename', '#/templates/new/x', '#/transfers/x', 'garbage', '#/run/%20'])(
    'an unknown or malformed hash %j is the Upload view',
    (hash) => {
      expect(parseRoute(hash)).toEqual({ name: 'upload' });
    },
  );

  it('an Assembly hash takes only a 32-hex id (lower-cased); anything else there is Activity', () => {
    expect(parseRoute('#/assemblies/A1B2C3D4E5F60718293A4B5C6D7E8F90')).toEqual({ name: 'assembly', assemblyId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' });
    for (const hash of ['#/assemblies', '#/assemblies/nope', '#/assemblies/..%2Ftemplates', '#/assemblies/a1b2c3d4e5f60718293a4b5c6d7e8f90/x']) {
      expect(parseRoute(hash)).toEqual({ name: 'activity' });
    }
  });

  it('an empty batch filter is the whole queue', () => {
    expect(parseRoute('#/transfers?batch=')).toEqual({ name: 'transfers' });
  });

  it('same screen and item compare equal, whatever the object', () => {
    expect(sameRoute({ name: 'run', runId: 'a' }, { name: 'run', runId: 'a' })).toBe(true);
    expect(sameRoute({ name: 'run', runId: 'a' }, { name: 'run', runId: 'b' })).toBe(false);
    expect(sameRoute({ name: 'template-editor', id: 'a' }, { name: 'template-editor', id: 'a', copy: true })).toBe(false);
  });
});
