/**
 * SQL LIKE (`%` any run, `_` any one character, no escape character), case-insensitive as in the
 * service's database. A greedy two-pointer match that only ever retries from the last `%`, so it costs at
 * most O(pattern × text) steps: no regex, no backtracking explosion, whatever the user types.
 */
export function likeMatcher(pattern: string): (text: string) => boolean {
  // Runs of `%` mean the same as one; collapsing them keeps the retry loop short.
  const p = [...pattern.toLowerCase().replace(/%+/g, '%')];
  return (text) => likeMatches(p, [...text.toLowerCase()]);
}

function likeMatches(p: readonly string[], t: readonly string[]): boolean {
  let pi = 0;
  let ti = 0;
  // Where the last `%` was, and the text position it currently swallows up to.
  let star = -1;
  let resumeAt = 0;
  while (ti < t.length) {
    const c = p[pi];
    if (c === '%') {
      star = pi++;
      resumeAt = ti;
    } else if (c !== undefined && (c === '_' || c === t[ti])) {
      pi++;
      ti++;
    } else if (star >= 0) {
      // Let the last `%` take one more character and retry what follows it.
      pi = star + 1;
      ti = ++resumeAt;
    } else {
      return false;
    }
  }
  while (p[pi] === '%') pi++;
  return pi === p.length;
}
