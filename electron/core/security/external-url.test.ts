import { describe, expect, it } from 'vitest';
import { isSafeExternalUrl } from './external-url';

describe('isSafeExternalUrl (window.open and shell:openUrl)', () => {
  it('sends https without credentials to the browser, and nothing else by default', () => {
    expect(isSafeExternalUrl('https://transloadit.com/docs')).toBe(true);
    for (const url of ['http://example.com', 'file:///etc/passwd', 'javascript:alert(1)', 'https://user:pw@host/', 'https://user@host/', 'http://127.0.0.1:8080/', 'nonsense']) {
      expect(isSafeExternalUrl(url), url).toBe(false);
    }
  });
  it('allows plain http only to a loopback origin the caller names', () => {
    const local = ['http://127.0.0.1:43210'];
    expect(isSafeExternalUrl('http://127.0.0.1:43210/slug/tpl/a.jpg?sig=x', local)).toBe(true);
    expect(isSafeExternalUrl('http://127.0.0.1:43211/', local)).toBe(false);
    expect(isSafeExternalUrl('http://user:pw@127.0.0.1:43210/', local)).toBe(false);
    // A named origin that is not loopback never opens over plain http.
    expect(isSafeExternalUrl('http://files.example.com/a', ['http://files.example.com'])).toBe(false);
  });
});
