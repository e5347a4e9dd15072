import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../shared/api/codes';
import type { AssemblyRuntime } from '../assemblies/assembly-runtime';
import { isRunning } from '../assemblies/assembly-state';
import { authorizedFields } from '../assemblies/replay-assembly';
import { authorizeRequest } from '../auth/authorize-request';
import { apiError, sendError, sendJson } from '../http/api-error';
import type { ServiceDatabase } from '../store/database';
import type { Notifier } from './notifier';
import { notificationListing } from './notify-state';
import { checkNotifyUrl, INVALID_NOTIFY_URL, type AllowedHosts } from './notify-url';
import type { AddressPolicy } from './notify-address';

/** Real codes (service-facts.md §9, "notifications"). */
export const NotificationError = {
  noNotifyUrl: 'ASSEMBLY_NO_NOTIFY_URL',
  notReplayed: 'ASSEMBLY_NOTIFICATION_NOT_REPLAYED',
} as const;

export interface NotificationRouteContext {
  db: ServiceDatabase;
  runtime: AssemblyRuntime;
  notifier: Notifier;
  notifyAllowedHosts?: AllowedHosts;
  notifyAddressPolicy?: AddressPolicy;
}

const PATH = /^\/assembly_notifications\/([0-9a-f]{32})(\/replay)?\/?$/;

/** `wait`: true (default) or false; also "true"/"false"/1/0 from form-encoded SDKs; null = invalid. */
function waitFlag(v: unknown): boolean | null {
  if (v === undefined || v === null || v === '' || v === true || v === 1 || v === 'true' || v === '1') return true;
  if (v === false || v === 0 || v === 'false' || v === '0') return false;
  return null;
}

/**
 * `POST /assembly_notifications/{id}/replay` and `GET /assembly_notifications/{id}` (service-facts.md §7).
 * Both need a signature (or a Bearer token with `assembly_notifications:write` / `assemblies:read`).
 * Returns false for paths that are not notification paths.
 */
export async function routeNotifications(ctx: NotificationRouteContext, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): Promise<boolean> {
  const m = PATH.exec(path);
  const method = req.method ?? 'GET';
  if (!m?.[1]) return false;
  const id = m[1];
  if (m[2] && method === 'POST') {
    await replayNotification(ctx, req, res, id, query);
    return true;
  }
  if (!m[2] && method === 'GET') {
    const auth = authorizeRequest(ctx.db, req, Object.fromEntries(query), true);
    if (!auth.ok) return (sendError(res, auth.error), true);
    const s = ctx.runtime.get(id);
    if (!s) return (sendError(res, apiError(ErrorCode.assemblyNotFound, `Assembly ${id} was not found.`, 404, { assembly_id: id })), true);
    sendJson(res, 200, notificationListing(s));
    return true;
  }
  return false;
}

async function replayNotification(ctx: NotificationRouteContext, req: IncomingMessage, res: ServerResponse, id: string, query: URLSearchParams): Promise<void> {
  const auth = await authorizedFields(ctx, req, query);
  if ('code' in auth) return sendError(res, auth);
  const s = ctx.runtime.get(id);
  if (!s) return sendError(res, apiError(ErrorCode.assemblyNotFound, `Assembly ${id} was not found.`, 404, { assembly_id: id }));
  if (isRunning(s)) return sendError(res, apiError('ASSEMBLY_NOT_FINISHED', `Assembly ${id} is still running: its notification is sent when it ends.`, 400, { assembly_id: id }));
  const wait = waitFlag(auth.params.wait);
  if (wait === null) return sendError(res, apiError(NotificationError.notReplayed, `wait must be true or false (got ${JSON.stringify(auth.params.wait)}).`, 400));
  const override = checkNotifyUrl(auth.params.notify_url, ctx.notifyAllowedHosts ?? [], ctx.notifyAddressPolicy);
  if ('problem' in override) return sendError(res, apiError(INVALID_NOTIFY_URL, override.problem, 400));
  // An override goes to this replay only: the stored notify_url stays (service-facts.md §3).
  const url = override.url ?? s.notifyUrl ?? null;
  if (!url) return sendError(res, apiError(NotificationError.noNotifyUrl, `Assembly ${id} has no notify_url: pass one to replay its notification to.`, 400, { assembly_id: id }));
  const { notificationId, attempt } = await ctx.notifier.replay(id, url, wait);
  sendJson(res, 200, {
    ok: 'ASSEMBLY_NOTIFICATION_REPLAYED',
    message: wait ? 'The notification was sent.' : 'The notification will be sent shortly.',
    success: wait ? attempt?.successful === true : true,
    assembly_id: id,
    notification_id: notificationId,
    notify_url: url,
    ...(attempt ? { notify_response_code: attempt.response_code, notify_response_data: attempt.response_data, notify_error: attempt.error, notify_duration: attempt.duration } : {}),
  });
}
