import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { AssemblyRuntime } from './assemblies/assembly-runtime';
import { LOCAL_ACCOUNT_ID, tusUrl, type ServiceUrls } from './assemblies/status-record';
import { createOAuth } from './auth/oauth';
import { apiError, sendError } from './http/api-error';
import { BODY_LIMITS } from './http/body-limits';
import { RateLimiter } from './http/rate-limiter';
import { route } from './http/routes';
import { UpdateStreams } from './realtime/update-stream';
import { openDatabase, type AccountRow, type ServiceDatabase } from './store/database';
import { openCredentialStore } from './credentials/credential-store';
import { openTemplateStore } from './templates/template-store';
import { openAssetStore } from './assets/asset-store';
import { CdnCache } from './cdn/cdn-cache';
import { createTusEndpoint } from './tus/tus-endpoint';
import { faultConfig, testFaults } from './files/test-faults';
import { Notifier, type NotifierOptions } from './notifications/notifier';
import { isFullScope, pickOwnKey, restoreFullAccess, type RestoreAction } from './auth-keys/own-key';
import { FREE_PRICE_LIST, type PriceList } from './usage/price-list';
import { JobSlots } from './queue/job-slots';
import { startSlotSampler } from './queue/slot-samples';
import { retainExifTool } from './robots/exiftool';
import { DEFAULT_CHAT_MODEL, DEFAULT_CHAT_TIMEOUT_MS } from './robots/chat-endpoint';
import { defaultToolServerHosts } from './robots/tool-server-hosts';
import { hostListsProblem } from './host-lists';
import { mintStepToken, STEP_TOKEN_LIFETIME_S } from './auth/step-token';
import { InFlight } from './lifecycle/in-flight';

/** Its one workspace: stored assets belong to it (docs/local-service.md "Stored assets"). */
const LOCAL_WORKSPACE = 'local';
/** A Smart CDN request waits at most this long for its Template (then CDN_TEMPLATE_TIMEOUT). */
const CDN_RUN_TIMEOUT_MS = 120_000;
/** How long a stop waits for aborted steps and cut requests to end: within core's 5 s grace before it kills the child, so the database still closes cleanly. */
const STOP_WAIT_MS = 3_000;

/** Where Smart CDN runs work; what a stop left there is of no use, so it goes at start. */
function cdnWorkRoot(dataDir: string): string {
  const dir = join(dataDir, 'cdn-work');
  rmSync(dir, { recursive: true, force: true });
  return dir;
}

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
  /**
   * Bases of the roles a deployment serves from other hosts (each defaults to the public base URL): Assembly
   * status and update streams (`regional`), tus uploads (`tus`), result files (`results`). Tests start a
   * deployment like the hosted one with them (service/testing/hosted-deployment.ts).
   */
  publicUrls?: { regional?: string; tus?: string; results?: string };
  /** Assemblies per minute before 413 RATE_LIMIT_REACHED (default: unlimited). */
  maxAssembliesPerMinute?: number;
  /** Connection timeouts (defaults: SERVER_TIMEOUTS); tests pass small ones. */
  timeouts?: Partial<ServerTimeouts>;
  /** File parts one multipart body may carry (default BODY_LIMITS.files); tests pass a small cap. */
  maxFileParts?: number;
  /**
   * notify_url delivery (docs/local-service.md "Notifications"): `retryDelaysMs` (default 5 retries over
   * 20 minutes; tests pass short ones), `timeoutMs`, `allowedHosts` (empty = anywhere), `signatureAlgo`.
   */
  notifications?: NotifierOptions;
  /** What the bill charges (usage/price-list.ts; `--price-list`); default: a free plan. */
  priceList?: PriceList;
  /** Robot jobs that may run at once (docs/local-service.md "Job slots and the queue"); default: cores, at least 2. */
  jobSlots?: number;
  /** Bytes the steps of an Assembly may write (default 1 GiB + 16 × its input, instruction-limits.ts); tests pass small ones. */
  maxOutputBytes?: number;
  /** Smart CDN result cache bound in bytes (default 256 MiB; least recently used results go first). */
  cdnCacheBytes?: number;
  /** /ai/chat (docs/local-service.md "Chat steps and tool servers"); without an endpoint the robot says it is not configured. */
  chat?: ChatOptions;
}

