import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import type {
  AssemblyListItem,
  AssemblyNotifications,
  NotificationReplay,
  ParsedAssemblyListQuery,
  ReplayOptions,
} from '../../../shared/ipc/assembly-models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import { toListItem } from './list-items';
import { listParams } from './list-params';

/** `GET /assemblies` with the filter: the page's items (unreadable ones dropped) and the total count. */
export async function listAssemblies(api: ApiClient, query: ParsedAssemblyListQuery): Promise<Result<{ items: AssemblyListItem[]; count: number }>> {
  const answer = await api.request('GET', '/assemblies', listParams(query));
  if (!answer.ok) return answer;
  const raw = Array.isArray(answer.value.items) ? answer.value.items : null;
  if (!raw) return err(AppErrorCode.invalidResponse, 'The service answered the Assembly list without items.');
  const items = raw.map(toListItem).filter((i): i is AssemblyListItem => i !== null);
  const count = typeof answer.value.count === 'number' ? answer.value.count : items.length;
  return ok({ items, count });
}

/** The status URL of an Assembly of this workspace (ids are checked as 32 hex by the contract). */
export const statusUrlOf = (api: ApiClient, assemblyId: string): string => `${api.endpoint}/assemblies/${assemblyId.toLowerCase()}`;

/** Any Assembly's status record; a failed one (HTTP 200 with `error`) is a value. A missing one keeps the service's code. */
export const getAssemblyStatus = (api: ApiClient, assemblyId: string): Promise<Result<AssemblyStatus>> => api.getAssembly(statusUrlOf(api, assemblyId));

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);
const records = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null) : []);

/** `GET /assembly_notifications/{id}`: every delivery attempt, oldest first, and what is still to be sent. */
export async function getNotifications(api: ApiClient, assemblyId: string): Promise<Result<AssemblyNotifications>> {
  const answer = await api.request('GET', `/assembly_notifications/${assemblyId.toLowerCase()}`);
  if (!answer.ok) return answer;
  return ok({
    notifyUrl: str(answer.value.notify_url),
    attempts: records(answer.value.items).map((a) => ({
      url: str(a.url),
      replay: a.replay === true,
      attempt: num(a.attempt),
      started: str(a.started),
      duration: num(a.duration),
      responseCode: num(a.response_code),
      responseData: typeof a.response_data === 'string' ? a.response_data.slice(0, 1000) : null,
      error: str(a.error),
      successful: a.successful === true,
    })),
    pending: records(answer.value.pending).map((p) => ({ url: str(p.url), attempts: num(p.attempts), nextAttempt: str(p.next_attempt) })),
  });
}

/**
 * The replay request's params (service-facts §7): what the user chose, and execution progress, which the
 * app asks for on every Assembly it starts (the replay's view follows it live).
 */
export function replayParams(options: ReplayOptions): Record<string, unknown> {
  const params: Record<string, unknown> = { emit_execution_progress: true };
  if (options.steps) params.steps = options.steps;
  if (options.templateId) params.template_id = options.templateId;
  if (options.reparseTemplate !== undefined) params.reparse_template = options.reparseTemplate ? 1 : 0;
  if (options.notifyUrl !== undefined && options.notifyUrl.trim() !== '') params.notify_url = options.notifyUrl.trim();
  return params;
}

/** `POST /assemblies/{id}/replay` → the new Assembly's id (its status is read with getAssemblyStatus). */
export async function replayAssembly(api: ApiClient, assemblyId: string, options: ReplayOptions): Promise<Result<{ parentId: string; assemblyId: string }>> {
  const answer = await api.request('POST', `/assemblies/${assemblyId.toLowerCase()}/replay`, replayParams(options));
  if (!answer.ok) return answer;
  const id = str(answer.value.assembly_id);
  if (!id) return err(AppErrorCode.invalidResponse, 'The service answered the replay without the new Assembly id.');
  return ok({ parentId: assemblyId.toLowerCase(), assemblyId: id });
}

/**
 * `POST /assembly_notifications/{id}/replay` with `notify_url` (this replay only) and `wait`: with `wait`
 * the first attempt's outcome; without, that it was queued. Refusals keep the service's code.
 */
export async function replayNotification(api: ApiClient, assemblyId: string, options: { notifyUrl?: string | undefined; wait: boolean }): Promise<Result<NotificationReplay>> {
  const params: Record<string, unknown> = { wait: options.wait };
  const url = options.notifyUrl?.trim();
  if (url) params.notify_url = url;
  const answer = await api.request('POST', `/assembly_notifications/${assemblyId.toLowerCase()}/replay`, params);
  if (!answer.ok) return answer;
  const v = answer.value;
  return ok({
    success: v.success === true,
    queued: !options.wait,
    notifyUrl: str(v.notify_url) ?? url ?? null,
    responseCode: num(v.notify_response_code),
    responseData: typeof v.notify_response_data === 'string' ? v.notify_response_data.slice(0, 1000) : null,
    error: str(v.notify_error),
    duration: num(v.notify_duration),
  });
}
