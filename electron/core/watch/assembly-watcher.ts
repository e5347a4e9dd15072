import { EventSource } from 'eventsource';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { isAssemblyBusy, SseEvent, SseMessage } from '../../../shared/api/codes';
import type { FollowState } from '../../../shared/ipc/assembly-models';
import type { AppError, Result } from '../../../shared/result';
import type { StatusFetchHooks } from '../api/api-client';
import { systemClock, type Clock } from '../uploads/clock';

export interface AssemblyWatcherOptions {
  /** The status from POST /assemblies: gives `assembly_ssl_url` and `update_stream_url`. */
  initial: AssemblyStatus;
  /** The status fetch; it tells `hooks.onRateLimited` when the deployment asks it to wait before it retries. */
  getStatus: (url: string, hooks?: StatusFetchHooks) => Promise<Result<AssemblyStatus>>;
  onStatus: (status: AssemblyStatus) => void;
  /** How updates arrive, each time that changes: the stream, or polling and why; a rate-limit wait. */
  onFollow?: (state: FollowState) => void;
  /**
   * A stream that delivers no byte (not even the service's 15 s heartbeat comment) for this long counts as
   * stalled: the watcher polls beside it until it speaks again (default 35 s).
   */
  stallMs?: number;
  /** A status fetch failed (the watcher keeps trying). */
  onError?: (error: AppError) => void;
  /** Named SSE events as they arrive (`assembly_result_finished` with `[step, file]`, ...). */
  onEvent?: (name: string, data: unknown) => void;
  pollIntervalMs?: number;
  /** Re-fetches triggered by events are spaced at least this far apart (thousands of files, one status). */
  minRefreshIntervalMs?: number;
  /**
   * `initial` is the create request's answer and the Assembly was executing then (every upload in): it may
   * end before the stream opens, so its status is asked for at once, beside the stream, instead of after the
   * stream's connection and head (two or three round trips on a user's link, for every small batch).
   */
  fetchAtOnce?: boolean;
  /** Use SSE when the status offers a stream; false polls only. */
  useSse?: boolean;
  /** The workspace's fetch (its CA file): the update stream is on the deployment's regional host. */
  fetch?: typeof fetch;
  clock?: Clock;
}

export interface AssemblyWatcher {
  /** Resolves with the terminal status (or the last one seen when stopped). */
  readonly done: Promise<AssemblyStatus>;
  /** Fetch the status now (coalesced with a fetch already running). */
  refresh(): void;
  /** How updates arrive right now. */
  mode(): 'sse' | 'polling' | 'stopped';
  stop(): void;
}

/** SSE messages and events after which the full status has changed in a way the user sees. */
const REFRESH_MESSAGES = new Set<string>([SseMessage.uploadMetaDataExtracted, SseMessage.uploadingFinished, SseMessage.finished]);
const REFRESH_EVENTS = [SseEvent.uploadFinished, SseEvent.resultFinished, SseEvent.error] as const;

/** Error codes of a status fetch the deployment rate-limited (service-facts: 413 / 429 with info.retryIn). */
const RATE_LIMIT_CODES = new Set(['RATE_LIMIT_REACHED', 'ASSEMBLY_STATUS_FETCHING_RATE_LIMIT_REACHED']);

/** The wait a rate-limited status fetch asks for once the client's own retries are spent; null for other errors. */
export function rateLimitWaitMs(error: AppError): number | null {
  if (!RATE_LIMIT_CODES.has(error.code) && error.httpCode !== 429) return null;
  const retryIn = (error.details?.info as { retryIn?: unknown } | undefined)?.retryIn;
  return typeof retryIn === 'number' && retryIn >= 0 ? retryIn * 1000 : 1000;
}

/**
 * Follows an Assembly until it is terminal: SSE on `update_stream_url` when it connects, polling
 * `assembly_ssl_url` every 2 s before that and whenever the stream fails, ends early or stalls (as Uppy
 * does). Events only trigger a re-fetch; the status record is the single source of truth. A status fetch
 * the deployment rate-limits waits as long as it asks (`onFollow` says so), never faster.
 */
