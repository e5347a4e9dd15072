// The string to sign and the signature check against service-facts §2's test vectors.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { cdnSignatureMatches, cdnStringToSign, parseCdnUrl } from './verify-cdn-url';

/** A vector's URL moved to the local service's `/file/{workspace}` form, parsed as the route parses it. */
const parse = (vectorUrl: string) => {
  const u = new URL(vectorUrl);
  const workspace = u.hostname.split('.')[0]!;
  return parseCdnUrl(`/file/${workspace}${u.pathname}`, u.search)!;
};

describe('content-delivery URL signatures (service-facts §2 vectors)', () => {
  it('rebuilds the Node SDK string to sign, repeated keys in order and empty values kept', () => {
    const r = parse('https://foo_workspace.tlcdn.com/foo_template/foo%2Finput?aaa=42&aaa=21&auth_key=foo_key&empty=&exp=1714525200000&foo=bar&sig=sha256%3A1ab71ef553df3507a9e2cf7beb8f921538bbef49a13a94a22ff49f2f030a5e9e');
    expect(cdnStringToSign(r)).toBe('foo_workspace/foo_template/foo%2Finput?aaa=42&aaa=21&auth_key=foo_key&empty=&exp=1714525200000&foo=bar');
    expect(cdnSignatureMatches(r, 'foo_secret')).toBe(true);
    expect(cdnSignatureMatches(r, 'other_secret')).toBe(false);
  });

  it('accepts the Python/PHP and Uppy vectors, and sorts ascending whatever order the URL has', () => {
    const vectors: [string, string][] = [
      ['https://workspace.tlcdn.com/template/file.jpg?auth_key=test-key&exp=1732550672867&sig=sha256%3Ad994b8a737db1c43d6e04a07018dc33e8e28b23b27854bd6383d828a212cfffb', 'test-secret'],
      ['https://workspace.tlcdn.com/template/file.jpg?exp=1732550672867&width=100&auth_key=test-key&sig=sha256%3Ae5271d8fb6482d9351ebe4285b6fc75539c4d311ff125c4d76d690ad71c258ef', 'test-secret'],
      ['https://workspace.tlcdn.com/template/file.jpg?auth_key=test-key&exp=1732550672867&height=200&width=&sig=sha256%3A1a26733c859f070bc3d83eb3174650d7a0155642e44a5ac448a43bc728bc0f85', 'test-secret'],
      ['https://my-workspace.tlcdn.com/builtin%2Fstorage-serve%400.0.1/photos%2Fsunset%202.jpg?auth_key=test-key&cdn=required&exp=1700000000000&sig=sha256%3A6d694cbe4f3d911bdd2d048e4aaea78a603df196e80148220e5a9e83990744f5', 'test-secret'],
    ];
    for (const [url, secret] of vectors) expect(cdnSignatureMatches(parse(url), secret), url).toBe(true);
    expect(cdnStringToSign(parse(vectors[3]![0]))).toBe('my-workspace/builtin%2Fstorage-serve%400.0.1/photos%2Fsunset%202.jpg?auth_key=test-key&cdn=required&exp=1700000000000');
  });

  it('leaves the "?" out when a URL has no parameters (spec rule 5)', () => {
    const r = parseCdnUrl('/file/ws/t/a%2Fb.png', '?sig=x')!;
    expect(cdnStringToSign(r)).toBe('ws/t/a%2Fb.png');
    const sig = createHmac('sha256', 's3cret').update('ws/t/a%2Fb.png').digest('hex');
    expect(cdnSignatureMatches(parseCdnUrl('/file/ws/t/a%2Fb.png', `?sig=sha256%3A${sig}`)!, 's3cret')).toBe(true);
    const withMark = createHmac('sha256', 's3cret').update('ws/t/a%2Fb.png?').digest('hex');
    expect(cdnSignatureMatches(parseCdnUrl('/file/ws/t/a%2Fb.png', `?sig=sha256%3A${withMark}`)!, 's3cret')).toBe(false);
  });
});
