import type { AssemblylineBridge, PickedFile, PickedRoot } from '../../../shared/ipc/bridge';
import { BRIDGE_GLOBAL } from '../../../shared/ipc/bridge';
import type { ChannelName, ChannelRequest, ChannelResponse, EventName, EventPayload } from '../../../shared/ipc/contract';
import { uniqueInOrder } from '../../../shared/ipc/picked-roots';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import { encodeStagingUrl, mapLimit, nextBackoffMs } from './page-bridge-logic';

/**
 * The browser host's `window.assemblyline`: the contract over a WebSocket to the host, which dispatches
 * to the same core as Electron's IPC. Loaded as a classic script before the app, so the bridge exists
 * before any app code runs. Dropped files are copied to the host (a browser gives no paths) by PUT.
 */

const SEND_TIMEOUT_MS = 10_000;
const STAGING_CONCURRENCY = 4;

type Listener = (payload: unknown) => void;
interface Pending {
  resolve(result: Result<unknown>): void;
}

const pending = new Map<number, Pending>();
const outbox: { id: number; text: string }[] = [];
const listeners = new Map<string, Set<Listener>>();
let socket: WebSocket | null = null;
let nextId = 1;
let attempt = 0;

function socketUrl(): string {
  return `ws://${location.host}/bridge`;
}

function reconnectLater(): void {
  attempt += 1;
  setTimeout(connect, nextBackoffMs(attempt));
}

function connect(): void {
  let ws: WebSocket;
  try {
    ws = new WebSocket(socketUrl());
  } catch {
    reconnectLater();
    return;
  }
  socket = ws;
  ws.addEventListener('open', () => {
    attempt = 0;
    for (const item of outbox.splice(0)) if (pending.has(item.id)) ws.send(item.text);
  });
  ws.addEventListener('message', (event) => onMessage(String(event.data)));
  ws.addEventListener('close', () => {
    socket = null;
    // Anything in flight may never be answered: say so now rather than hang the UI.
    const sentIds = [...pending.keys()].filter((id) => !outbox.some((item) => item.id === id));
    for (const id of sentIds) settle(id, err(AppErrorCode.network, 'Lost the connection to Assemblyline; please retry.'));
    reconnectLater();
  });
}

function onMessage(text: string): void {
  let message: { id?: number; result?: Result<unknown>; event?: string; payload?: unknown };
  try {
    message = JSON.parse(text);
  } catch {
    return;
  }
  if (typeof message.id === 'number' && message.result) return settle(message.id, message.result);
  if (typeof message.event === 'string') {
    for (const listener of [...(listeners.get(message.event) ?? [])]) {
      try {
        listener(message.payload);
      } catch (cause) {
        console.error('assemblyline listener failed', cause);
      }
    }
  }
}

function settle(id: number, result: Result<unknown>): void {
  const entry = pending.get(id);
  if (!entry) return;
  pending.delete(id);
  entry.resolve(result);
}

function invoke<C extends ChannelName>(channel: C, request: ChannelRequest<C>): Promise<Result<ChannelResponse<C>>> {
  const id = nextId++;
  const text = JSON.stringify({ id, channel, request });
  return new Promise((resolve) => {
    pending.set(id, { resolve: resolve as (result: Result<unknown>) => void });
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(text);
      return;
    }
    outbox.push({ id, text });
    setTimeout(() => {
      const queued = outbox.findIndex((item) => item.id === id);
      if (queued < 0) return;
      outbox.splice(queued, 1);
      settle(id, err(AppErrorCode.network, 'Assemblyline is not reachable; is it still running?'));
    }, SEND_TIMEOUT_MS);
  });
}

function on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
  const set = listeners.get(event) ?? new Set<Listener>();
  listeners.set(event, set);
  const wrapped = listener as Listener;
  set.add(wrapped);
  return () => {
    set.delete(wrapped);
  };
}

async function stageOne(batchId: string, item: PickedFile): Promise<Result<string>> {
  const body = item.file as unknown;
  if (!(body instanceof Blob)) return err(AppErrorCode.invalidRequest, `${item.relativePath} is not a file the page can read`);
  // A file moved, deleted or unreadable since it was picked fails here, with a reason, not mid-upload.
  // (Chromium reads a slice of a vanished file as empty rather than failing, so compare the length.)
  const unreadable = (why: string) =>
    err(AppErrorCode.fileUnreadable, `Could not read ${item.relativePath} (moved, deleted or not readable): ${why}`);
  try {
    const probe = await body.slice(0, 1).arrayBuffer();
    if (probe.byteLength !== Math.min(1, body.size)) return unreadable('it is no longer on disk');
  } catch (cause) {
    return unreadable(String(cause));
  }
  let response: Response;
  try {
    response = await fetch(encodeStagingUrl(batchId, item.relativePath), { method: 'PUT', body, credentials: 'same-origin' });
  } catch (cause) {
    return err(AppErrorCode.network, `Could not copy ${item.relativePath} to Assemblyline (was the file moved, or did the app stop?): ${String(cause)}`);
  }
  const answer = (await response.json().catch(() => null)) as { handle?: string; error?: { code: string; message: string } } | null;
  if (response.ok && answer && typeof answer.handle === 'string') return ok(answer.handle);
  const error = answer?.error ?? { code: AppErrorCode.uploadFailed, message: `HTTP ${response.status}` };
  return err(error.code, `Could not copy ${item.relativePath}: ${error.message}`, { httpCode: response.status });
}

/** The host stages each file's bytes and answers the handle of its top-level root; the page never gets a path. */
async function handlesForFiles(items: readonly PickedFile[]): Promise<Result<PickedRoot[]>> {
  const batchId = crypto.randomUUID();
  const results = await mapLimit(items, STAGING_CONCURRENCY, (item) => stageOne(batchId, item));
  const failure = results.find((r) => !r.ok);
  if (failure && !failure.ok) return failure;
  const handles = results.flatMap((r) => (r.ok ? [r.value] : []));
  return ok(uniqueInOrder(handles).map((handle) => ({ handle })));
}

const bridge: AssemblylineBridge = Object.freeze({ host: 'browser' as const, invoke, on, handlesForFiles });
Object.defineProperty(window, BRIDGE_GLOBAL, { value: bridge, writable: false, configurable: false, enumerable: true });
connect();
