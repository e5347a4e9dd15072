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

const hiddenName = (name: string): boolean => name.startsWith('.') || SYSTEM_NAMES.has(name.toLowerCase());

/**
 * A dotfile, OS litter, or anything inside a hidden or system folder. The first name of a folder's path
 * is the folder the user dropped: choosing it is explicit, so only the names below it count.
 */
export function isHiddenPath(relativePath: string): boolean {
  const names = relativePath.split('/');
  for (let i = names.length > 1 ? 1 : 0; i < names.length; i += 1) if (hiddenName(names[i] as string)) return true;
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
    // picomatch's `basename` option breaks patterns that do have a slash: compile the two kinds apart.
    const names = patterns.filter((p) => !p.includes('/'));
    const paths = patterns.filter((p) => p.includes('/'));
    const byName = names.length > 0 ? picomatch(names, { nocase: true, dot: true, basename: true }) : null;
    const byPath = paths.length > 0 ? picomatch(paths, { nocase: true, dot: true }) : null;
    return (relativePath: string) => {
      if (byName?.(relativePath)) return true;
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
