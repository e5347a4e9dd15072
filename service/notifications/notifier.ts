import type { AssemblyRuntime } from '../assemblies/assembly-runtime';
import type { AssemblyState, NotifyAttempt } from '../assemblies/assembly-state';
import type { ServiceDatabase } from '../store/database';
import { filterPayload, notificationBody, signNotification, type NotifySignatureAlgo } from './notify-payload';
import { DEFAULT_NOTIFY_TIMEOUT_MS, DEFAULT_RETRY_DELAYS_MS, RESPONSE_EXCERPT_CHARS, queueDelivery, recordAttempt, type AttemptOutcome } from './notify-state';
import { hostAllowed, type AllowedHosts } from './notify-url';
import { AddressRefused, addressRefusal, guardedLookup, type LookupFunction } from './notify-address';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';

export interface NotifierOptions {
  /** Delays between attempts; its length is the number of retries (default: 5 over 20 minutes). */
  retryDelaysMs?: readonly number[];
  /** Per attempt (default 15 s, as the vendor's notify relay). */
  timeoutMs?: number;
  /** Hosts notifications may go to (`--notify-allow-hosts`); empty = anywhere. */
  allowedHosts?: AllowedHosts;
  /** sha1 (default, the spec's webhook algorithm) is sent bare; others prefixed. */
  signatureAlgo?: NotifySignatureAlgo;
  /**
   * `--notify-allow-private-networks`: receivers on private and link-local addresses too. By default only
   * loopback and public addresses are connected to (notify-address.ts); cloud metadata never.
   */
  allowPrivateNetworks?: boolean;
  /** How names are resolved (default dns.lookup); tests give names the addresses they need. */
  lookup?: LookupFunction;
}

/** Delivering a notification also needs time to write its result: a delivery is leased for this longer. */
const LEASE_MARGIN_MS = 5_000;
/** setTimeout's limit; a later due time is re-checked then. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Sends `notify_url` notifications. The queue is the Assemblies' own records (`deliveries`, indexed by
 * due time in store/assembly-index.ts), so what is pending survives a restart: on start every due
 * delivery is sent, the others when they come due. Before an attempt its delivery is leased (due again
 * after the timeout) so a stop in the middle of a send retries it rather than losing it.
 */
export class Notifier {
  private timer: NodeJS.Timeout | null = null;
  private readonly inFlight = new Set<string>();
  private closed = false;
  private readonly delays: readonly number[];
  private readonly timeoutMs: number;

  constructor(
    private readonly db: ServiceDatabase,
    private readonly runtime: AssemblyRuntime,
    private readonly options: NotifierOptions = {},
  ) {
    this.delays = options.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_NOTIFY_TIMEOUT_MS;
  }

