// The Templates search (`keywords`, SQL LIKE) is matched without regexes: the same answers as SQLite's
// own LIKE, and no pattern, however many `%` it holds, makes it slow.
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { likeMatcher } from './like-pattern';

const sqlite = new Database(':memory:');
const sqliteLike = sqlite.prepare('SELECT ? LIKE ? AS m');
afterAll(() => sqlite.close());
const oracle = (pattern: string, text: string): boolean => (sqliteLike.get(text, pattern) as { m: number }).m === 1;

describe('likeMatcher', () => {
  it('matches % and _ as SQL LIKE does, case-insensitively', () => {
    const cases: [string, string, boolean][] = [
      ['%photos%', 'alpha-photos', true],
      ['%GAMMA%', 'Gamma photos', true],
      ['a_p', 'a-p', true],
      ['a_p', 'ap', false],
      ['beta%video', 'beta_video', true],
      ['beta%video', 'beta_video!', false],
      ['%', '', true],
      ['_', '', false],
      ['', '', true],
      ['', 'x', false],
      ['%a%b%c%', 'xxaxxbxxcxx', true],
      ['%a%b%c%', 'xxcxxbxxaxx', false],
      ['%.*%', 'a.*b', true],
      ['%.*%', 'ab', false],
      ['%(a+)+$%', 'x(a+)+$y', true],
      ['%delta[%', 'delta[promo', true],
    ];
    for (const [pattern, text, expected] of cases) expect(likeMatcher(pattern)(text), `${pattern} ~ ${text}`).toBe(expected);
  });

  it('agrees with SQLite LIKE on random patterns and names', () => {
    const alphabet = fc.constantFrom('a', 'b', 'A', 'B', '%', '_', '.', '*', '\\');
    const text = fc.array(fc.constantFrom('a', 'b', 'A', 'B', '.', '*', '%', '_', '\\'), { maxLength: 12 }).map((a) => a.join(''));
    const pattern = fc.array(alphabet, { maxLength: 8 }).map((a) => a.join(''));
    fc.assert(
      fc.property(pattern, text, (p, t) => likeMatcher(p)(t) === oracle(p, t)),
      { numRuns: 3000 },
    );
  });

  it('answers a pattern of several % against a long name at once (the regex took a minute)', () => {
    // Kept to a size the old regex finished in about a minute, so this fails rather than hangs without the fix;
    // keywords-freeze.test.ts runs the patterns that never returned against a service in its own process.
    const name = 'a'.repeat(200);
    const started = performance.now();
    expect(likeMatcher('%%%%%x%')(name)).toBe(false);
    expect(likeMatcher(`%${'a%'.repeat(40)}`)(name)).toBe(true);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
