import picomatch from 'picomatch/posix.js';
import type { SkipRules } from '../../../shared/ipc/transfer-models';

/**
 * Which files of a draft the skip rules leave out. Pure: the draft keeps every readable file, and the plan
 * and `take()` ask these rules, so changing a rule changes the plan at once without walking again.
 * `skipUnchanged` is not decided here: it needs the file's content, which the engine hashes in its turn.
 */

export type SkipReason = 'hidden' | 'pattern' | 'size';

/** OS litter, matched case-insensitively on any name of the path. Dotfiles (`.DS_Store`, `._x`, `.git`) too. */
const SYSTEM_NAMES = new Set(['thumbs.db', 'ehthumbs.db', 'desktop.ini', '$recycle.bin', 'system volume information', 'icon\r']);

const SYSTEM_NAME_LENGTHS = new Set([...SYSTEM_NAMES].map((n) => n.length));
const DOT = 46;

/**
 * A dotfile, OS litter, or anything inside a hidden or system folder. The first name of a folder's path
 * is the folder the user dropped: choosing it is explicit, so only the names below it count. (Scans the
 * string in place: the plan asks this of 100,000 paths.)
 */
export function isHiddenPath(relativePath: string): boolean {
  const firstSlash = relativePath.indexOf('/');
  let start = firstSlash < 0 ? 0 : firstSlash + 1;
  while (start <= relativePath.length) {
    const slash = relativePath.indexOf('/', start);
    const end = slash < 0 ? relativePath.length : slash;
    if (relativePath.charCodeAt(start) === DOT) return true;
    if (SYSTEM_NAME_LENGTHS.has(end - start) && SYSTEM_NAMES.has(relativePath.slice(start, end).toLowerCase())) return true;
    if (slash < 0) return false;
    start = slash + 1;
  }
  return false;
}

export interface SkipTester {
  /** Why the rules leave this file out, or null when it stays. */
  (file: { relativePath: string; size: number }): SkipReason | null;
}

/**
 * Compile the rules once for a whole draft. Patterns are globs, case-insensitive. One without a slash
 * (`*.jpg`) matches the file's name in any folder; one with a slash (`raw/**`) matches the relative path
 * either from the dropped folder's own name (`shoot/raw/a.jpg`) or from inside it (`raw/a.jpg`).
 */
export function compileSkipRules(rules: SkipRules): SkipTester {
  const matcherOf = (patterns: readonly string[]) => {
    if (patterns.length === 0) return null;
    // Patterns without a slash match the name (picomatch's own `basename` option breaks patterns that do
    // have one, and splits every path): the two kinds are compiled apart.
    const names = patterns.filter((p) => !p.includes('/'));
    const paths = patterns.filter((p) => p.includes('/'));
    const byName = names.length > 0 ? picomatch(names, { nocase: true, dot: true }) : null;
    const byPath = paths.length > 0 ? picomatch(paths, { nocase: true, dot: true }) : null;
    return (relativePath: string) => {
      if (byName?.(relativePath.slice(relativePath.lastIndexOf('/') + 1))) return true;
      if (!byPath) return false;
      if (byPath(relativePath)) return true;
      const slash = relativePath.indexOf('/');
      return slash >= 0 && byPath(relativePath.slice(slash + 1));
    };
  };
  const include = matcherOf(rules.include);
  const exclude = matcherOf(rules.exclude);
  const { skipHidden, minBytes, maxBytes } = rules;
  return ({ relativePath, size }) => {
    if (skipHidden && isHiddenPath(relativePath)) return 'hidden';
    if (include && !include(relativePath)) return 'pattern';
    if (exclude && exclude(relativePath)) return 'pattern';
    if ((minBytes !== null && size < minBytes) || (maxBytes !== null && size > maxBytes)) return 'size';
    return null;
  };
}
