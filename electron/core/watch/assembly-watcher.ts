import { EventSource } from 'eventsource';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { isAssemblyBusy, SseEvent, SseMessage } from '../../../shared/api/codes';
import type { AppError, Result } from '../../../shared/result';
import { systemClock, type Clock } from '../uploads/clock';

export interface AssemblyWatcherOptions {
  /** The status from POST /assemblies: gives `assembly_ssl_url` and `update_stream_url`. */
  initial: AssemblyStatus;
  getStatus: (url: string) => Promise<Result<AssemblyStatus>>;
  onStatus: (status: AssemblyStatus) => void;
  /** A status fetch failed (the watcher keeps trying). */
  onError?: (error: AppError) => void;
  /** Named SSE events as they arrive (`assembly_result_finished` with `[step, file]`, ...). */
  onEvent?: (name: string, data: unknown) => void;
  pollIntervalMs?: number;
  /** Re-fetches triggered by events are spaced at least this far apart (thousands of files, one status). */
  minRefreshIntervalMs?: number;
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

/**
 * Follows an Assembly until it is terminal: SSE on `update_stream_url` when it connects, polling
 * `assembly_ssl_url` every 2 s before that and whenever the stream fails or ends early (as Uppy does).
 * Events only trigger a re-fetch; the status record is the single source of truth.
 */
export function watchAssembly(options: AssemblyWatcherOptions): AssemblyWatcher {
  const clock = options.clock ?? systemClock;
  const pollIntervalMs = options.pollIntervalMs ?? 2000;
  const minRefreshIntervalMs = options.minRefreshIntervalMs ?? 500;
  let lastFetchAt = -Infinity;
  let spacingTimer: unknown = null;
  const statusUrl = options.initial.assembly_ssl_url ?? options.initial.assembly_url;
  let last = options.initial;
  let stopped = false;
  let source: EventSource | null = null;
  let pollTimer: unknown = null;
  let inFlight = false;
  let again = false;
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
    resolveDone(last);
  }

  function schedulePoll() {
    if (stopped || source?.readyState === 1 || pollTimer !== null) return;
    pollTimer = clock.setTimeout(() => {
      pollTimer = null;
      refresh();
    }, pollIntervalMs);
  }

  async function fetchOnce(): Promise<void> {
    if (!statusUrl) return;
    const result = await options.getStatus(statusUrl);
    if (stopped) return;
    if (!result.ok) {
      options.onError?.(result.error);
      return;
    }
    last = result.value;
    options.onStatus(result.value);
    if (!isAssemblyBusy(result.value)) stop();
  }

  function refresh() {
    if (stopped || spacingTimer !== null) return;
    if (inFlight) {
      again = true;
      return;
    }
    const wait = lastFetchAt + minRefreshIntervalMs - clock.now();
    if (wait > 0) {
      spacingTimer = clock.setTimeout(() => {
        spacingTimer = null;
        refresh();
      }, wait);
      return;
    }
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

  function connectSse(url: string) {
    const es = new EventSource(url, options.fetch ? { fetch: options.fetch } : undefined);
    source = es;
    es.addEventListener('open', () => {
      if (pollTimer !== null) clock.clearTimeout(pollTimer);
      pollTimer = null;
      // Anything that happened before the stream opened is only in the status record.
      refresh();
    });
    es.addEventListener('message', (event) => {
      if (REFRESH_MESSAGES.has(String(event.data).trim())) refresh();
    });
    for (const name of REFRESH_EVENTS) {
      es.addEventListener(name, (event) => {
        options.onEvent?.(name, parseJson(event.data));
        refresh();
      });
    }
    es.addEventListener(SseEvent.executionProgress, (event) => options.onEvent?.(SseEvent.executionProgress, parseJson(event.data)));
    // A failed or ended stream: poll instead of letting EventSource reconnect behind our back.
    es.addEventListener('error', () => {
      es.close();
      if (source === es) source = null;
      if (!stopped) refresh();
    });
  }

  if (!isAssemblyBusy(options.initial)) {
    stop();
  } else {
    const streamUrl = options.useSse === false ? null : options.initial.update_stream_url;
    if (streamUrl) connectSse(streamUrl);
    schedulePoll();
  }

  return {
    done,
    refresh,
    mode: () => (stopped ? 'stopped' : source?.readyState === 1 ? 'sse' : 'polling'),
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
