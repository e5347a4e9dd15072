// One headless Chromium page driven over the DevTools protocol (a pipe, no port), for /html/convert and
// /document/convert's HTML → PDF. Chromium never connects anywhere itself: it runs behind a proxy that does
// not exist, and every request it makes is paused (Fetch domain) and fetched by this process — through the
// same address policy as /http/import (no LAN or metadata addresses unless the operator allowed them), each
// redirect hop checked again — or refused. An HTML file is served to it from an origin of its own
// (http://assemblyline-input.invalid/), so it can read no local file.

import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AddressRefused, addressRefusal, guardedLookup, type AddressPolicy, type LookupFunction } from '../../notifications/notify-address';

export const INPUT_ORIGIN = 'http://assemblyline-input.invalid';
const RESOURCE_BYTES = 50 * 1024 * 1024;
const TOTAL_BYTES = 200 * 1024 * 1024;
const REQUEST_MS = 30_000;

export class PageFailure extends Error {}

type Message = { id?: number; method?: string; params?: Record<string, unknown>; sessionId?: string; result?: Record<string, unknown>; error?: { message: string } };

export interface PageOptions {
  chromium: string;
  network: { policy: AddressPolicy; lookup?: LookupFunction };
  signal: AbortSignal;
  /** Headers sent with requests to the page's own origin (never to other sites). */
  headers: Record<string, string>;
  /** The HTML to serve at INPUT_ORIGIN/<inputPath>, when the page is a file. */
  html?: { path: string; body: Buffer };
  /** Other files served from INPUT_ORIGIN (an image put on a page), by path. */
  files?: ReadonlyMap<string, { type: string; body: Buffer }>;
}

interface Fetched {
  status: number;
  headers: { name: string; value: string }[];
  body: Buffer;
}

const DROPPED = new Set(['content-encoding', 'transfer-encoding', 'content-length', 'connection', 'keep-alive']);

/** One request, as the policy allows (no redirects followed: Chromium asks for the next hop, checked again). */
function fetchFor(url: URL, headers: Record<string, string>, opts: PageOptions, budget: { left: number }): Promise<Fetched> {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.reject(new PageFailure(`only http and https URLs are fetched (got ${url.protocol.replace(/:$/, '')})`));
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  const why = isIP(literal) ? addressRefusal(literal, literal, opts.network.policy) : null;
  if (why) return Promise.reject(new PageFailure(why.replace('does not send notifications there', 'does not fetch pages from there')));
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'GET',
      headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Assemblyline local service (/html/convert)', ...headers, 'accept-encoding': 'identity' },
      lookup: guardedLookup(opts.network.policy, opts.network.lookup) as never,
      signal: opts.signal,
      timeout: REQUEST_MS,
    });
    req.once('timeout', () => req.destroy(new PageFailure(`${url.host} did not answer within ${REQUEST_MS / 1000} s`)));
    req.once('error', (e: Error) => reject(e instanceof AddressRefused ? new PageFailure(e.message.replace('does not send notifications there', 'does not fetch pages from there')) : e));
    req.once('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        budget.left -= c.length;
        if (size > RESOURCE_BYTES || budget.left < 0) res.destroy(new PageFailure(`${url.href} is larger than this service draws (${RESOURCE_BYTES / 1024 / 1024} MB a file, ${TOTAL_BYTES / 1024 / 1024} MB a page)`));
        else chunks.push(c);
      });
      res.once('error', reject);
      res.once('end', () => {
        const out: { name: string; value: string }[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) if (!DROPPED.has(res.rawHeaders[i]!.toLowerCase())) out.push({ name: res.rawHeaders[i]!, value: res.rawHeaders[i + 1]! });
        resolve({ status: res.statusCode ?? 502, headers: out, body: Buffer.concat(chunks) });
      });
    });
    req.end();
  });
}