export function watchAssembly(options: AssemblyWatcherOptions): AssemblyWatcher {
  const clock = options.clock ?? systemClock;
  const pollIntervalMs = options.pollIntervalMs ?? 2000;
  const minRefreshIntervalMs = options.minRefreshIntervalMs ?? 500;
  const stallMs = options.stallMs ?? 35_000;
  let lastFetchAt = -Infinity;
  /** No fetch before this (a rate limit's wait). */
  let backoffUntil = -Infinity;
  let lastStreamAt = -Infinity;
  let stalled = false;
  let stallTimer: unknown = null;
  /** The stream said `assembly_finished`: its end is not a drop. */
  let streamFinished = false;
  let follow: FollowState | null = null;
  let spacingTimer: unknown = null;
  const statusUrl = options.initial.assembly_ssl_url ?? options.initial.assembly_url;
  let last = options.initial;
  let stopped = false;
  let source: EventSource | null = null;
  let pollTimer: unknown = null;
  let inFlight = false;
  let again = false;
  let urgent = false;
  let resolveDone!: (status: AssemblyStatus) => void;
  const done = new Promise<AssemblyStatus>((resolve) => (resolveDone = resolve));

  function stop() {
    if (stopped) return;
    stopped = true;
    source?.close();
    source = null;
    if (pollTimer !== null) clock.clearTimeout(pollTimer);
    pollTimer = null;
    if (spacingTimer !== null) clock.clearTimeout(spacingTimer);
    spacingTimer = null;
    if (stallTimer !== null) clock.clearTimeout(stallTimer);
    stallTimer = null;
    resolveDone(last);
  }

  function setFollow(next: FollowState) {
    if (stopped || (follow && follow.via === next.via && follow.reason === next.reason && follow.rateLimitedMs === next.rateLimitedMs)) return;
    follow = next;
    options.onFollow?.(next);
  }
  const rateLimited = (ms: number | null) => setFollow({ ...(follow ?? { via: 'polling', reason: null }), rateLimitedMs: ms });

  const streamLive = () => source?.readyState === 1 && !stalled;

  function schedulePoll() {
    if (stopped || streamLive() || pollTimer !== null) return;
    pollTimer = clock.setTimeout(() => {
      pollTimer = null;
      refresh();
    }, Math.max(pollIntervalMs, backoffUntil - clock.now()));
  }

  /** Any byte on the stream (an event, a heartbeat comment): it is alive; a stalled one is followed again. */
  function heard() {
    lastStreamAt = clock.now();
    if (!stalled) return;
    stalled = false;
    if (pollTimer !== null) clock.clearTimeout(pollTimer);
    pollTimer = null;
    setFollow({ via: 'stream', reason: null, rateLimitedMs: follow?.rateLimitedMs ?? null });
  }

  function armStall() {
    if (stopped || stallTimer !== null) return;
    stallTimer = clock.setTimeout(() => {
      stallTimer = null;
      // Connecting (no answer yet) counts too: a stream whose head never comes is as silent.
      if (stopped || source === null) return;
      const quiet = clock.now() - lastStreamAt;
      if (quiet >= stallMs && !stalled) {
        stalled = true;
        setFollow({ via: 'polling', reason: 'stream-stalled', rateLimitedMs: follow?.rateLimitedMs ?? null });
        refresh();
      }
      armStall();
    }, Math.max(1, stalled ? stallMs : stallMs - (clock.now() - lastStreamAt)));
  }

  async function fetchOnce(): Promise<void> {
    if (!statusUrl) return;
    const result = await options.getStatus(statusUrl, {
      onRateLimited: (ms) => {
        if (stopped) return;
        backoffUntil = clock.now() + ms;
        rateLimited(ms);
      },
    });
    if (stopped) return;
    if (!result.ok) {
      // The client's retries are spent and the deployment still asks to wait: wait that long, then poll.
      const wait = rateLimitWaitMs(result.error);
      if (wait !== null) {
        backoffUntil = clock.now() + wait;
        rateLimited(wait);
        // The fetch still owes its answer, stream or not: ask again once the wait is over.
        again = true;
        return;
      }
      options.onError?.(result.error);
      return;
    }
    if (follow?.rateLimitedMs != null) rateLimited(null);
    last = result.value;
    options.onStatus(result.value);
    if (!isAssemblyBusy(result.value)) stop();
  }

  /** `now`: the Assembly ended (its last message): fetch without waiting out the spacing, which is for bursts. */
  function refresh(now = false) {
    if (stopped) return;
    if (now) urgent = true;
    if (inFlight) {
      again = true;
      return;
    }
    if (spacingTimer !== null) {
      if (!urgent) return;
      clock.clearTimeout(spacingTimer);
      spacingTimer = null;
    }
    // A rate limit's backoff holds for the last fetch too; the spacing meant for bursts does not.
    const wait = Math.max(urgent ? 0 : lastFetchAt + minRefreshIntervalMs, backoffUntil) - clock.now();
    if (wait > 0) {
      spacingTimer = clock.setTimeout(() => {
        spacingTimer = null;
        refresh();
      }, wait);
      return;
    }
    urgent = false;
    lastFetchAt = clock.now();
    inFlight = true;
    void fetchOnce().finally(() => {
      inFlight = false;
      if (again && !stopped) {
        again = false;
        refresh();
      } else schedulePoll();
    });
  }

  /** The workspace's fetch, with every chunk of the stream's body noted as a sign of life. */
  function tappedFetch(): typeof fetch {
    const base = options.fetch ?? fetch;
    return async (input, init) => {
      const response = await base(input, init);
      if (!response.body) return response;
      const tap = new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          heard();
          controller.enqueue(chunk);
        },
      });
      return new Response(response.body.pipeThrough(tap), { status: response.status, statusText: response.statusText, headers: response.headers });
    };
  }

  function connectSse(url: string) {
    const es = new EventSource(url, { fetch: tappedFetch() });
    source = es;
    lastStreamAt = clock.now();
    armStall();
    es.addEventListener('open', () => {
      if (pollTimer !== null) clock.clearTimeout(pollTimer);
      pollTimer = null;
      lastStreamAt = clock.now();
      stalled = false;
      setFollow({ via: 'stream', reason: null, rateLimitedMs: follow?.rateLimitedMs ?? null });
      armStall();
      // Anything that happened before the stream opened is only in the status record.
      refresh();
    });
    es.addEventListener('message', (event) => {
      const message = String(event.data).trim();
      if (message === SseMessage.finished) streamFinished = true;
      if (REFRESH_MESSAGES.has(message)) refresh(message === SseMessage.finished);
    });
    for (const name of REFRESH_EVENTS) {
      es.addEventListener(name, (event) => {
        options.onEvent?.(name, parseJson(event.data));
        refresh(name === SseEvent.error);
      });
    }
    es.addEventListener(SseEvent.executionProgress, (event) => options.onEvent?.(SseEvent.executionProgress, parseJson(event.data)));
    // A failed or ended stream: poll instead of letting EventSource reconnect behind our back.
    es.addEventListener('error', () => {
      es.close();
      if (source === es) source = null;
      if (stallTimer !== null) clock.clearTimeout(stallTimer);
      stallTimer = null;
      stalled = false;
      if (!streamFinished) setFollow({ via: 'polling', reason: 'stream-dropped', rateLimitedMs: follow?.rateLimitedMs ?? null });
      if (!stopped) refresh();
    });
  }

  if (!isAssemblyBusy(options.initial)) {
    stop();
  } else {
    const streamUrl = options.useSse === false ? null : options.initial.update_stream_url;
    if (streamUrl) connectSse(streamUrl);
    else setFollow({ via: 'polling', reason: 'no-stream', rateLimitedMs: null });
    // A fetch that starts before the stream opens may miss what happens until it does: the stream's open
    // still fetches (after this one, spaced as any other), unless this one found the Assembly ended.
    if (options.fetchAtOnce) refresh();
    else schedulePoll();
  }

  return {
    done,
    refresh,
    mode: () => (stopped ? 'stopped' : streamLive() ? 'sse' : 'polling'),
    stop,
  };
}

function parseJson(data: unknown): unknown {
  try {
    return JSON.parse(String(data));
  } catch {
    return data;
  }
}
