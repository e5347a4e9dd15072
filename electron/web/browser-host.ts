import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { createOneTimeCodes, decideAccess, newToken, TOKEN_HEADER, tokenFromProtocols } from './access-policy';
import { createBridgeSocketServer, type BridgeCore } from './bridge-socket';
import { contentTypeFor, injectPageBridge, PAGE_BRIDGE_PATH, securityHeaders } from './page-security';
import { reportUnreadable, stageUpload, type StagingCore } from './staging-upload';
import { BUNDLE_PATH, MAX_BUNDLE_BYTES, stageBundle } from './staging-bundle';
import { staticFilePath } from './static-path';

export const BRIDGE_SOCKET_PATH = '/bridge';
/** `GET /open?code=…`: a one-time code traded for the page's token (what `npm start` opens). */
export const OPEN_PATH = '/open';
/** `GET /session` with the token: 204 when it is this launch's, so the page knows before it connects. */
export const SESSION_PATH = '/session';
/** A staging PUT failed in a way staging itself did not report. */
export const STAGING_FAILED = 'STAGING_FAILED';

/** The part of core the browser host needs (core's `Core` satisfies it). */
export interface BrowserHostCore extends BridgeCore, StagingCore {}

export interface BrowserHostOptions {
  readonly core: BrowserHostCore;
  /** The built renderer (`dist/renderer`). */
  readonly rendererDir: string;
  /** The built page bridge (`dist/web/page-bridge.js`). */
  readonly pageBridgeFile: string;
  /** 0 (default) picks a free port. */
  readonly port?: number;
}

export interface BrowserHost {
  /**
   * `http://127.0.0.1:<port>/#token=<token>`: opening it authenticates that tab. The token is in the
   * fragment, which the browser sends nowhere; the page reads and drops it. Printed to the terminal only.
   */
  readonly url: string;
  /**
   * A URL for a browser's command line (`npm start`): `…/open?code=<one-time code>`, exchanged once for
   * the token; a new one ends the one before.
   */
  openUrl(): string;
  readonly origin: string;
  readonly port: number;
  close(): Promise<void>;
}

/**
 * Serve the renderer to a normal browser on loopback, with the contract carried over a WebSocket and
 * dropped files staged by PUT. Every request passes the same gate (Host, Origin; the token for all but
 * the app's files) — see access-policy.ts and docs/hosts.md.
 */
