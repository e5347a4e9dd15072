import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appContentType, resolveAppRequest } from './app-path';

const root = path.resolve('/opt/assemblyline/dist/renderer');

describe('resolveAppRequest', () => {
  it('maps app://app paths into the renderer folder', () => {
    expect(resolveAppRequest(root, 'app://app/index.html')).toBe(path.join(root, 'index.html'));
    expect(resolveAppRequest(root, 'app://app/assets/index-1.js')).toBe(path.join(root, 'assets', 'index-1.js'));
    expect(resolveAppRequest(root, 'app://app/')).toBe(path.join(root, 'index.html'));
    expect(resolveAppRequest(root, 'app://app/runs/42')).toBe(path.join(root, 'index.html'));
  });
  it('keeps dot segments inside the renderer folder (the URL parser folds them at the root)', () => {
    const resolved = resolveAppRequest(root, 'app://app/%2e%2e/%2e%2e/etc/passwd.txt');
    expect(resolved).toBe(path.join(root, 'etc', 'passwd.txt'));
  });
  it('refuses encoded separators, NUL and other origins', () => {
    for (const url of [
      'app://app/assets/..%2F..%2Fsecret.txt',
      'app://app/a%5c..%5c..%5csecret.txt',
      'app://app/a%00.js',
      'app://other/index.html',
      'file:///etc/passwd',
      'not a url',
    ]) {
      expect(resolveAppRequest(root, url), url).toBeNull();
    }
  });
  it('names content types so nosniff does not block scripts and styles', () => {
    expect(appContentType('/x/a.js')).toMatch(/javascript/);
    expect(appContentType('/x/a.css')).toMatch(/text\/css/);
    expect(appContentType('/x/a.bin')).toBe('application/octet-stream');
  });
});
