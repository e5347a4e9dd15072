import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { AssemblyRuntime } from './assemblies/assembly-runtime';
import { createOAuth } from './auth/oauth';
import { apiError, sendError } from './http/api-error';
import { RateLimiter } from './http/rate-limiter';
import { route } from './http/routes';
import { UpdateStreams } from './realtime/update-stream';
import { openDatabase, type AccountRow, type ServiceDatabase } from './store/database';
import { openCredentialStore } from './credentials/credential-store';
import { openTemplateStore } from './templates/template-store';
import { createTusEndpoint } from './tus/tus-endpoint';

/** The local service has one account; Templates and credentials belong to it, not to a key. */
const LOCAL_ACCOUNT_ID = 'local';

export interface LocalServiceOptions {
  /** 0 (default) = an ephemeral port. */
  port?: number;
  host?: '127.0.0.1';
  dataDir: string;
  /** Generated and persisted in dataDir when absent. */
  authKey?: string;
  authSecret?: string;
  /** Account setting "Require a correct Signature". */
  requireSignature?: boolean;
  /** Base of the URLs in status records (default http://127.0.0.1:<port>). */
  publicBaseUrl?: string;
  /** Assemblies per minute before 413 RATE_LIMIT_REACHED (default: unlimited). */
  maxAssembliesPerMinute?: number;
}

export interface LocalService {
  url: string;
  port: number;
  authKey: string;
  authSecret: string;
  close(): Promise<void>;
}

/** The key/secret given, else the one stored in the data dir, else a new one (stored so a restart keeps it). */
function resolveAccount(db: ServiceDatabase, o: LocalServiceOptions): AccountRow {
  const stored = o.authKey ? db.getAccount(o.authKey) : db.firstAccount();
  const account: AccountRow = {
    authKey: o.authKey ?? stored?.authKey ?? randomBytes(16).toString('hex'),
    authSecret: o.authSecret ?? stored?.authSecret ?? randomBytes(20).toString('hex'),
    requireSignature: o.requireSignature ?? stored?.requireSignature ?? false,
  };
  db.upsertAccount(account);
  return account;
}

/** Starts the local implementation of the API on 127.0.0.1. */
export async function startLocalService(options: LocalServiceOptions): Promise<LocalService> {
  const db = openDatabase(options.dataDir);
  const account = resolveAccount(db, options);
  const streams = new UpdateStreams();
  const urls = { base: options.publicBaseUrl?.replace(/\/+$/, '') ?? '' };
  const runtime = new AssemblyRuntime(db, urls, streams, options.dataDir);
  runtime.resumeUploading();
  runtime.markCrashed(Date.now());
  const tus = createTusEndpoint(runtime, options.dataDir, () => `${urls.base}/resumable/files/`);
  const templates = openTemplateStore(options.dataDir);
  const credentials = openCredentialStore(options.dataDir);
  runtime.credentials = (nameOrId) => credentials.find(nameOrId);
  const ctx = {
    db,
    runtime,
    streams,
    tus,
    templates,
    credentials,
    accountId: LOCAL_ACCOUNT_ID,
    rateLimiter: new RateLimiter(options.maxAssembliesPerMinute ?? null),
    hostname: 'localhost',
    oauth: createOAuth(db, () => urls.base),
  };

  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    route(ctx, req, res).catch((e: Error) => {
      if (!res.headersSent) sendError(res, apiError('SERVER_500', `Internal error: ${e.message}`, 500));
      else res.destroy();
    });
  });
  // Uploads of many GB may be slow: no request timeout (tus resumes anyway).
  server.requestTimeout = 0;
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host}:${port}`;
  if (!options.publicBaseUrl) urls.base = url;
  ctx.hostname = new URL(urls.base).host;

  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    authKey: account.authKey,
    authSecret: account.authSecret,
    close: () =>
      (closing ??= (async () => {
        streams.close();
        runtime.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          for (const s of sockets) s.destroy();
        });
        templates.close();
        credentials.close();
        db.close();
      })()),
  };
}
