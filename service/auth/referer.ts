import { cachedTimedRegex, type TimedRegex } from '../regex/timed-regex';

export type RefererCheck = 'match' | 'mismatch' | 'invalid' | 'timeout';

/** Evaluation budget for `auth.referer`: a catastrophic expression must never hang the server. */
export const REFERER_TIMEOUT_MS = 50;

/**
 * Matches the `auth.referer` expression against the Referer header inside a `node:vm` context with a
 * timeout, which interrupts runaway backtracking (e.g. `(a+)+$`). The context is compiled once per
 * expression and kept in a bounded LRU, so only the match itself counts against the budget and
 * concurrent requests with the same expression cost microseconds. A missing Referer always passes.
 */
export function checkReferer(expression: string, referer: string | undefined): RefererCheck {
  let re: TimedRegex;
  try {
    re = cachedTimedRegex(expression);
  } catch {
    return 'invalid';
  }
  if (!referer) return 'match';
  const matched = re.test(referer, REFERER_TIMEOUT_MS);
  return matched === 'timeout' ? 'timeout' : matched ? 'match' : 'mismatch';
}