export interface ChatOptions {
  /** An OpenAI-compatible API (`http://127.0.0.1:11434/v1`); `--chat-endpoint`. */
  endpoint?: string | null;
  /** `model` sent when the step names none (default "default"); `--chat-model`. */
  model?: string;
  /** Bearer key for the endpoint; ASSEMBLYLINE_CHAT_API_KEY only. */
  apiKey?: string | null;
  /** Per request to the endpoint and to tool servers (default 120 s). */
  timeoutMs?: number;
  /** More domains that count as the service's own for `auth: "service"`, besides its base URL's host; `--own-domains`. */
  ownDomains?: readonly string[];
  /**
   * Host rules (`--notify-allow-hosts` syntax, `*` = any) tool servers may be on; `--tool-server-allow-hosts`.
   * Default: loopback plus the own domains (robots/tool-server-hosts.ts); `[]` = no tool server.
   */
  toolServerHosts?: readonly string[];
  /** Life of a token minted for a tool server (default STEP_TOKEN_LIFETIME_S); tests pass short ones. */
  tokenLifetimeS?: number;
}

export interface ServerTimeouts {
  /** The request line and headers must arrive within this (slow-header clients). */
  headersMs: number;
  /**
   * A connection on which no byte moves either way for this long is cut: a body that stops sending, or a
   * client that stops reading. An idle limit, not a total one: a tus PATCH of many GB takes as long as it
   * needs while bytes keep arriving. Update streams opt out (they send heartbeats).
   */
  idleMs: number;
  /** An idle keep-alive connection between requests is closed after this. */
  keepAliveMs: number;
  /** An Assembly POST must bring params and signature within this, however steadily it sends (408). */
  admitMs: number;
}

export const SERVER_TIMEOUTS: ServerTimeouts = { headersMs: 30_000, idleMs: 120_000, keepAliveMs: 5_000, admitMs: BODY_LIMITS.unauthenticatedMs };

/** A key as the process that owns the data dir sees it (its secret included): never served over HTTP. */
export interface OwnedKey {
  id: string;
  authKey: string;
  authSecret: string;
  description: string;
  isActive: boolean;
  scopes: string[] | null;
  fullScope: boolean;
}

export interface LocalService {
  url: string;
  port: number;
  authKey: string;
  authSecret: string;
  /** Why the key above is not an active full-access one (see auth-keys/own-key.ts); null when it is. */
  accessProblem: string | null;
  /** Every key of the account, oldest first (for the app that runs this service: its admin channel). */
  keys(): OwnedKey[];
  /** An active full-access key, reactivated or created when none is left. */
  restoreFullAccess(prefer: string | null): { key: OwnedKey; action: RestoreAction };
  /** Assemblies executing now (a restart ends them ASSEMBLY_CRASHED; the app waits for none before it restarts us). */
  executing(): number;
  close(): Promise<void>;
}

const ownedKey = (a: AccountRow): OwnedKey => ({
  id: a.id ?? '',
  authKey: a.authKey,
  authSecret: a.authSecret,
  description: a.description ?? '',
  isActive: a.isActive !== false,
  scopes: a.scope === null || a.scope === undefined ? null : a.scope.split(',').filter(Boolean),
  fullScope: isFullScope(a.scope),
});

/**
 * The key/secret given, else the service's own key in the data dir (an active full-access one, or the
 * reason there is none: never a narrower key in silence), else a new one (stored so a restart keeps it).
 */
