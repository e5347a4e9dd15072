import { describe, expect, it } from 'vitest';
import { checkReferer, REFERER_TIMEOUT_MS } from './referer';

describe('auth.referer evaluation', () => {
  it('matches, mismatches and lets a missing Referer pass', () => {
    expect(checkReferer('^https://example\\.com/', 'https://example.com/page')).toBe('match');
    expect(checkReferer('^https://example\\.com/', 'https://evil.test/')).toBe('mismatch');
    expect(checkReferer('^https://example\\.com/', undefined)).toBe('match');
  });

  it('reports an invalid expression', () => {
    expect(checkReferer('([a-z', 'https://example.com')).toBe('invalid');
  });

  it('stops a catastrophic expression quickly instead of hanging', () => {
    const started = Date.now();
    expect(checkReferer('(a+)+$', `${'a'.repeat(40)}!`)).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(REFERER_TIMEOUT_MS + 1000);
  });
});
