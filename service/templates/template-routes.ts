import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../shared/api/codes';
import { authorizedParams } from '../auth/authorized-params';
import { apiError, sendError, sendJson } from '../http/api-error';
import type { ServiceDatabase } from '../store/database';
import { findBuiltin, isBuiltinId } from './builtin-templates';
import { parseTemplateInput } from './template-input';
import { listTemplates, parseTemplateListQuery } from './list-templates';
import { templateRecord, TemplateError, TemplateOk, type TemplateRow } from './template-record';
import type { TemplateStore } from './template-store';

export interface TemplateRouteContext {
  db: ServiceDatabase;
  templates: TemplateStore;
  accountId: string;
}

const TEMPLATE = /^\/templates\/(.+?)\/?$/;
const MAX_ID = 32;

const notFound = (id: string) => apiError(TemplateError.notFound, `No Template with id ${id} was found.`, 404, { template_id: id });

/** A workspace Template by id, or a built-in by `builtin/<slug>[@version|@latest]`. */
export function findTemplate(store: TemplateStore, id: string): TemplateRow | null {
  if (isBuiltinId(id)) return findBuiltin(id);
  if (id.length > MAX_ID || !/^[\x20-\x7e]+$/.test(id)) return null;
  return store.get(id);
}

/**
 * `/templates` and `/templates/{id}` (spec Templates rows; service-facts.md §10). Signature auth is
 * "required" on all of them. Returns false for paths that are not Template paths.
 */
export async function routeTemplates(ctx: TemplateRouteContext, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
  const method = req.method ?? 'GET';
  const isList = path === '/templates' || path === '/templates/';
  const idMatch = isList ? null : TEMPLATE.exec(path);
  if (!isList && !idMatch) return false;

  const auth = await authorizedParams(ctx.db, req, query);
  if (!auth.ok) {
    sendError(res, auth.error);
    return true;
  }
  const params = auth.params;
  const now = Date.now();
  const record = (t: TemplateRow) => templateRecord(t, ctx.accountId);

  if (isList) {
    if (method === 'GET') {
      const q = parseTemplateListQuery(params);
      if (typeof q === 'string') sendError(res, apiError(TemplateError.listError, q, 400));
      else {
        const { items, count } = listTemplates(ctx.templates.all(), q);
        sendJson(res, 200, { items: items.map(record), count });
      }
      return true;
    }
    if (method === 'POST') {
      const input = parseTemplateInput(params, 'create');
      if ('code' in input) sendError(res, input);
      else {
        const created = ctx.templates.create({ ...input, name: input.name! }, now);
        sendJson(res, 200, { ok: TemplateOk.created, message: 'The Template was successfully created.', ...record(created) });
      }
      return true;
    }
    sendError(res, apiError(ErrorCode.server404, 'unknown method / url', 404));
    return true;
  }

  const id = decodeURIComponent(idMatch![1]!);
  if (isBuiltinId(id) && (method === 'PUT' || method === 'DELETE')) {
    sendError(res, apiError(TemplateError.builtinReadOnly, `${id} is a built-in Template: duplicate it to make a Template of your own to change.`, 403));
    return true;
  }
  if (method === 'GET') {
    const t = findTemplate(ctx.templates, id);
    if (!t) sendError(res, notFound(id));
    else sendJson(res, 200, { ok: TemplateOk.found, message: 'Template found.', ...record(t) });
    return true;
  }
  if (method === 'PUT') {
    const input = parseTemplateInput(params, 'edit');
    if ('code' in input) {
      sendError(res, input);
      return true;
    }
    const updated = findTemplate(ctx.templates, id) ? ctx.templates.update(id, input, now) : null;
    if (!updated) sendError(res, notFound(id));
    else sendJson(res, 200, { ok: TemplateOk.updated, message: 'The Template was successfully updated.', ...record(updated) });
    return true;
  }
  if (method === 'DELETE') {
    if (!findTemplate(ctx.templates, id) || !ctx.templates.delete(id)) sendError(res, notFound(id));
    else sendJson(res, 200, { ok: TemplateOk.deleted, message: 'Your template was successfully deleted.' });
    return true;
  }
  sendError(res, apiError(ErrorCode.server404, 'unknown method / url', 404));
  return true;
}