export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const token = newToken();
  const codes = createOneTimeCodes();
  const bridge = createBridgeSocketServer(options.core);
  let port = 0;

  const header = (req: IncomingMessage): string | null => {
    const value = req.headers[TOKEN_HEADER];
    return typeof value === 'string' ? value : null;
  };
  const gate = (req: IncomingMessage, presented: string | null, open: boolean) =>
    decideAccess({ token, port, host: req.headers.host, origin: req.headers.origin, presented, open });

  // Staging URLs carry the user's relative path (up to 4,096 characters, percent-encoded): allow long heads.
  const server = createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const reading = req.method === 'GET' || req.method === 'HEAD';
    // The app's files hold no data: they need no token (the page brings it in the fragment), the rest does.
    const open = reading && url.pathname !== SESSION_PATH;
    const access = gate(req, header(req), open);
    const headers = securityHeaders(port);
    if (!access.allow) return sendJson(res, access.status, { error: { code: 'HOST_FORBIDDEN', message: access.reason } }, headers);
    if (reading && url.pathname === SESSION_PATH) {
      res.writeHead(204, { ...headers, 'Cache-Control': 'no-store' });
      return res.end();
    }
    if (reading && url.pathname === OPEN_PATH) {
      if (!codes.redeem(url.searchParams.get('code'))) {
        return sendJson(res, 403, { error: { code: 'HOST_CODE_USED', message: 'This link was already used, or is not from this launch: open the address Assemblyline printed when it started.' } }, headers);
      }
      // The token goes in the fragment of the address the browser is sent to: never to a server, never a cookie.
      res.writeHead(302, { ...headers, Location: `/#token=${token}`, 'Cache-Control': 'no-store' });
      return res.end();
    }
    // The raw path, not URL's normalized one: `..` must be refused, not silently resolved elsewhere.
    const rawPath = (req.url ?? '/').split('?')[0] ?? '/';
    if (req.method === 'PUT' && rawPath.startsWith('/staging/')) {
      stageUpload(options.core, rawPath, req)
        .then((result) => {
          if (result.ok) sendJson(res, 201, result.value, headers);
          else sendJson(res, result.error.httpCode ?? 500, { error: result.error }, headers);
        })
        // A failure staging did not turn into a result (a cleanup that threw) is answered, never left to end the host.
        .catch((cause: unknown) => {
          const message = cause instanceof Error ? cause.message : String(cause);
          sendJson(res, 500, { error: { code: STAGING_FAILED, message: `Could not stage the file: ${message}` } }, headers);
        });
      return;
    }
    if (req.method === 'POST' && rawPath.startsWith(BUNDLE_PATH)) {
      const batchId = rawPath.slice(BUNDLE_PATH.length);
      readSmallBody(req, MAX_BUNDLE_BYTES)
        .then((body) => stageBundle(options.core, batchId, body))
        .then((result) => {
          if (result.ok) sendJson(res, 200, result.value, headers);
          else sendJson(res, result.error.httpCode ?? 400, { error: result.error }, headers);
        })
        .catch((cause: unknown) => sendJson(res, 400, { error: { code: 'STAGING_BUNDLE_INVALID', message: cause instanceof Error ? cause.message : String(cause) } }, headers));
      return;
    }
    if (req.method === 'POST' && rawPath.startsWith('/staging/')) {
      readSmallBody(req, 128 * 1024)
        .then((body) => {
          const report = parseReport(body.toString('utf8'));
          if (report === null) return sendJson(res, 400, { error: { code: 'STAGING_REPORT_INVALID', message: 'Send {"unreadable": "<reason>", "relativePath": "<path>"}.' } }, headers);
          const result = reportUnreadable(options.core, rawPath, report);
          if (result.ok) sendJson(res, 200, result.value, headers);
          else sendJson(res, result.error.httpCode ?? 400, { error: result.error }, headers);
        })
        .catch((cause: unknown) => sendJson(res, 400, { error: { code: 'STAGING_REPORT_INVALID', message: cause instanceof Error ? cause.message : String(cause) } }, headers));
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      return sendJson(res, 405, { error: { code: 'METHOD_NOT_ALLOWED', message: `${req.method} is not allowed here` } }, headers);
    }
    // An unreadable file (permissions, a folder swapped mid-read) is a 500 for this request, not the host's end.
    serveStatic(options, url.pathname, req, res, headers).catch((cause: unknown) =>
      sendJson(res, 500, { error: { code: 'STATIC_FILE_FAILED', message: cause instanceof Error ? cause.message : String(cause) } }, headers),
    );
  });

  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    // A browser's WebSocket cannot send headers: the page offers the token as a subprotocol; Node clients may use the header.
    const access = gate(req, tokenFromProtocols(req.headers['sec-websocket-protocol']) ?? header(req), false);
    if (!access.allow || url.pathname !== BRIDGE_SOCKET_PATH) {
      const status = access.allow ? '404 Not Found' : '403 Forbidden';
      socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    bridge.wss.handleUpgrade(req, socket, head, (ws) => bridge.wss.emit('connection', ws, req));
  });

  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolveListen());
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;

  return {
    url: `${origin}/#token=${token}`,
    openUrl: () => `${origin}${OPEN_PATH}?code=${codes.issue()}`,
    origin,
    port,
    close: async () => {
      await bridge.close();
      server.closeAllConnections();
      await new Promise<void>((resolveClose) => server.close(() => resolveClose()));
    },
  };
}

/** A request body of at most `limit` bytes; longer ones are refused. */
function readSmallBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolveBody, rejectBody) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        rejectBody(new Error(`The report is longer than ${limit} bytes.`));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolveBody(Buffer.concat(chunks)));
    req.on('error', rejectBody);
  });
}

/** `{"unreadable": reason, "relativePath": path}`: what the page could not read, and why. */
function parseReport(text: string): { reason: string; relativePath: string } | null {
  try {
    const body = JSON.parse(text) as { unreadable?: unknown; relativePath?: unknown };
    if (typeof body.unreadable !== 'string' || typeof body.relativePath !== 'string') return null;
    return { reason: body.unreadable, relativePath: body.relativePath };
  } catch {
    return null;
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string>): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { ...headers, 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function serveStatic(
  options: BrowserHostOptions,
  pathname: string,
  req: IncomingMessage,
  res: ServerResponse,
  headers: Record<string, string>,
): Promise<void> {
  const notFound = () => sendJson(res, 404, { error: { code: 'NOT_FOUND', message: `No such file: ${pathname}` } }, headers);
  let filePath = pathname === PAGE_BRIDGE_PATH ? options.pageBridgeFile : staticFilePath(options.rendererDir, pathname);
  if (filePath === null) return notFound();
  let info = await stat(filePath).catch(() => null);
  // The app is a single page: an unknown path without an extension gets index.html.
  if ((!info || !info.isFile()) && !/\.[a-z0-9]+$/i.test(pathname)) {
    filePath = staticFilePath(options.rendererDir, '/');
    info = filePath ? await stat(filePath).catch(() => null) : null;
  }
  if (!filePath || !info || !info.isFile()) return notFound();
  if (filePath.endsWith('index.html')) {
    const html = injectPageBridge(await readFile(filePath, 'utf8'));
    res.writeHead(200, { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
    return void res.end(req.method === 'HEAD' ? undefined : html);
  }
  res.writeHead(200, { ...headers, 'Content-Type': contentTypeFor(filePath), 'Content-Length': String(info.size) });
  if (req.method === 'HEAD') return void res.end();
  createReadStream(filePath).on('error', () => res.destroy()).pipe(res);
}
