import { stackVersionNotes } from '../../../../shared/api/stack-version';
import { checkTemplateContent } from '../../../../shared/api/step-rules';
import { lineOfPath, parseJsonWithPosition, type JsonSyntaxError } from '../../lib/json-position';
import { EDITOR_RULES } from '../../lib/step-checks';

/** A problem in a Template's JSON, at the line the editor marks. */
export interface TemplateProblem {
  readonly code: string;
  readonly message: string;
  /** 1-based. */
  readonly line: number;
  readonly step?: string;
  readonly parameter?: string;
}

export type TemplateCheck =
  | { readonly kind: 'ok'; readonly content: unknown }
  | { readonly kind: 'syntax'; readonly error: JsonSyntaxError }
  | { readonly kind: 'invalid'; readonly problems: readonly TemplateProblem[] };

/**
 * The line a problem is at: the parameter inside its step, else the step, else the top-level key, else
 * `"steps"`, else line 1; `path` goes inside the parameter (`mcp_servers` → `0` → `url`). `step`/`parameter` come from the shared checks or from the service's error body.
 */
export const lineOfProblem = (text: string, where: { readonly step?: string | undefined; readonly parameter?: string | undefined; readonly path?: readonly string[] | undefined }): number => {
  const inner = where.parameter !== undefined ? [where.parameter, ...(where.path ?? [])] : [];
  const path = where.step !== undefined ? ['steps', where.step, ...inner] : where.parameter !== undefined ? inner : ['steps'];
  return lineOfPath(text, path) ?? lineOfPath(text, ['steps']) ?? 1;
};

/**
 * What the Template editor checks as the user types: JSON syntax (with line and column), then the
 * service's rules for a Template's content (shared/api/step-rules.ts), each problem at its line.
 */
export const checkTemplateText = (text: string): TemplateCheck => {
  const parsed = parseJsonWithPosition(text);
  if (!parsed.ok) return { kind: 'syntax', error: parsed.error };
  const problems = checkTemplateContent(parsed.value, EDITOR_RULES).map((p): TemplateProblem => ({ ...p, line: lineOfProblem(text, p) }));
  problems.sort((a, b) => a.line - b.line);
  return problems.length > 0 ? { kind: 'invalid', problems } : { kind: 'ok', content: parsed.value };
};

/** A note at a line: accepted, but not advised (a deprecated or legacy stack version). */
export interface TemplateNote {
  readonly message: string;
  /** 1-based. */
  readonly line: number;
}

/** Notes for valid content (`checkTemplateText` said ok), each at the line of its key. */
export const templateNotes = (text: string, content: unknown): TemplateNote[] => {
  if (typeof content !== 'object' || content === null || !('steps' in content)) return [];
  return stackVersionNotes((content as { steps: unknown }).steps).map((n) => ({ message: `Step "${n.step}": ${n.message}`, line: lineOfProblem(text, n) }));
};
