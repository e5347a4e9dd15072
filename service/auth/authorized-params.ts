import type { IncomingMessage } from 'node:http';
import { ErrorCode } from '../../shared/api/codes';
import { apiError, type ApiError } from '../http/api-error';
import { readFormFields } from '../http/form-fields';
import type { ServiceDatabase } from '../store/database';
import { authorizeRequest } from './authorize-request';

/**
 * The params of a request to an account endpoint (Templates, credentials), authenticated: from the query
 * string for GET, and from the form body (over the query) otherwise. Signatures are required there.
 */
export async function authorizedParams(
  db: ServiceDatabase,
  req: IncomingMessage,
  query: URLSearchParams,
): Promise<{ ok: true; params: Record<string, unknown> } | { ok: false; error: ApiError }> {
  const method = req.method ?? 'GET';
  const body = method === 'GET' || method === 'HEAD' ? { ok: true as const, fields: {} } : await readFormFields(req);
  if (!body.ok) return { ok: false, error: apiError(ErrorCode.invalidFormData, body.message, body.httpCode) };
  const fields: Record<string, string> = { ...Object.fromEntries(query), ...body.fields };
  const auth = authorizeRequest(db, req, fields, true);
  return auth.ok ? { ok: true, params: auth.value.params } : { ok: false, error: auth.error };
}
