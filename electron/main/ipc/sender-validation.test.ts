import { describe, expect, it } from 'vitest';
import { isTrustedSender } from './sender-validation';

describe('isTrustedSender', () => {
  it('accepts our app:// page in the main frame', () => {
    expect(isTrustedSender({ url: 'app://app/index.html', isMainFrame: true })).toBe(true);
  });
  it('refuses iframes, other schemes, look-alike hosts and destroyed frames', () => {
    expect(isTrustedSender({ url: 'app://app/index.html', isMainFrame: false })).toBe(false);
    expect(isTrustedSender({ url: 'https://app/index.html', isMainFrame: true })).toBe(false);
    expect(isTrustedSender({ url: 'file:///app/index.html', isMainFrame: true })).toBe(false);
    expect(isTrustedSender({ url: 'app://app.evil.com/index.html', isMainFrame: true })).toBe(false);
    expect(isTrustedSender({ url: 'app://evil/app://app/', isMainFrame: true })).toBe(false);
    expect(isTrustedSender({ url: null, isMainFrame: true })).toBe(false);
    expect(isTrustedSender(null)).toBe(false);
  });
});
