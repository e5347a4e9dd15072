// An HTTP proxy for tests, between a client and the local service, that misbehaves on demand: drops a
// connection before forwarding, resets it midway through a request body, delays, answers 429/413 as the
// service's rate limits do or 404 as a deployment without the route would (without forwarding), or resets
// after the service answered (the request WAS processed, the answer is lost); and, with `link`, shapes
// everything it passes as a user's link would (round-trip time, bandwidth caps: link-shaper.ts). Rules match per request (a predicate) or by probability (a seeded RNG,
// so a failing run can be replayed). Everything else passes through unchanged: bodies stream; the only
// rewrites are the service's origin in Location headers and inside JSON answers (assembly_ssl_url,
// tus_url, upload URLs…), so clients that follow them stay behind the proxy. Not used by production code.
import { Agent, createServer, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { Transform } from 'node:stream';
import { createLink, shapedPipe, type LinkOptions } from './link-shaper';

export type FaultAction =
  /** Close the client's connection before anything reaches the service. */
  | { kind: 'drop' }
  /** Forward, then cut both connections once this many request-body bytes went through. */
  | { kind: 'reset-mid-body'; afterBytes: number }
  /** Wait, then forward. */
  | { kind: 'delay'; ms: number }
  /** 429 ASSEMBLY_STATUS_FETCHING_RATE_LIMIT_REACHED, not forwarded. */
  | { kind: 'status-429'; retryIn?: number }
  /** 413 RATE_LIMIT_REACHED, not forwarded. */
  | { kind: 'status-413'; retryIn?: number }
  /** 404 SERVER_404 "unknown method / url", not forwarded: a deployment without the route. */
  | { kind: 'status-404' }
  /** Forward and let the service answer, then cut the client's connection instead of passing the answer on. */
  | { kind: 'reset-after-response' }
  /**
   * Forward; pass the answer's head and first `afterBytes` of a streamed (non-JSON) body, then nothing more
   * while the connection stays open: an update stream that goes silent.
   */
  | { kind: 'stall-response'; afterBytes: number }
  /** As stall-response, then cut the connection: an update stream that drops midway. */
  | { kind: 'cut-response'; afterBytes: number }
  /** Forward; drop these keys wherever they occur in a JSON answer (a deployment that sends no md5hash). */
  | { kind: 'strip-json-keys'; keys: string[] }
  /** Forward; drop these headers (lower case) from the answer, `date` included (a deployment that sends no time). */
  | { kind: 'strip-headers'; headers: string[] };

export type FaultKind = FaultAction['kind'];

export interface ProxiedRequest {
  method: string;
  /** Path and query, as the client sent them. */
  url: string;
  headers: IncomingMessage['headers'];
  /** 0 for the first request the proxy saw, then 1, 2… */
  seq: number;
}

export interface FaultRule {
  action: FaultAction;
  /** Which requests it may hit (default: all). */
  match?: (req: ProxiedRequest) => boolean;
  /** Of the matching requests, the share it hits, drawn from the seeded RNG (default 1: every one). */
  probability?: number;
  /** How many times it fires at most (default: no limit). */
  times?: number;
}

export type FaultCounts = Record<FaultKind, number> & {
  /** Requests that reached the service (including reset-mid-body and reset-after-response ones). */
  forwarded: number;
  /** Requests the proxy saw. */
  requests: number;
};

export interface FaultProxyOptions {
  /** The service's base URL, e.g. http://127.0.0.1:1234 (or a function, read per request: a deployment starts its fronts before the service). */
  target: string | (() => string);
  /** Serve HTTPS with this certificate (a test CA's: test-ca.ts) instead of plain HTTP. */
  tls?: { key: string; cert: string };
  /** The loopback address to listen on (default 127.0.0.1): a deployment puts each role on its own. */
  host?: string;
  rules?: FaultRule[];
  /** Seed of the RNG that probability rules draw from (default 1). */
  seed?: number;
  /**
   * Shape what passes as a user's link would (link-shaper.ts): round-trip time, bandwidth caps shared by
   * every connection, a window per connection. Answers the proxy makes itself (429, 404…) are not shaped.
   */
  link?: LinkOptions;
}

export interface FaultProxy {
  /** The proxy's origin, http://127.0.0.1:<port>: give this to the client instead of the service's. */
  url: string;
  counts: FaultCounts;
  /** Adds a rule after the ones already there (rules are tried in order; the first that fires wins). */
  addRule(rule: FaultRule): void;
  clearRules(): void;
  close(): Promise<void>;
}

/** mulberry32: a small seeded RNG, so a probability rule hits the same requests in every run. Pure. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `text` with every occurrence of the service's origin replaced by the proxy's; an origin followed by more
 * digits is another port and stays. Pure.
 */
export function rewriteOrigin(text: string, from: string, to: string): string {
  let out = '';
  let at = 0;
  for (let hit = text.indexOf(from); hit >= 0; hit = text.indexOf(from, hit + from.length)) {
    const next = text.charCodeAt(hit + from.length);
    if (next >= 48 && next <= 57) continue;
    out += text.slice(at, hit) + to;
    at = hit + from.length;
  }
  return out + text.slice(at);
}

const newCounts = (): FaultCounts => ({
  drop: 0,
  'reset-mid-body': 0,
  delay: 0,
  'status-429': 0,
  'status-413': 0,
  'status-404': 0,
  'reset-after-response': 0,
  'stall-response': 0,
  'cut-response': 0,
  'strip-json-keys': 0,
  'strip-headers': 0,
  forwarded: 0,
  requests: 0,
});

function sendRateLimit(res: ServerResponse, action: Extract<FaultAction, { kind: 'status-429' | 'status-413' }>): void {
  const retryIn = action.retryIn ?? 1;
  const body =
    action.kind === 'status-429'
      ? { error: 'ASSEMBLY_STATUS_FETCHING_RATE_LIMIT_REACHED', message: 'Too many status requests.', http_code: 429, info: { retryIn } }
      : { error: 'RATE_LIMIT_REACHED', message: 'Request limit reached', http_code: 413, info: { retryIn } };
  const text = JSON.stringify(body);
  res.writeHead(action.kind === 'status-429' ? 429 : 413, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

/** The JSON text without those keys at any depth (not JSON: as it was). */
function stripKeys(text: string, keys: ReadonlySet<string>): string {
  try {
    return JSON.stringify(JSON.parse(text, (key, value: unknown) => (keys.has(key) ? undefined : value)));
  } catch {
    return text;
  }
}

/** Passes the first `afterBytes`, then holds the rest back for good (stall) or cuts the connection (cut). */
function firstBytes(action: Extract<FaultAction, { kind: 'stall-response' | 'cut-response' }>, cut: () => void): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      const room = action.afterBytes - seen;
      seen += chunk.length;
      if (room > 0) this.push(room >= chunk.length ? chunk : chunk.subarray(0, room));
      if (action.kind === 'cut-response' && seen >= action.afterBytes && room > 0) setTimeout(cut, 20);
      callback();
    },
    // A stalled answer never ends: the client hears nothing more until it gives up.
    flush(callback) {
      if (action.kind === 'cut-response') callback();
    },
  });
}

