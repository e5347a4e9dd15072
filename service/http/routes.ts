import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode } from '../../shared/api/codes';
import type { AssemblyRuntime } from '../assemblies/assembly-runtime';
import { createAssembly, type CreateContext } from '../assemblies/create-assembly';
import { listAssemblies } from '../assemblies/list-assemblies';
import { replayAssembly, type ReplayContext } from '../assemblies/replay-assembly';
import { routeNotifications, type NotificationRouteContext } from '../notifications/notification-routes';
import { sseEvent, sseMessage, type UpdateStreams } from '../realtime/update-stream';
import { routeAuthKeys } from '../auth-keys/auth-key-routes';
import { routeAssets, type AssetRouteContext } from '../assets/asset-routes';
import type { OAuthServer } from '../auth/oauth';
import { routeOAuthClients } from '../auth/oauth-clients';
import { mintToken } from '../auth/token-endpoint';
import { readFormFields } from './form-fields';
import { routeCdn, type CdnRuntime } from '../cdn/cdn-route';
import { routeCredentials, type CredentialRouteContext } from '../credentials/credential-routes';
import { routeTemplates, type TemplateRouteContext } from '../templates/template-routes';
import { routeQueue } from '../queue/queue-routes';
import { TUS_PATH, type TusEndpoint } from '../tus/tus-endpoint';
import { apiError, sendError, sendJson } from './api-error';
import { routeBill, type BillRouteContext } from '../usage/bill-route';
import { assemblyStatsRoute } from '../stats/stats-route';
import { serveFile } from './serve-file';

export interface RouteContext extends CreateContext, ReplayContext, NotificationRouteContext, TemplateRouteContext, CredentialRouteContext, BillRouteContext, AssetRouteContext {
  oauth: OAuthServer;
  runtime: AssemblyRuntime;
  streams: UpdateStreams;
  tus: TusEndpoint;
  hostname: string;
  cdn: CdnRuntime;
}

const ASSEMBLY = /^\/assemblies\/([0-9a-f]{32})\/?$/;
const ASSEMBLY_REPLAY = /^\/assemblies\/([0-9a-f]{32})\/replay\/?$/;
const ASSEMBLY_STREAM = /^\/assemblies\/([0-9a-f]{32})\/stream\/?$/;
const FILE = /^\/(uploads|results)\/([0-9a-f]{32})\/([0-9a-f]{32})(?:\/[^/]*)?$/;
const UPDATE_STREAM = /^\/ws\d+\/?$/;

const notFound = (): ReturnType<typeof apiError> => apiError(ErrorCode.server404, 'unknown method / url', 404);
const assemblyNotFound = (id: string): ReturnType<typeof apiError> => apiError(ErrorCode.assemblyNotFound, `Assembly ${id} was not found.`, 404, { assembly_id: id });

