import { cachedTimedRegex } from './timed-regex';

/** Budget of one /file/filter `regex` condition against one file: far above any sane pattern's needs. */
export const FILTER_REGEX_TIMEOUT_MS = 100;

/**
 * A /file/filter `regex` condition (`"image"` or `"/^image\//i"`), case-insensitive like the real
 * service's RE2, run with a time limit: RE2 is linear, V8's engine is not, so a pattern like `(a+)+$`
 * against a file name must be stopped rather than freeze the service. Throws for an invalid pattern
 * and for one that ran out of time (the robot reports either as FILE_FILTER_VALIDATION).
 */
export function filterRegexMatches(pattern: string, text: string): boolean {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  const [source, flags] = m ? [m[1]!, m[2]!.includes('i') ? m[2]! : `${m[2]!}i`] : [pattern, 'i'];
  const matched = cachedTimedRegex(source, flags).test(text, FILTER_REGEX_TIMEOUT_MS);
  if (matched === 'timeout') throw new Error(`the regular expression ${JSON.stringify(pattern)} took longer than ${FILTER_REGEX_TIMEOUT_MS} ms and was stopped; simplify it`);
  return matched;
}