export async function startFaultProxy(o: FaultProxyOptions): Promise<FaultProxy> {
  const targetUrl = (): URL => new URL(typeof o.target === 'string' ? o.target : o.target());
  const rules: { rule: FaultRule; fired: number }[] = (o.rules ?? []).map((rule) => ({ rule, fired: 0 }));
  const random = seededRandom(o.seed ?? 1);
  const counts = newCounts();
  const agent = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  let proxyOrigin = '';
  let seq = 0;
  const link = o.link ? createLink(o.link) : null;
  /** Client connections whose handshake was paid (the first request on a connection waits a round trip). */
  const connected = new WeakSet<Socket>();

  const choose = (req: ProxiedRequest): FaultAction | null => {
    for (const r of rules) {
      if (r.rule.times !== undefined && r.fired >= r.rule.times) continue;
      if (r.rule.match && !r.rule.match(req)) continue;
      if (r.rule.probability !== undefined && random() >= r.rule.probability) continue;
      r.fired += 1;
      return r.rule.action;
    }
    return null;
  };

  const forward = (req: IncomingMessage, res: ServerResponse, action: FaultAction | null): void => {
    const target = targetUrl();
    const targetOrigin = target.origin;
    counts.forwarded += 1;
    const headers: OutgoingHttpHeaders = { ...req.headers, host: target.host };
    const upstream = httpRequest({ hostname: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (up) => {
      if (action?.kind === 'reset-after-response') {
        // The service did the work; the client never hears of it.
        up.resume();
        up.once('end', () => req.socket.destroy());
        return;
      }
      const out: OutgoingHttpHeaders = { ...up.headers };
      const location = up.headers.location;
      if (location?.startsWith(targetOrigin)) out.location = proxyOrigin + location.slice(targetOrigin.length);
      if (action?.kind === 'strip-headers') {
        for (const name of action.headers) delete out[name];
        // Node adds its own Date to every answer unless told not to.
        if (action.headers.includes('date')) res.sendDate = false;
      }
      // A HEAD answer has no body to rewrite (its Content-Length describes the GET's).
      if (req.method === 'HEAD' || !/^application\/json/i.test(up.headers['content-type'] ?? '')) {
        res.writeHead(up.statusCode ?? 502, out);
        const limited = action?.kind === 'stall-response' || action?.kind === 'cut-response';
        // The head goes out now even when no byte of the body will follow.
        if (limited) res.flushHeaders();
        const body = limited ? up.pipe(firstBytes(action, () => req.socket.destroy())) : up;
        if (link) shapedPipe(body, res, link.down, link.options.windowBytes);
        else body.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      up.on('data', (c: Buffer) => chunks.push(c));
      up.once('end', () => {
        const rewritten = rewriteOrigin(Buffer.concat(chunks).toString('utf8'), targetOrigin, proxyOrigin);
        const text = action?.kind === 'strip-json-keys' ? stripKeys(rewritten, new Set(action.keys)) : rewritten;
        delete out['transfer-encoding'];
        out['content-length'] = String(Buffer.byteLength(text));
        const answer = () => {
          res.writeHead(up.statusCode ?? 502, out);
          res.end(text);
        };
        // Over a shaped link the whole answer arrives when its last byte would.
        if (link) setTimeout(answer, Math.max(0, link.down.arrival(Buffer.byteLength(text) + 300, performance.now()) - performance.now()));
        else answer();
      });
    });
    upstream.on('error', () => req.socket.destroy());
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    if (action?.kind === 'reset-mid-body') {
      let seen = 0;
      req.on('data', (chunk: Buffer) => {
        const room = action.afterBytes - seen;
        seen += chunk.length;
        if (room > chunk.length) {
          if (!upstream.write(chunk)) {
            req.pause();
            upstream.once('drain', () => req.resume());
          }
          return;
        }
        if (room > 0) upstream.write(chunk.subarray(0, room));
        // Give the service the bytes before the cut, then cut both sides.
        setTimeout(() => {
          upstream.destroy();
          req.socket.destroy();
        }, 20);
        req.pause();
      });
      req.once('end', () => {
        if (seen <= action.afterBytes) upstream.end();
      });
      return;
    }
    if (link) shapedPipe(req, upstream, link.up, link.options.windowBytes);
    else req.pipe(upstream);
  };
  /** Over a shaped link a request reaches the service when its head would (and a new connection's handshake first). */
  const forwardOverLink = (req: IncomingMessage, res: ServerResponse, action: FaultAction | null): void => {
    if (!link) return forward(req, res, action);
    const handshake = connected.has(req.socket) ? 0 : link.options.rttMs;
    connected.add(req.socket);
    const headBytes = 300 + (req.url?.length ?? 0);
    const wait = handshake + link.up.arrival(headBytes, performance.now()) - performance.now();
    setTimeout(() => forward(req, res, action), Math.max(0, wait));
  };

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const info: ProxiedRequest = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers, seq: seq++ };
    counts.requests += 1;
    const action = choose(info);
    if (action) counts[action.kind] += 1;
    switch (action?.kind) {
      case 'drop':
        req.socket.destroy();
        return;
      case 'status-429':
      case 'status-413':
        req.resume();
        sendRateLimit(res, action);
        return;
      case 'status-404': {
        req.resume();
        const text = JSON.stringify({ error: 'SERVER_404', message: 'unknown method / url', http_code: 404 });
        res.writeHead(404, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
        res.end(text);
        return;
      }
      case 'delay':
        setTimeout(() => forwardOverLink(req, res, action), action.ms);
        return;
      default:
        forwardOverLink(req, res, action);
    }
  };
  const server = o.tls ? createTlsServer({ key: o.tls.key, cert: o.tls.cert }, handle) : createServer(handle);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  const host = o.host ?? '127.0.0.1';
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  proxyOrigin = `${o.tls ? 'https' : 'http'}://${host}:${String((server.address() as AddressInfo).port)}`;
  return {
    url: proxyOrigin,
    counts,
    addRule: (rule) => void rules.push({ rule, fired: 0 }),
    clearRules: () => void rules.splice(0),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const s of sockets) s.destroy();
        agent.destroy();
      }),
  };
}
