// Regexes from outside run with a time limit, compiled once per pattern (finding 8 of issue 10: a vm
// context per request made 40 concurrent requests with an `auth.referer` cost seconds).
import { describe, expect, it } from 'vitest';
import { checkReferer, REFERER_TIMEOUT_MS } from '../auth/referer';
import { cachedTimedRegex, TIMED_REGEX_CACHE_SIZE, timedRegexCacheSize } from './timed-regex';

describe('timed regexes', () => {
  it('a referer check of an expression seen before reuses its compiled pattern, not a new vm context', () => {
    // A fresh context per check cost ~2 ms each (≈ 2 s for 40 concurrent requests on a busy machine).
    const expression = '^https://(www\\.)?example\\.com/';
    const before = timedRegexCacheSize();
    for (let i = 0; i < 400; i++) expect(checkReferer(expression, `https://example.com/page/${i}`)).toBe('match');
    expect(checkReferer(expression, 'https://evil.example/')).toBe('mismatch');
    expect(timedRegexCacheSize()).toBe(before + 1);
    expect(cachedTimedRegex(expression)).toBe(cachedTimedRegex(expression));
  });

  it('stops a catastrophic pattern each time, and the same cached pattern still answers afterwards', () => {
    const re = cachedTimedRegex('^(a+)+$');
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      expect(re.test(`${'a'.repeat(40)}!`, REFERER_TIMEOUT_MS)).toBe('timeout');
      expect(performance.now() - started).toBeLessThan(REFERER_TIMEOUT_MS + 1000);
    }
    expect(re.test('aaaa', REFERER_TIMEOUT_MS)).toBe(true);
    expect(re.test('aab', REFERER_TIMEOUT_MS)).toBe(false);
  });

  it('keeps flags apart, resets global patterns between tests, and rejects invalid patterns', () => {
    expect(cachedTimedRegex('^IMAGE', 'i').test('image/png', 50)).toBe(true);
    expect(cachedTimedRegex('^IMAGE').test('image/png', 50)).toBe(false);
    const global = cachedTimedRegex('a', 'g');
    expect([global.test('a', 50), global.test('a', 50)]).toEqual([true, true]);
    expect(() => cachedTimedRegex('([a-z')).toThrow(SyntaxError);
  });

  it('holds at most its bound of compiled patterns', () => {
    for (let i = 0; i < TIMED_REGEX_CACHE_SIZE + 50; i++) cachedTimedRegex(`^p${i}$`).test(`p${i}`, 50);
    expect(timedRegexCacheSize()).toBe(TIMED_REGEX_CACHE_SIZE);
  });
});
