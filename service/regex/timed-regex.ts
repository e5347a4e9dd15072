import vm from 'node:vm';

/**
 * A regular expression from outside (an `auth.referer`, a /file/filter condition) run with a time limit:
 * V8's backtracking engine can take forever on `(a+)+$`, and a `node:vm` timeout interrupts it.
 */
export interface TimedRegex {
  /** true/false, or 'timeout' when the match ran past `timeoutMs` (and was stopped). */
  test(text: string, timeoutMs: number): boolean | 'timeout';
}

/** Patterns kept compiled: enough for every distinct pattern a busy account sends, bounded all the same. */
export const TIMED_REGEX_CACHE_SIZE = 256;

/** Retries of a match stopped while it hardly ran (the process was starved, not the pattern slow). */
const MAX_STARVED_RETRIES = 3;

const cache = new Map<string, TimedRegex>();
// One script for every context: compiled once, run in the context of each pattern.
const TEST = new vm.Script('re.lastIndex = 0; re.test(input)');

/** Compiles in a context of its own; throws a SyntaxError for an invalid pattern. */
export function compileTimedRegex(source: string, flags = ''): TimedRegex {
  const re = new RegExp(source, flags);
  const context = vm.createContext({ re, input: '' });
  return {
    test(text, timeoutMs) {
      context.input = text;
      // A busy machine can keep this thread off the CPU past the limit while the match itself is cheap:
      // only a limit reached while the match really used the CPU counts; otherwise try again.
      for (let attempt = 0; ; attempt++) {
        const cpuBefore = process.cpuUsage();
        try {
          return TEST.runInContext(context, { timeout: timeoutMs }) === true;
        } catch (cause) {
          if ((cause as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw cause;
          const cpuMs = process.cpuUsage(cpuBefore).user / 1000;
          if (cpuMs >= timeoutMs / 2 || attempt >= MAX_STARVED_RETRIES) return 'timeout';
        }
      }
    },
  };
}

/**
 * The compiled pattern from a bounded LRU cache: creating a vm context costs milliseconds, so 40
 * concurrent requests with the same `auth.referer` must not each make one. Throws like compileTimedRegex.
 */
export function cachedTimedRegex(source: string, flags = ''): TimedRegex {
  const key = `${flags}/${source}`;
  let entry = cache.get(key);
  if (entry) {
    // Most recently used goes last; the first entry is the one to drop.
    cache.delete(key);
  } else {
    entry = compileTimedRegex(source, flags);
    if (cache.size >= TIMED_REGEX_CACHE_SIZE) cache.delete(cache.keys().next().value!);
  }
  cache.set(key, entry);
  return entry;
}

/** How many compiled patterns the cache holds (for tests and diagnostics). */
export const timedRegexCacheSize = (): number => cache.size;
