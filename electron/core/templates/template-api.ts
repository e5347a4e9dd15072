import { templateListRecordSchema, templateRecordSchema, type TemplateRecord } from '../../../shared/api/template-record';
import type { Template, TemplateList, TemplateListQuery } from '../../../shared/ipc/template-models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';

/** Service record → the renderer's model. */
export function toTemplate(r: TemplateRecord): Template {
  const flag = r.require_signature_auth;
  return {
    id: r.id,
    name: r.name,
    content: r.content ?? null,
    requireSignatureAuth: flag === 1 || flag === '1' || flag === true ? 1 : 0,
    description: r.description ?? '',
    created: r.created ?? null,
    modified: r.modified ?? null,
    lastUsed: r.last_used ?? null,
    builtinVersion: r.builtin_version ?? null,
  };
}

const invalid = (what: string, detail: string): Result<never> => err(AppErrorCode.invalidResponse, `The service sent an unexpected ${what}: ${detail}`);

function parseTemplate(body: Record<string, unknown>): Result<Template> {
  const parsed = templateRecordSchema.safeParse(body);
  return parsed.success ? ok(toTemplate(parsed.data)) : invalid('Template record', parsed.error.issues[0]?.message ?? 'unreadable');
}

/** Built-in ids keep their slash in the path (`/templates/builtin/<slug>@<v>`); other ids are one segment. */
const templatePath = (id: string): string => (id.startsWith('builtin/') ? `/templates/builtin/${encodeURIComponent(id.slice(8))}` : `/templates/${encodeURIComponent(id)}`);

export async function listTemplates(api: ApiClient, q: Required<Omit<TemplateListQuery, 'workspaceId' | 'keywords' | 'fromdate' | 'todate'>> & TemplateListQuery): Promise<Result<TemplateList>> {
  const params: Record<string, unknown> = {
    page: q.page,
    pagesize: q.pagesize,
    sort: q.sort,
    order: q.order,
    include_builtin: q.includeBuiltin,
    ...(q.keywords ? { keywords: q.keywords } : {}),
    ...(q.fromdate ? { fromdate: q.fromdate } : {}),
    ...(q.todate ? { todate: q.todate } : {}),
  };
  const res = await api.request('GET', '/templates', params);
  if (!res.ok) return res;
  const parsed = templateListRecordSchema.safeParse(res.value);
  if (!parsed.success) return invalid('Template list', parsed.error.issues[0]?.message ?? 'unreadable');
  return ok({ items: parsed.data.items.map(toTemplate), count: parsed.data.count });
}

export async function getTemplate(api: ApiClient, id: string): Promise<Result<Template>> {
  const res = await api.request('GET', templatePath(id));
  return res.ok ? parseTemplate(res.value) : res;
}

export interface TemplateChange {
  name?: string | undefined;
  content?: unknown;
  requireSignatureAuth?: 0 | 1 | undefined;
  description?: string | undefined;
}

/** The Template params of a create or edit; content goes as a JSON string, as the docs and most SDKs send it. */
function changeParams(c: TemplateChange): Record<string, unknown> {
  return {
    ...(c.name !== undefined ? { name: c.name } : {}),
    ...('content' in c ? { template: JSON.stringify(c.content ?? null) } : {}),
    ...(c.requireSignatureAuth !== undefined ? { require_signature_auth: c.requireSignatureAuth } : {}),
    ...(c.description !== undefined ? { description: c.description } : {}),
  };
}

export async function createTemplate(api: ApiClient, input: TemplateChange & { name: string }): Promise<Result<Template>> {
  const res = await api.request('POST', '/templates', changeParams(input));
  return res.ok ? parseTemplate(res.value) : res;
}

export async function updateTemplate(api: ApiClient, id: string, change: TemplateChange): Promise<Result<Template>> {
  const res = await api.request('PUT', templatePath(id), changeParams(change));
  return res.ok ? parseTemplate(res.value) : res;
}

export async function deleteTemplate(api: ApiClient, id: string): Promise<Result<Record<string, never>>> {
  const res = await api.request('DELETE', templatePath(id));
  return res.ok ? ok({}) : res;
}
