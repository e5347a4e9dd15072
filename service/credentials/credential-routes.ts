import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../shared/api/codes';
import { authorizedParams } from '../auth/authorized-params';
import { apiError, sendError, sendJson } from '../http/api-error';
import type { ServiceDatabase } from '../store/database';
import { templateDate } from '../templates/template-record';
import { CREDENTIAL_TYPES, CredentialError, parseCredentialInput } from './credential-input';
import type { CredentialRow, CredentialStore } from './credential-store';

export interface CredentialRouteContext {
  db: ServiceDatabase;
  credentials: CredentialStore;
  accountId: string;
}

const ONE = /^\/template_credentials\/([^/]+)\/?$/;

/** The credential record of the spec: all fields, content included (the account owner reads it back). */
export const credentialRecord = (c: CredentialRow, accountId: string): Record<string, unknown> => ({
  id: c.id,
  account_id: accountId,
  name: c.name,
  type: c.type,
  content: c.content,
  stringified: JSON.stringify(c.content),
  created: templateDate(c.createdMs),
  modified: templateDate(c.modifiedMs),
  deleted: null,
});

const notRead = (key: string) => apiError(CredentialError.notRead, `No Template credentials with id or name "${key}".`, 404);
const nameTaken = (name: string) => apiError(CredentialError.nameTaken, `Template credentials named "${name}" already exist: names are unique.`, 400);

/** `/template_credentials…` (spec Template credentials rows, service-facts.md §7). Signatures required. */
export async function routeCredentials(ctx: CredentialRouteContext, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
  const method = req.method ?? 'GET';
  const isList = path === '/template_credentials' || path === '/template_credentials/';
  const one = isList ? null : ONE.exec(path);
  if (!isList && !one) return false;
  const auth = await authorizedParams(ctx.db, req, query);
  if (!auth.ok) {
    sendError(res, auth.error);
    return true;
  }
  const now = Date.now();
  const record = (c: CredentialRow) => credentialRecord(c, ctx.accountId);
  const key = one ? decodeURIComponent(one[1]!) : '';

  if (isList && method === 'GET') {
    sendJson(res, 200, { ok: 'TEMPLATE_CREDENTIALS_FOUND', message: 'Template credentials found.', credentials: ctx.credentials.all().map(record) });
  } else if (isList && method === 'POST') {
    const input = parseCredentialInput(auth.params, 'create');
    if ('code' in input) sendError(res, input);
    else if (ctx.credentials.find(input.name!)) sendError(res, nameTaken(input.name!));
    else {
      const created = ctx.credentials.create({ name: input.name!, type: input.type!, content: input.content! }, now);
      sendJson(res, 200, { ok: 'TEMPLATE_CREDENTIALS_CREATED', message: 'The Template credentials were created.', credential: record(created) });
    }
  } else if (key === 'types' && method === 'GET') {
    sendJson(res, 200, { ok: 'TEMPLATE_CREDENTIALS_TYPES_FOUND', types: CREDENTIAL_TYPES });
  } else if (one && method === 'GET') {
    const c = ctx.credentials.find(key);
    if (!c) sendError(res, notRead(key));
    else sendJson(res, 200, { ok: 'TEMPLATE_CREDENTIALS_FOUND', message: 'Template credentials found.', credential: record(c) });
  } else if (one && method === 'PUT') {
    const input = parseCredentialInput(auth.params, 'edit');
    const current = ctx.credentials.find(key);
    if ('code' in input) sendError(res, input);
    else if (!current) sendError(res, notRead(key));
    else if (input.name && input.name !== current.name && ctx.credentials.find(input.name)) sendError(res, nameTaken(input.name));
    else {
      const updated = ctx.credentials.update(current.id, input, now)!;
      sendJson(res, 200, { ok: 'TEMPLATE_CREDENTIALS_UPDATED', message: 'The Template credentials were updated.', credential: record(updated) });
    }
  } else if (one && method === 'DELETE') {
    const current = ctx.credentials.find(key);
    if (!current || !ctx.credentials.delete(current.id)) sendError(res, notRead(key));
    else sendJson(res, 200, { ok: 'TEMPLATE_CREDENTIALS_DELETED', message: 'The Template credentials were deleted.' });
  } else {
    sendError(res, apiError(ErrorCode.server404, 'unknown method / url', 404));
  }
  return true;
}
