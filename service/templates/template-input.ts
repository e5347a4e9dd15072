import { apiError, type ApiError } from '../http/api-error';
import { INSTRUCTION_LIMITS, jsonTextTooDeep, valueTooDeep } from '../instructions/instruction-limits';
import { validateInstructions, whereOf } from '../instructions/validate-instructions';
import { TemplateError } from './template-record';

/** What POST /templates and PUT /templates/{id} may set; absent keys are left as they are on edit. */
export interface TemplateInput {
  name?: string;
  content?: unknown;
  requireSignatureAuth?: 0 | 1;
  description?: string;
}

const MAX_NAME = 255;
const MAX_DESCRIPTION = 1000;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const invalid = (message: string): ApiError => apiError(TemplateError.invalidField, message, 400);

/**
 * The Template params of a create or edit (service-facts.md §10). `template` comes as a JSON-encoded
 * string (docs, PHP/PY SDKs) or as an object (Node and Go SDKs): both are accepted. Steps inside the
 * content are checked like an Assembly's, so a Template that could never run is refused at save time.
 */
export function parseTemplateInput(params: Record<string, unknown>, mode: 'create' | 'edit'): TemplateInput | ApiError {
  const input: TemplateInput = {};

  if (params.name !== undefined || mode === 'create') {
    if (typeof params.name !== 'string') return invalid('name is required: a string of 1 to 255 characters.');
    const name = params.name.trim();
    if (name.length < 1 || name.length > MAX_NAME) return invalid(`name must be 1 to 255 characters (got ${name.length}).`);
    input.name = name;
  }

  if ('template' in params || mode === 'create') {
    const raw = params.template;
    if (raw === undefined) return invalid('template is required: the Template content as JSON (a string or an object).');
    const tooDeep = typeof raw === 'string' ? jsonTextTooDeep(raw) : valueTooDeep(raw);
    if (tooDeep) return apiError(TemplateError.invalidJson, `template nests deeper than ${INSTRUCTION_LIMITS.jsonDepth} levels of arrays and objects.`, 400);
    if (typeof raw === 'string') {
      try {
        input.content = JSON.parse(raw);
      } catch (e) {
        return apiError(TemplateError.invalidJson, `template is not valid JSON: ${(e as Error).message}`, 400);
      }
    } else {
      input.content = raw;
    }
    if (isObject(input.content) && 'steps' in input.content) {
      const problem = validateInstructions(input.content.steps);
      // `step` and `parameter` say where: the app's editor marks that line.
      if (problem) return apiError(problem.code, `The Template's steps are invalid: ${problem.message}`, 400, whereOf(problem));
    }
    if (isObject(input.content) && 'allow_steps_override' in input.content && typeof input.content.allow_steps_override !== 'boolean') {
      return apiError(TemplateError.invalidField, 'allow_steps_override must be true or false.', 400, { parameter: 'allow_steps_override' });
    }
  }

  if (params.require_signature_auth !== undefined) {
    const v = params.require_signature_auth;
    if (v === 0 || v === '0' || v === false) input.requireSignatureAuth = 0;
    else if (v === 1 || v === '1' || v === true) input.requireSignatureAuth = 1;
    else return invalid('require_signature_auth must be 0 or 1.');
  }

  if (params.description !== undefined) {
    if (typeof params.description !== 'string' || params.description.length > MAX_DESCRIPTION) {
      return invalid(`description must be a string of at most ${MAX_DESCRIPTION} characters.`);
    }
    input.description = params.description;
  }
  return input;
}
