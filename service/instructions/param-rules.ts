// What the local service's own parameter rules per robot family share (media-params.ts,
// document-params.ts): a rule reads a step's params and names one problem, or none.

export type Params = Record<string, unknown>;

export interface ParamProblem {
  /** Absent: `<ROBOT>_VALIDATION`. */
  code?: string;
  problem: string;
}

/** A rule; `final` once placeholders (`${…}`) are filled in, so a value that still has one waits until then. */
export type Rule = (p: Params, final: boolean) => string | null;

export const deferred = (final: boolean, v: unknown): boolean => !final && typeof v === 'string' && v.includes('${');
export const set = (v: unknown): boolean => v !== undefined && v !== null;
export const show = (v: unknown): string => JSON.stringify(v) ?? String(v);