/** The whole HTTP surface (see docs/local-service.md). */
export async function route(ctx: RouteContext, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://local');
  const path = url.pathname;
  const method = req.method ?? 'GET';

  if (path === TUS_PATH || path.startsWith(`${TUS_PATH}/`)) return ctx.tus.handle(req, res);

  // Tokens are minted "on the server side only and never from a browser" (spec "Bearer tokens" 5): /token
  // answers no other origin, so a web page can neither send it Basic credentials (its preflight gets no
  // CORS headers) nor read a token it answered (issue 25).
  const browserAllowed = path !== '/token';
  if (browserAllowed) res.setHeader('Access-Control-Allow-Origin', '*');
  if (method === 'OPTIONS' && !browserAllowed) {
    res.writeHead(204, { Allow: 'POST' });
    res.end();
    return;
  }
  if (method === 'OPTIONS') {
    res.writeHead(204, {
      'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
      // Uppy sends Transloadit-Client; tus-js-client-style clients add X-Request-ID (service-facts, last addendum).
      'Access-Control-Allow-Headers': 'Content-Type, Transloadit-Client, Authorization, Accept, X-Request-ID',
      'Access-Control-Max-Age': '600',
    });
    res.end();
    return;
  }
  if (path === '/' && method === 'GET') return sendJson(res, 200, { ok: 'SERVER_ROOT', hostname: ctx.hostname });

  if (path.startsWith('/file/') && (method === 'GET' || method === 'HEAD') && (await routeCdn(ctx, req, res, url))) return;
  if (path === '/token' && method === 'POST') return mintToken(ctx.db, req, res, ctx.oauth);
  if (path === '/.well-known/oauth-authorization-server' && method === 'GET') return ctx.oauth.metadata(req, res);
  if (path === '/authorize' && method === 'GET') return ctx.oauth.authorizePage(req, res, url.searchParams);
  if (path === '/authorize' && method === 'POST') {
    const form = await readFormFields(req);
    return ctx.oauth.decide(req, res, form.ok ? form.fields : {});
  }
  if (path === '/assemblies' && method === 'POST') return createAssembly(ctx, req, res, null, url.searchParams);
  if (path === '/assemblies' && method === 'GET') return listAssemblies(ctx.db, req, res, url.searchParams, ctx.hostname);

  if (path.startsWith('/templates') && (await routeTemplates(ctx, req, res, path, url.searchParams))) return;
  if (path.startsWith('/template_credentials') && (await routeCredentials(ctx, req, res, path, url.searchParams))) return;
  if (path.startsWith('/dam/') && (await routeAssets(ctx, req, res, path, url.searchParams))) return;
  if (path.startsWith('/oauth_clients/') && (await routeOAuthClients(ctx.db, req, res, path, url.searchParams))) return;
  if (path.startsWith('/auth_keys') && (await routeAuthKeys(ctx, req, res, path, url.searchParams))) return;
  if (path.startsWith('/assembly_notifications/') && (await routeNotifications(ctx, req, res, path, url.searchParams))) return;
  if (path.startsWith('/bill/') && (await routeBill(ctx, req, res, path, url.searchParams))) return;
  if ((path === '/assembly_stats' || path === '/assembly_stats/') && method === 'GET') return assemblyStatsRoute(ctx.db, req, res, url.searchParams);
  if ((path.startsWith('/queues/') || path.startsWith('/priority_job_slot_stats')) && (await routeQueue(ctx, req, res, path, url.searchParams))) return;
  const replayOf = ASSEMBLY_REPLAY.exec(path)?.[1];
  if (replayOf && method === 'POST') return replayAssembly(ctx, req, res, replayOf, url.searchParams);

  const stream = ASSEMBLY_STREAM.exec(path)?.[1] ?? (UPDATE_STREAM.test(path) ? url.searchParams.get('assembly') : null);
  if (stream !== null && method === 'GET') return openUpdateStream(ctx, req, res, stream);

  const id = ASSEMBLY.exec(path)?.[1];
  if (id) {
    if (method === 'POST') return createAssembly(ctx, req, res, id, url.searchParams);
    if (method === 'GET') {
      const s = ctx.runtime.get(id);
      return s ? sendJson(res, 200, ctx.runtime.status(s)) : sendError(res, assemblyNotFound(id));
    }
    if (method === 'DELETE') {
      req.resume(); // signed SDK DELETEs carry a form body; cancel needs no signature (service-facts.md §1)
      const s = ctx.runtime.cancel(id);
      return s ? sendJson(res, 200, ctx.runtime.status(s)) : sendError(res, assemblyNotFound(id));
    }
  }

  const file = FILE.exec(path);
  if (file?.[2] && file[3] && (method === 'GET' || method === 'HEAD')) {
    const stored = ctx.runtime.findFile(file[2], file[3]);
    if (stored && (await serveFile(req, res, stored.localPath, stored.mime, stored.name))) return;
    return sendError(res, apiError('FILE_NOT_FOUND', 'No such upload or result file.', 404));
  }
  return sendError(res, notFound());
}

function openUpdateStream(ctx: RouteContext, req: IncomingMessage, res: ServerResponse, id: string): void {
  if (!/^[0-9a-f]{32}$/.test(id)) return sendError(res, notFound());
  const s = ctx.runtime.get(id);
  if (!s) return sendError(res, assemblyNotFound(id));
  const running = s.error === null && (s.ok === 'ASSEMBLY_UPLOADING' || s.ok === 'ASSEMBLY_EXECUTING');
  // A client that arrives after the end hears the end at once, then the stream closes.
  const final = running ? undefined : s.error ? sseEvent('assembly_error', ctx.runtime.status(s)) : sseMessage('assembly_finished');
  ctx.streams.open(req, res, id, final);
}
