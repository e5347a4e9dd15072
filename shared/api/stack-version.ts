// Encoding stack versions (media-processing-api.md "Versioning" 2; service-facts §8: `ffmpeg_stack`
// = `v6.0.0`, `v6|v7|v8`/semver). The spec does not name the parameter; `ffmpeg_stack` is the one the
// robots' docs give. `imagemagick_stack` (default `v3`) has other versions and is not checked here.
// Pure: the local service and the app's editors both use it.

/** Steps' keys that hold an encoding stack version. */
export const STACK_VERSION_PARAMS = ['ffmpeg_stack'] as const;

/** What the spec accepts: `v6`, `v7`, `v8`, and anything matching this (legacy exact and deprecated v5.x included). */
export const STACK_VERSION_PATTERN = /^v?[5-8](\.[0-9]+)?(\.[0-9]+)?$/;
export const DEFAULT_STACK_VERSION = 'v6.0.0';
export const RECOMMENDED_STACK_VERSION = 'v7';
const LEGACY_EXACT = ['v6.0.0', 'v7.0.0', 'v8.0.0'];

export type StackVersionStatus = 'current' | 'legacy' | 'deprecated';

export type StackVersionCheck = { readonly ok: true; readonly status: StackVersionStatus } | { readonly ok: false; readonly problem: string };

/** Whether `value` is an accepted stack version for `key`, and how the spec ranks it; the problem names the key. */
export function checkStackVersion(key: string, value: unknown): StackVersionCheck {
  const accepted = `"v6", "v7", "v8" or a version such as "v7.1" (default "${DEFAULT_STACK_VERSION}", "${RECOMMENDED_STACK_VERSION}" recommended)`;
  if (typeof value !== 'string') return { ok: false, problem: `${key} must be a string: ${accepted} (got ${JSON.stringify(value) ?? String(value)})` };
  if (!STACK_VERSION_PATTERN.test(value)) return { ok: false, problem: `${key} ${JSON.stringify(value)} is not a stack version; use ${accepted}` };
  const major = value.replace(/^v/, '').split('.')[0];
  if (major === '5') return { ok: true, status: 'deprecated' };
  return { ok: true, status: LEGACY_EXACT.includes(value.startsWith('v') ? value : `v${value}`) ? 'legacy' : 'current' };
}

/** The first stack-version key of a step whose value is refused, with why; null when all are accepted or absent. */
export function stackVersionProblem(step: Record<string, unknown>, isDeferred: (v: unknown) => boolean = () => false): { parameter: string; problem: string } | null {
  for (const key of STACK_VERSION_PARAMS) {
    // Absent or null: the default. A `${…}` value is checked once interpolated (the service does).
    if (step[key] === undefined || step[key] === null || isDeferred(step[key])) continue;
    const check = checkStackVersion(key, step[key]);
    if (!check.ok) return { parameter: key, problem: check.problem };
  }
  return null;
}

/** A stack version that is accepted but not advised (deprecated v5.x, a legacy exact version), with why. */
export interface StackVersionNote {
  readonly step: string;
  readonly parameter: string;
  readonly message: string;
}

/** Notes for accepted-but-not-advised stack versions in a steps value; nothing for anything else. */
export function stackVersionNotes(steps: unknown): StackVersionNote[] {
  if (typeof steps !== 'object' || steps === null || Array.isArray(steps)) return [];
  const notes: StackVersionNote[] = [];
  for (const [step, params] of Object.entries(steps as Record<string, unknown>)) {
    if (typeof params !== 'object' || params === null || Array.isArray(params)) continue;
    for (const key of STACK_VERSION_PARAMS) {
      const value = (params as Record<string, unknown>)[key];
      const check = checkStackVersion(key, value);
      if (!check.ok || check.status === 'current') continue;
      const why = check.status === 'deprecated' ? 'is deprecated (still accepted)' : 'is a legacy exact version (still accepted)';
      notes.push({ step, parameter: key, message: `${key} ${JSON.stringify(value)} ${why}; "${RECOMMENDED_STACK_VERSION}" is recommended.` });
    }
  }
  return notes;
}