/** A Chromium with one page; `close()` ends it and removes its profile. */
export async function openPage(opts: PageOptions) {
  const profile = await mkdtemp(join(tmpdir(), 'assemblyline-chromium-'));
  const args = [
    '--headless=new', '--remote-debugging-pipe', `--user-data-dir=${profile}`, '--no-first-run', '--no-default-browser-check',
    '--disable-gpu', '--disable-extensions', '--disable-background-networking', '--disable-component-update', '--disable-sync',
    '--disable-default-apps', '--mute-audio', '--hide-scrollbars', '--disable-dev-shm-usage',
    // Nothing leaves Chromium on its own: every request is fetched by this process (above) or refused.
    '--proxy-server=http://127.0.0.1:9', '--proxy-bypass-list=<-loopback>',
    ...(process.getuid?.() === 0 ? ['--no-sandbox'] : []),
    'about:blank',
  ];
  // Its own process group: closing ends its helper processes too, not only the browser process.
  const child = spawn(opts.chromium, args, { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'], detached: true });
  const killAll = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    } catch {
      child.kill('SIGKILL');
    }
  };
  const toChrome = child.stdio[3] as NodeJS.WritableStream;
  const fromChrome = child.stdio[4] as NodeJS.ReadableStream;
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString()).slice(-2000);
  });
  let nextId = 1;
  const pending = new Map<number, { resolve(v: Record<string, unknown>): void; reject(e: Error): void }>();
  const listeners = new Set<(m: Message) => void>();
  let ended: Error | null = null;
  const end = (e: Error) => {
    ended ??= e;
    for (const p of pending.values()) p.reject(ended);
    pending.clear();
  };
  child.once('error', (e) => end(new PageFailure(`Chromium did not start: ${e.message}`)));
  child.once('exit', () => end(new PageFailure(`Chromium ended${stderr ? `: ${stderr.trim().split('\n').at(-1)}` : ''}`)));
  let buffer = '';
  fromChrome.on('data', (c: Buffer) => {
    buffer += c.toString('utf8');
    let at: number;
    while ((at = buffer.indexOf('\0')) >= 0) {
      const msg = JSON.parse(buffer.slice(0, at)) as Message;
      buffer = buffer.slice(at + 1);
      if (msg.id !== undefined) {
        const p = pending.get(msg.id);
        pending.delete(msg.id);
        if (msg.error) p?.reject(new PageFailure(msg.error.message));
        else p?.resolve(msg.result ?? {});
      } else for (const l of listeners) l(msg);
    }
  });
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> => {
    if (ended) return Promise.reject(ended);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      toChrome.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  };
  const onAbort = () => killAll();
  opts.signal.addEventListener('abort', onAbort, { once: true });
  const close = async () => {
    opts.signal.removeEventListener('abort', onAbort);
    if (child.exitCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      killAll();
      await exited;
    } else killAll();
    // A helper process may still be writing its last files into the profile: retried, and a profile that
    // cannot be removed yet never fails the step whose output is already made (it is removed later).
    const remove = () => rm(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
    await remove().catch(() => setTimeout(() => void remove().catch(() => undefined), 10_000).unref());
  };

  try {
    const { targetId } = (await send('Target.createTarget', { url: 'about:blank' })) as { targetId: string };
    const { sessionId } = (await send('Target.attachToTarget', { targetId, flatten: true })) as { sessionId: string };
    const page = (method: string, params: Record<string, unknown> = {}) => send(method, params, sessionId);
    // Lifecycle events by the document (loader) they are of: the blank page the target opened with may still
    // report its own networkIdle after navigate was sent, which must not count as the new page's (the picture
    // of a page drawn before it loaded, white, at load ~25).
    const events: { name: string; loaderId: string }[] = [];
    const waiters = new Set<() => void>();
    /** Why a request of the page was refused (the first), for the message when the page itself fails. */
    let refused: string | null = null;
    const budget = { left: TOTAL_BYTES };
    let pageOrigin: string | null = null;
    listeners.add((m) => {
      if (m.sessionId !== sessionId) return;
      if (m.method === 'Page.lifecycleEvent') events.push({ name: String(m.params?.name), loaderId: String(m.params?.loaderId) });
      else if (m.method === 'Fetch.requestPaused') void answer(m.params as { requestId: string; request: { url: string; method: string } });
      for (const w of waiters) w();
    });
    const answer = async ({ requestId, request }: { requestId: string; request: { url: string; method: string } }) => {
      try {
        const url = new URL(request.url);
        if (url.origin === INPUT_ORIGIN) {
          const found = opts.html && url.pathname === opts.html.path ? { type: 'text/html; charset=utf-8', body: opts.html.body } : opts.files?.get(url.pathname);
          await page('Fetch.fulfillRequest', { requestId, responseCode: found ? 200 : 404, responseHeaders: [{ name: 'Content-Type', value: found ? found.type : 'text/plain' }], body: (found ? found.body : Buffer.from('Not found')).toString('base64') });
          return;
        }
        if (request.method !== 'GET' && request.method !== 'HEAD') throw new PageFailure(`a ${request.method} request from the page was not sent (${url.href})`);
        const got = await fetchFor(url, url.origin === pageOrigin ? opts.headers : {}, opts, budget);
        await page('Fetch.fulfillRequest', { requestId, responseCode: got.status, responseHeaders: got.headers, body: got.body.toString('base64') });
      } catch (e) {
        refused ??= e instanceof PageFailure ? e.message : `${request.url}: ${(e as Error).message}`;
        await page('Fetch.failRequest', { requestId, errorReason: 'BlockedByClient' }).catch(() => undefined);
      }
    };
    await page('Fetch.enable', { patterns: [{ urlPattern: '*', requestStage: 'Request' }] });
    await page('Page.enable');
    await page('Page.setLifecycleEventsEnabled', { enabled: true });

    return {
      page,
      /** Opens `url` and waits for `until` (commit, domcontentloaded, load, networkidle) at most 30 s. */
      async navigate(url: string, until: string): Promise<void> {
        pageOrigin = new URL(url).origin;
        events.length = 0;
        const done = await page('Page.navigate', { url });
        if (typeof done.errorText === 'string' && done.errorText) throw new PageFailure(refused ?? `${url} could not be opened (${done.errorText})`);
        if (until === 'commit') return;
        const wanted = until === 'domcontentloaded' ? 'DOMContentLoaded' : until === 'load' ? 'load' : 'networkIdle';
        // No loaderId only for a same-document navigation, which a fresh page never makes.
        const loaderId = typeof done.loaderId === 'string' ? done.loaderId : null;
        const reached = (name: string) => events.some((e) => e.name === name && (loaderId === null || e.loaderId === loaderId));
        await new Promise<void>((resolve, reject) => {
          const check = () => {
            if (reached(wanted)) finish();
          };
          // A page that keeps the network busy is drawn once it has loaded and the wait is over.
          const timer = setTimeout(() => (reached('load') || until === 'networkidle' ? finish() : fail(new PageFailure(`${url} did not finish loading within 30 s`))), REQUEST_MS);
          const finish = () => {
            clearTimeout(timer);
            waiters.delete(check);
            resolve();
          };
          const fail = (e: Error) => {
            clearTimeout(timer);
            waiters.delete(check);
            reject(e);
          };
          waiters.add(check);
          check();
        });
      },
      close,
    };
  } catch (e) {
    await close();
    throw e;
  }
}
