import { describe, expect, it } from 'vitest';
import { signCdnUrl } from './sign-cdn-url';

// The vectors of service-facts.md §2, copied exactly.
describe('signCdnUrl', () => {
  const foo = { workspace: 'foo_workspace', template: 'foo_template', input: 'foo/input', authKey: 'foo_key', authSecret: 'foo_secret', expiresAtMs: 1714525200000 };

  it('matches the Node SDK vector (arrays, empty values)', () => {
    const r = signCdnUrl({ ...foo, params: { foo: 'bar', aaa: [42, 21], empty: '' } });
    expect(r.stringToSign).toBe('foo_workspace/foo_template/foo%2Finput?aaa=42&aaa=21&auth_key=foo_key&empty=&exp=1714525200000&foo=bar');
    expect(r.url).toBe(
      'https://foo_workspace.tlcdn.com/foo_template/foo%2Finput?aaa=42&aaa=21&auth_key=foo_key&empty=&exp=1714525200000&foo=bar&sig=sha256%3A1ab71ef553df3507a9e2cf7beb8f921538bbef49a13a94a22ff49f2f030a5e9e',
    );
  });

  it('matches the Go SDK vector', () => {
    expect(signCdnUrl({ ...foo, params: { foo: 'bar', aaa: [42, 21] } }).url).toBe(
      'https://foo_workspace.tlcdn.com/foo_template/foo%2Finput?aaa=42&aaa=21&auth_key=foo_key&exp=1714525200000&foo=bar&sig=sha256%3A9a8df3bb28eea621b46ec808a250b7903b2546be7e66c048956d4f30b8da7519',
    );
  });

  it('matches the Python and PHP vectors', () => {
    const base = { workspace: 'workspace', template: 'template', authKey: 'test-key', authSecret: 'test-secret', expiresAtMs: 1732550672867 };
    const sig = (input: string, params?: Record<string, string | null>) => signCdnUrl({ ...base, input, ...(params ? { params } : {}) }).url.split('?')[1];
    expect(sig('file.jpg')).toBe('auth_key=test-key&exp=1732550672867&sig=sha256%3Ad994b8a737db1c43d6e04a07018dc33e8e28b23b27854bd6383d828a212cfffb');
    expect(sig('input.jpg')).toMatch(/&sig=sha256%3A75991f02828d194792c9c99f8fea65761bcc4c62dbb287a84f642033128297c0$/);
    expect(sig('file.jpg', { width: '100' })).toBe('auth_key=test-key&exp=1732550672867&width=100&sig=sha256%3Ae5271d8fb6482d9351ebe4285b6fc75539c4d311ff125c4d76d690ad71c258ef');
    expect(sig('file.jpg', { width: '', height: '200' })).toBe(
      'auth_key=test-key&exp=1732550672867&height=200&width=&sig=sha256%3A1a26733c859f070bc3d83eb3174650d7a0155642e44a5ac448a43bc728bc0f85',
    );
    expect(sig('file.jpg', { width: null, height: '200' })).toMatch(/&height=200&sig=sha256%3Adb740ebdfad6e766ebf6516ed5ff6543174709f8916a254f8d069c1701cef517$/);
    expect(sig('file.jpg', { width: '' })).toMatch(/&width=&sig=sha256%3A840426f9ac72dde02fd080f09b2304d659fdd41e630b1036927ec1336c312e9d$/);
  });

  it('matches the Uppy vector (slashes, @ and spaces in segments), and takes another base', () => {
    const r = signCdnUrl({
      workspace: 'my-workspace',
      template: 'builtin/storage-serve@0.0.1',
      input: 'photos/sunset 2.jpg',
      authKey: 'test-key',
      authSecret: 'test-secret',
      expiresAtMs: 1700000000000,
      params: { cdn: 'required' },
    });
    expect(r.stringToSign).toBe('my-workspace/builtin%2Fstorage-serve%400.0.1/photos%2Fsunset%202.jpg?auth_key=test-key&cdn=required&exp=1700000000000');
    expect(r.url).toBe(
      'https://my-workspace.tlcdn.com/builtin%2Fstorage-serve%400.0.1/photos%2Fsunset%202.jpg?auth_key=test-key&cdn=required&exp=1700000000000&sig=sha256%3A6d694cbe4f3d911bdd2d048e4aaea78a603df196e80148220e5a9e83990744f5',
    );
    expect(signCdnUrl({ ...foo, baseUrl: 'http://127.0.0.1:9/file/foo_workspace/' }).url).toMatch(/^http:\/\/127\.0\.0\.1:9\/file\/foo_workspace\/foo_template\/foo%2Finput\?auth_key=/);
  });
});