  /** Looks at the queue now and sets a timer for the next due delivery. */
  schedule(): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const next = this.db.assemblyIndex.nextNotificationDueMs();
    if (next === null) return;
    this.timer = setTimeout(() => this.sendDue(), Math.min(MAX_TIMER_MS, Math.max(0, next - Date.now())));
  }

  /**
   * A replay (POST /assembly_notifications/{id}/replay): a new delivery to `url` (the stored notify_url
   * unless overridden, which stays as it was). With `wait`, the first attempt is made before this
   * resolves, and its outcome returned; retries follow like any delivery.
   */
  async replay(assemblyId: string, url: string, wait: boolean): Promise<{ notificationId: string; attempt: NotifyAttempt | null }> {
    const now = Date.now();
    let id = '';
    this.runtime.update(assemblyId, (s) => {
      id = queueDelivery(s, url, true, wait ? now + this.leaseMs() : now).id;
    });
    if (!wait) {
      this.schedule();
      return { notificationId: id, attempt: null };
    }
    const attempt = await this.attempt(assemblyId, id);
    return { notificationId: id, attempt };
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private leaseMs(): number {
    return this.timeoutMs + LEASE_MARGIN_MS;
  }

  private sendDue(): void {
    this.timer = null;
    if (this.closed) return;
    const now = Date.now();
    for (const assemblyId of this.db.assemblyIndex.notificationsDue(now)) {
      const s = this.runtime.get(assemblyId);
      for (const d of s?.deliveries ?? []) {
        if (d.status === 'pending' && d.dueAtMs !== null && d.dueAtMs <= now && !this.inFlight.has(d.id)) void this.attempt(assemblyId, d.id);
      }
    }
    this.schedule();
  }

  /** One attempt of one delivery; its outcome is written to the Assembly before this resolves. */
  private async attempt(assemblyId: string, deliveryId: string): Promise<NotifyAttempt | null> {
    if (this.inFlight.has(deliveryId)) return null;
    this.inFlight.add(deliveryId);
    try {
      const startedMs = Date.now();
      let delivery: { url: string } | null = null;
      let state: AssemblyState | null = null;
      this.runtime.update(assemblyId, (s) => {
        const d = s.deliveries?.find((x) => x.id === deliveryId && x.status === 'pending');
        if (!d) return;
        d.dueAtMs = startedMs + this.leaseMs();
        delivery = d;
        state = s;
      });
      if (!delivery || !state) return null;
      const { url } = delivery as { url: string };
      const s = state as AssemblyState;
      const { outcome, final } = await this.send(s, url, startedMs);
      let attempt: NotifyAttempt | null = null;
      if (!this.closed) this.runtime.update(assemblyId, (fresh) => (attempt = recordAttempt(fresh, deliveryId, outcome, this.delays, final)));
      return attempt;
    } finally {
      this.inFlight.delete(deliveryId);
      this.schedule();
    }
  }

  /** The POST itself; never throws. `final`: no retry can help (no key to sign with, a host not allowed). */
  private async send(s: AssemblyState, url: string, startedMs: number): Promise<{ outcome: AttemptOutcome; final: boolean }> {
    const failed = (error: string, final: boolean) => ({ outcome: { startedMs, durationMs: Date.now() - startedMs, responseCode: null, responseData: null, error }, final });
    const account = this.db.getAccount(s.authKey);
    if (!account) return failed(`The Auth Key ${s.authKey} that made this Assembly no longer exists: there is no secret to sign with.`, true);
    let host: string;
    try {
      host = new URL(url).hostname;
    } catch {
      return failed(`"${url}" is not a URL.`, true);
    }
    if (!hostAllowed(host, this.options.allowedHosts ?? [])) return failed(`This service no longer sends notifications to "${host}" (--notify-allow-hosts).`, true);
    // An address in the URL itself never reaches the lookup below: checked here.
    const literal = host.replace(/^\[|\]$/g, '');
    const refusal = isIP(literal) ? addressRefusal(literal, host, this.options) : null;
    if (refusal) return failed(refusal, true);
    const transloadit = JSON.stringify(filterPayload(this.runtime.status(s), s.notificationPayload ?? []));
    const body = notificationBody(transloadit, signNotification(transloadit, account.authSecret, this.options.signatureAlgo ?? 'sha1'));
    try {
      const res = await postForm(url, body, {
        headers: { 'User-Agent': 'assemblyline-local-service', 'Transloadit-Assembly-Id': s.id },
        timeoutMs: this.timeoutMs,
        lookup: guardedLookup(this.options, this.options.lookup),
      });
      const ok = res.status >= 200 && res.status < 300;
      return { outcome: { startedMs, durationMs: Date.now() - startedMs, responseCode: res.status, responseData: res.excerpt, error: ok ? null : `The receiver answered HTTP ${res.status}.` }, final: false };
    } catch (e) {
      // Refused at connect time (the name resolved to an address notifications may not go to): no retry.
      if (e instanceof AddressRefused) return failed(e.message, true);
      const err = e as NodeJS.ErrnoException;
      const why = err.name === 'TimeoutError' ? `No answer within ${this.timeoutMs} ms.` : `${err.code ?? err.name}: ${err.message}`;
      return failed(why, false);
    }
  }
}

/**
 * POSTs an urlencoded body and reads the first RESPONSE_EXCERPT_CHARS of the answer. Redirects are not
 * followed (an answer that is not 2xx; it could point anywhere). `lookup` runs when the socket connects.
 */
function postForm(url: string, body: string, o: { headers: Record<string, string>; timeoutMs: number; lookup: LookupFunction }): Promise<{ status: number; excerpt: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const payload = Buffer.from(body, 'utf8');
    const req = send(
      target,
      {
        method: 'POST',
        headers: { ...o.headers, 'Content-Type': 'application/x-www-form-urlencoded', 'Content-Length': String(payload.length) },
        lookup: o.lookup as never,
        agent: false,
      },
      (res) => readExcerpt(res).then((excerpt) => resolve({ status: res.statusCode ?? 0, excerpt }), reject),
    );
    const timer = setTimeout(() => req.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })), o.timeoutMs);
    req.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    req.on('close', () => clearTimeout(timer));
    req.end(payload);
  });
}

/** The first RESPONSE_EXCERPT_CHARS of an answer; the rest is not read. */
function readExcerpt(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    res.setEncoding('utf8');
    let text = '';
    const done = (): void => {
      res.removeAllListeners('data');
      resolve(text.slice(0, RESPONSE_EXCERPT_CHARS));
    };
    res.on('data', (chunk: string) => {
      text += chunk;
      if (text.length >= RESPONSE_EXCERPT_CHARS) {
        done();
        res.destroy();
      }
    });
    res.on('end', done);
    // A receiver that cuts the connection after its status still answered.
    res.on('error', done);
    res.on('close', done);
  });
}
