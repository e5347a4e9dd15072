import vm from 'node:vm';

export type RefererCheck = 'match' | 'mismatch' | 'invalid' | 'timeout';

/** Evaluation budget for `auth.referer`: a catastrophic expression must never hang the server. */
export const REFERER_TIMEOUT_MS = 50;

/**
 * Matches the `auth.referer` expression against the Referer header inside a `node:vm` context with a
 * timeout, which interrupts runaway backtracking (e.g. `(a+)+$`). A missing Referer always passes.
 */
export function checkReferer(expression: string, referer: string | undefined): RefererCheck {
  try {
    new RegExp(expression);
  } catch {
    return 'invalid';
  }
  if (!referer) return 'match';
  try {
    const matched = vm.runInNewContext('new RegExp(expression).test(referer)', { expression, referer }, { timeout: REFERER_TIMEOUT_MS });
    return matched === true ? 'match' : 'mismatch';
  } catch {
    return 'timeout';
  }
}