function resolveAccount(db: ServiceDatabase, o: LocalServiceOptions): { account: AccountRow; problem: string | null } {
  const own = o.authKey ? { account: db.getAccount(o.authKey), problem: null } : pickOwnKey(db.allAccounts());
  const stored = own.account;
  const account: AccountRow = {
    authKey: o.authKey ?? stored?.authKey ?? randomBytes(16).toString('hex'),
    authSecret: o.authSecret ?? stored?.authSecret ?? randomBytes(20).toString('hex'),
    requireSignature: o.requireSignature ?? stored?.requireSignature ?? false,
  };
  db.upsertAccount(account);
  return { account, problem: own.problem };
}

/** Starts the local implementation of the API on 127.0.0.1. */
export async function startLocalService(options: LocalServiceOptions): Promise<LocalService> {
  // Before anything opens: a refused start leaves nothing behind.
  const hostProblem = hostListsProblem({ notifyHosts: options.notifications?.allowedHosts, toolServerHosts: options.chat?.toolServerHosts });
  if (hostProblem !== null) throw new Error(hostProblem);
  const db = openDatabase(options.dataDir);
  const { account, problem: accessProblem } = resolveAccount(db, options);
  const streams = new UpdateStreams();
  const trim = (u: string | undefined): string | undefined => u?.replace(/\/+$/, '');
  const urls: ServiceUrls = {
    base: trim(options.publicBaseUrl) ?? '',
    ...(options.publicUrls?.regional ? { regional: trim(options.publicUrls.regional) } : {}),
    ...(options.publicUrls?.tus ? { tus: trim(options.publicUrls.tus) } : {}),
    ...(options.publicUrls?.results ? { results: trim(options.publicUrls.results) } : {}),
  };
  const runtime = new AssemblyRuntime(db, urls, streams, options.dataDir);
  // Sized before anything resumes, so every job runs in this one pool.
  if (options.jobSlots !== undefined) runtime.slots = new JobSlots(options.jobSlots);
  runtime.maxOutputBytes = options.maxOutputBytes;
  const slotSamples = startSlotSampler(runtime.slots, db.jobSlotSamples);
  runtime.resumeUploading();
  runtime.markCrashed(Date.now());
  const fault = faultConfig(process.env, process.argv);
  if (fault && 'refused' in fault) console.error(`service: warning: ${fault.refused}`);
  const faults = testFaults(fault);
  runtime.faults = faults;
  const tus = createTusEndpoint(runtime, options.dataDir, () => tusUrl(urls), faults);
  const templates = openTemplateStore(options.dataDir);
  const credentials = openCredentialStore(options.dataDir);
  const assets = openAssetStore(options.dataDir);
  runtime.credentials = (nameOrId) => credentials.find(nameOrId);
  runtime.assets = { store: assets, workspace: LOCAL_WORKSPACE };
  // Imports from URLs go where notifications may: the operator's --notify-allow-private-networks opens the LAN for both.
  runtime.network = { policy: { allowPrivateNetworks: options.notifications?.allowPrivateNetworks === true } };
  const chat = options.chat ?? {};
  const chatConfig = { endpoint: chat.endpoint || null, model: chat.model || DEFAULT_CHAT_MODEL, apiKey: chat.apiKey || null, timeoutMs: chat.timeoutMs ?? DEFAULT_CHAT_TIMEOUT_MS };
  runtime.chat = (authKey) => {
    // The service's own host (read when the job runs: the port is known only after listen) and the operator's domains.
    const ownDomains = [new URL(urls.base).hostname, ...(chat.ownDomains ?? [])];
    return {
      config: chatConfig,
      ownDomains,
      toolServerHosts: chat.toolServerHosts ?? defaultToolServerHosts(ownDomains),
      mintToken: () => mintStepToken(db, authKey, chat.tokenLifetimeS ?? STEP_TOKEN_LIFETIME_S)?.token ?? null,
    };
  };
  const timeouts = { ...SERVER_TIMEOUTS, ...options.timeouts };
  const notifier = new Notifier(db, runtime, options.notifications);
  runtime.onEnded = (s) => {
    notifier.schedule();
    tus.assemblyEnded(s.id);
  };
  const ctx = {
    urls,
    notifier,
    notifyAllowedHosts: options.notifications?.allowedHosts ?? [],
    requireSignature: account.requireSignature,
    notifyAddressPolicy: { allowPrivateNetworks: options.notifications?.allowPrivateNetworks === true },
    db,
    priceList: options.priceList ?? FREE_PRICE_LIST,
    runtime,
    streams,
    tus,
    templates,
    credentials,
    accountId: LOCAL_ACCOUNT_ID,
    assets,
    workspace: LOCAL_WORKSPACE,
    cdn: { cache: new CdnCache(join(options.dataDir, 'cdn-cache'), options.cdnCacheBytes), workRoot: cdnWorkRoot(options.dataDir), timeoutMs: CDN_RUN_TIMEOUT_MS },
    rateLimiter: new RateLimiter(options.maxAssembliesPerMinute ?? null),
    hostname: 'localhost',
    oauth: createOAuth(db, () => urls.base),
    admitWithinMs: timeouts.admitMs,
    maxFileParts: options.maxFileParts,
    faults,
  };

  const sockets = new Set<Socket>();
  // Node checks headersTimeout on this interval: keep it finer than the limit itself.
  const connectionsCheckingInterval = Math.max(10, Math.min(30_000, Math.floor(timeouts.headersMs / 4)));
  // Requests still writing to disk when the service stops: close() waits for them.
  const requests = new InFlight();
  const server: Server = createServer({ connectionsCheckingInterval }, (req, res) => {
    void requests.track(
      route(ctx, req, res).catch((e: Error) => {
        if (!res.headersSent) sendError(res, apiError('SERVER_500', `Internal error: ${e.message}`, 500));
        else res.destroy();
      }),
    );
  });
  // Uploads of many GB may take hours: no total request timeout, but an idle one (server.timeout).
  server.requestTimeout = 0;
  server.headersTimeout = timeouts.headersMs;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  // With no 'timeout' listener, Node destroys a socket idle this long (both directions count).
  server.timeout = timeouts.idleMs;
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
  // Metadata's ExifTool (Perl) lives while a service does: the last one to close ends it.
  const releaseExifTool = retainExifTool();
  const url = `http://${host}:${port}`;
  if (!options.publicBaseUrl) urls.base = url;
  ctx.hostname = new URL(urls.base).host;
  // Deliveries left pending by the last run (and ASSEMBLY_CRASHED ones just marked) go out now.
  notifier.schedule();

  let closing: Promise<void> | null = null;
  return {
    url,
    port,
    authKey: account.authKey,
    authSecret: account.authSecret,
    accessProblem,
    keys: () => db.allAccounts().map(ownedKey),
    restoreFullAccess: (prefer) => {
      const restored = restoreFullAccess(db, prefer);
      return { key: ownedKey(restored.account), action: restored.action };
    },
    executing: () => runtime.executingCount(),
    close: () =>
      (closing ??= (async () => {
        streams.close();
        notifier.close();
        slotSamples.close();
        runtime.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          for (const s of sockets) s.destroy();
        });
        // Nothing may write into the data folder once close() resolved: whoever called it may remove or reopen it.
        const [stepsEnded, requestsEnded] = await Promise.all([runtime.stopped(STOP_WAIT_MS), requests.settled(STOP_WAIT_MS), tus.settled()]);
        if (!stepsEnded || !requestsEnded) console.error(`service: warning: stopped with work still running after ${STOP_WAIT_MS / 1000} s (${!stepsEnded ? 'steps' : 'requests'})`);
        templates.close();
        credentials.close();
        assets.close();
        db.close();
        await releaseExifTool();
      })()),
  };
}
