import type { AssemblylineBridge, PickedFile, PickedRoot } from '../../../shared/ipc/bridge';
import { BRIDGE_GLOBAL, HOST_DISCONNECTED } from '../../../shared/ipc/bridge';
import type { ChannelName, ChannelRequest, ChannelResponse, EventName, EventPayload } from '../../../shared/ipc/contract';
import { uniqueInOrder } from '../../../shared/ipc/picked-roots';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import { BRIDGE_PROTOCOL, createYielder, encodeStagingUrl, forEachLimit, nextBackoffMs, rootSegmentOf, TOKEN_HEADER, TOKEN_PROTOCOL_PREFIX, tokenFromFragment } from './page-bridge-logic';

/**
 * The browser host's `window.assemblyline`: the contract over a WebSocket to the host, which dispatches
 * to the same core as Electron's IPC. Loaded as a classic script before the app, so the bridge exists
 * before any app code runs. Dropped files are copied to the host (a browser gives no paths) by PUT.
 */

const SEND_TIMEOUT_MS = 10_000;
/** Where this tab keeps the launch token across a reload. */
const TOKEN_KEY = 'assemblyline.token';

type Listener = (payload: unknown) => void;
interface Pending {
  resolve(result: Result<unknown>): void;
}

const pending = new Map<number, Pending>();
const outbox: { id: number; text: string }[] = [];
const listeners = new Map<string, Set<Listener>>();
const connectionListeners = new Set<(connected: boolean) => void>();
let socket: WebSocket | null = null;
let nextId = 1;
let attempt = 0;
/** Once the link has been up, a lost link fails calls at once (the page shows it) instead of queueing them. */
let everConnected = false;
let connected = false;

function setConnected(next: boolean): void {
  if (next === connected) return;
  connected = next;
  for (const listener of [...connectionListeners]) {
    try {
      listener(next);
    } catch (cause) {
      console.error('assemblyline connection listener failed', cause);
    }
  }
}

const disconnected = () => err(HOST_DISCONNECTED, 'Lost the connection to Assemblyline; reconnecting…');

/**
 * This launch's token: from the URL fragment the host printed or redirected to (`#token=…`), which is then
 * dropped from the address bar and history, else what this tab kept (a reload). sessionStorage belongs to
 * this origin and tab alone; no cookie, so no other loopback server ever receives it.
 */
function takeToken(): string | null {
  const given = tokenFromFragment(location.hash);
  if (given) {
    history.replaceState(history.state, '', `${location.pathname}${location.search}`);
    try {
      sessionStorage.setItem(TOKEN_KEY, given);
    } catch {
      // Storage refused (a locked-down browser): the tab still works until it is reloaded.
    }
    return given;
  }
  try {
    return sessionStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}
const token = takeToken();
const tokenHeaders = (): Record<string, string> => (token ? { [TOKEN_HEADER]: token } : {});

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
    ws = new WebSocket(socketUrl(), [BRIDGE_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${token ?? ''}`]);
  } catch {
    reconnectLater();
    return;
  }
  socket = ws;
  ws.addEventListener('open', () => {
    attempt = 0;
    everConnected = true;
    for (const item of outbox.splice(0)) if (pending.has(item.id)) ws.send(item.text);
    setConnected(true);
  });
  ws.addEventListener('message', (event) => onMessage(String(event.data)));
  ws.addEventListener('close', () => {
    if (socket === ws) socket = null;
    // Anything in flight may never be answered: say so now rather than hang the UI.
    const sentIds = [...pending.keys()].filter((id) => !outbox.some((item) => item.id === id));
    for (const id of sentIds) settle(id, disconnected());
    setConnected(false);
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
    if (everConnected) return settle(id, disconnected());
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

/** Chromium opens at most 6 connections per host over HTTP/1.1: one PUT on each. */
const STAGING_CONCURRENCY = 6;

/** One file to stage: its relative path and how to get its bytes (a picked File, or a directory entry's getFile). */
interface StageItem {
  readonly relativePath: string;
  getFile(): Promise<unknown>;
}

/** What staging one file came to: its root's handle (staged, or noted as unreadable), or a failure of the whole drop. */
type Staged = { ok: true; handle: string } | { ok: false; error: ReturnType<typeof disconnected> };

const errorText = (cause: unknown) => (cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause));

/** Tell the host a file could not be read; it keeps the reason on the file's root, for drafts:skipped. */
async function reportUnreadable(batchId: string, relativePath: string, reason: string): Promise<Staged> {
  let response: Response;
  try {
    response = await fetch(encodeStagingUrl(batchId, rootSegmentOf(relativePath)), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...tokenHeaders() },
      body: JSON.stringify({ unreadable: reason, relativePath }),
    });
  } catch (cause) {
    return { ok: false, error: err(AppErrorCode.network, `Could not reach Assemblyline to copy ${relativePath}: ${errorText(cause)}`) };
  }
  const answer = (await response.json().catch(() => null)) as { handle?: string; error?: { code: string; message: string } } | null;
  if (response.ok && answer && typeof answer.handle === 'string') return { ok: true, handle: answer.handle };
  return { ok: false, error: err(answer?.error?.code ?? AppErrorCode.uploadFailed, answer?.error?.message ?? `HTTP ${response.status}`) };
}

/** Reads the first byte: a file moved, deleted, changed or without permission fails here, with a reason. */
async function probe(body: Blob): Promise<string | null> {
  try {
    const first = await body.slice(0, 1).arrayBuffer();
    // Chromium reads a slice of a vanished file as empty rather than failing: compare the length.
    return first.byteLength === Math.min(1, body.size) ? null : 'it is no longer on disk';
  } catch (cause) {
    return errorText(cause);
  }
}

/**
 * Copy one file to the host. A file that cannot be read, or that the host refuses, never fails the drop:
 * it is reported as unreadable with the reason and the rest goes on. Only a host that cannot be reached
 * at all fails the whole drop.
 */
async function stageOne(batchId: string, item: StageItem): Promise<Staged> {
  const unreadable = (why: string) => reportUnreadable(batchId, item.relativePath, `The browser could not read it (moved, changed or no permission): ${why}`);
  let body: unknown;
  try {
    body = await item.getFile();
  } catch (cause) {
    return unreadable(errorText(cause));
  }
  if (!(body instanceof Blob)) return unreadable('not a file the page can read');
  for (let attempt = 1; ; attempt += 1) {
    const problem = await probe(body);
    if (problem !== null) return unreadable(problem);
    let response: Response;
    try {
      response = await fetch(encodeStagingUrl(batchId, item.relativePath), { method: 'PUT', body, headers: tokenHeaders() });
    } catch (cause) {
      // A read failing mid-body looks like a network error here: the probe tells the two apart.
      if (!connected && everConnected) return { ok: false, error: disconnected() };
      if (attempt < 2) continue;
      const again = await probe(body);
      return again !== null ? unreadable(again) : reportUnreadable(batchId, item.relativePath, `Could not be copied to Assemblyline: ${errorText(cause)}`);
    }
    const answer = (await response.json().catch(() => null)) as { handle?: string; error?: { code: string; message: string } } | null;
    if (response.ok && answer && typeof answer.handle === 'string') return { ok: true, handle: answer.handle };
    const error = answer?.error ?? { code: AppErrorCode.uploadFailed, message: `HTTP ${response.status}` };
    // A full disk on the host fails every file alike: say so once.
    if (response.status === 507) return { ok: false, error: err(error.code, `Could not copy ${item.relativePath}: ${error.message}`, { httpCode: 507 }) };
    return reportUnreadable(batchId, item.relativePath, `Assemblyline could not take it: ${error.message}`);
  }
}

/** Files up to this size travel many to a request (a request costs the browser a few ms of CPU, whatever its size). */
const BUNDLE_FILE_MAX_BYTES = 1024 ** 2;
const BUNDLE_MAX_FILES = 64;
const BUNDLE_MAX_BYTES = 8 * 1024 ** 2;

type Chunk = { readonly single: StageItem } | { readonly bundle: readonly { item: StageItem; file: Blob }[] };

/** Groups small files into bundles as they come; large or unreadable ones go alone. */
async function* chunked(items: AsyncIterable<StageItem> | Iterable<StageItem>): AsyncGenerator<Chunk> {
  let bundle: { item: StageItem; file: Blob }[] = [];
  let bytes = 0;
  for await (const item of items) {
    let file: unknown;
    try {
      file = await item.getFile();
    } catch {
      yield { single: item };
      continue;
    }
    if (!(file instanceof Blob) || file.size > BUNDLE_FILE_MAX_BYTES) {
      yield { single: { relativePath: item.relativePath, getFile: async () => file } };
      continue;
    }
    bundle.push({ item, file });
    bytes += file.size;
    if (bundle.length >= BUNDLE_MAX_FILES || bytes >= BUNDLE_MAX_BYTES) {
      yield { bundle };
      bundle = [];
      bytes = 0;
    }
  }
  if (bundle.length > 0) yield { bundle };
}

/**
 * Many small files in one POST (see electron/web/staging-bundle.ts). Anything unusual — a file read short,
 * a network error — sends that bundle's files one by one instead, where each is probed and reported.
 */
async function stageBundle(batchId: string, entries: readonly { item: StageItem; file: Blob }[]): Promise<Staged[]> {
  const oneByOne = async () => {
    const out: Staged[] = [];
    for (const { item, file } of entries) out.push(await stageOne(batchId, { relativePath: item.relativePath, getFile: async () => file }));
    return out;
  };
  const manifest = JSON.stringify({ files: entries.map(({ item, file }) => ({ relativePath: item.relativePath, size: file.size })) });
  let response: Response;
  try {
    response = await fetch(`/staging-bundle/${encodeURIComponent(batchId)}`, { method: 'POST', body: new Blob([manifest, '\n', ...entries.map((e) => e.file)]), headers: tokenHeaders() });
  } catch {
    if (!connected && everConnected) return entries.map(() => ({ ok: false, error: disconnected() }));
    return oneByOne();
  }
  const answer = (await response.json().catch(() => null)) as { results?: ({ handle?: string } & { error?: { message: string } })[] } | null;
  const results = answer?.results;
  if (!response.ok || !results || results.length !== entries.length) return oneByOne();
  return Promise.all(
    results.map((result, i) =>
      typeof result.handle === 'string'
        ? ({ ok: true, handle: result.handle } as Staged)
        : reportUnreadable(batchId, (entries[i] as { item: StageItem }).item.relativePath, `Assemblyline could not take it: ${result.error?.message ?? 'no reason given'}`),
    ),
  );
}

/**
 * Stage a stream of files, six requests at once (small files bundled), and answer one handle per
 * top-level item in the order they came. Unreadable files are noted on their root (core lists them);
 * only an unreachable host fails the whole.
 */
async function stageAll(items: AsyncIterable<StageItem> | Iterable<StageItem>): Promise<Result<PickedRoot[]>> {
  const batchId = crypto.randomUUID();
  const order = new Map<string, number>();
  const handles: (string | undefined)[] = [];
  let failure: ReturnType<typeof disconnected> | null = null;
  const maybeYield = createYielder();
  const noteOrder = (relativePath: string) => {
    const root = rootSegmentOf(relativePath);
    if (!order.has(root)) order.set(root, order.size);
    return order.get(root) as number;
  };
  const settle = (relativePath: string, staged: Staged) => {
    if (!staged.ok) failure ??= staged.error;
    else handles[noteOrder(relativePath)] ??= staged.handle;
  };
  await forEachLimit(
    chunked(items),
    STAGING_CONCURRENCY,
    async (chunk) => {
      if ('single' in chunk) {
        noteOrder(chunk.single.relativePath);
        settle(chunk.single.relativePath, await stageOne(batchId, chunk.single));
      } else {
        for (const { item } of chunk.bundle) noteOrder(item.relativePath);
        const staged = await stageBundle(batchId, chunk.bundle);
        staged.forEach((result, i) => settle((chunk.bundle[i] as { item: StageItem }).item.relativePath, result));
      }
      await maybeYield();
    },
    () => failure !== null,
  );
  if (failure) return failure;
  return ok(uniqueInOrder(handles.filter((h): h is string => typeof h === 'string')).map((handle) => ({ handle })));
}

/** The host stages each file's bytes and answers the handle of its top-level root; the page never gets a path. */
function handlesForFiles(items: readonly PickedFile[]): Promise<Result<PickedRoot[]>> {
  return stageAll(items.map((item) => ({ relativePath: item.relativePath, getFile: async () => item.file })));
}

/** The little of the File System Access API the folder picker uses (not in TypeScript's DOM library yet). */
interface DirectoryHandle {
  readonly kind: 'directory';
  readonly name: string;
  entries(): AsyncIterable<[string, DirectoryHandle | FileHandle]>;
}
interface FileHandle {
  readonly kind: 'file';
  readonly name: string;
  getFile(): Promise<File>;
}
type DirectoryPicker = (options?: { mode?: 'read'; id?: string }) => Promise<DirectoryHandle>;

/** Every file below a picked folder, streamed folder by folder, giving the event loop a turn every few ms. */
async function* walkDirectory(root: DirectoryHandle): AsyncGenerator<StageItem> {
  const maybeYield = createYielder();
  const stack: [DirectoryHandle, string][] = [[root, root.name]];
  while (stack.length > 0) {
    const [dir, prefix] = stack.pop() as [DirectoryHandle, string];
    const subdirs: [DirectoryHandle, string][] = [];
    try {
      for await (const [name, entry] of dir.entries()) {
        const relativePath = `${prefix}/${name}`;
        if (entry.kind === 'directory') subdirs.push([entry, relativePath]);
        else yield { relativePath, getFile: () => entry.getFile() };
        await maybeYield();
      }
    } catch (cause) {
      // A folder the browser cannot list: noted as unreadable, like a file.
      yield { relativePath: prefix, getFile: () => Promise.reject(cause instanceof Error ? cause : new Error(String(cause))) };
    }
    subdirs.sort((a, b) => (a[1] < b[1] ? 1 : a[1] > b[1] ? -1 : 0));
    stack.push(...subdirs);
  }
}

/** The system's folder dialog (File System Access API), then the folder streamed into staging. */
async function pickFolder(): Promise<Result<PickedRoot[] | null>> {
  const picker = (window as unknown as { showDirectoryPicker?: DirectoryPicker }).showDirectoryPicker;
  if (typeof picker !== 'function') return err(AppErrorCode.invalidRequest, 'This browser cannot pick folders: drop the folder instead.');
  let root: DirectoryHandle;
  try {
    root = await picker.call(window, { mode: 'read', id: 'assemblyline-folder' });
  } catch (cause) {
    // The user closed the dialog.
    if (cause instanceof DOMException && cause.name === 'AbortError') return ok(null);
    return err(AppErrorCode.fileUnreadable, `Could not open the folder: ${errorText(cause)}`);
  }
  return stageAll(walkDirectory(root));
}

function onConnection(listener: (connected: boolean) => void): () => void {
  connectionListeners.add(listener);
  return () => {
    connectionListeners.delete(listener);
  };
}

// The folder picker only where the browser has the directory picker; the page falls back to its file input.
const canPickFolders = typeof (window as unknown as { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function';
const bridge: AssemblylineBridge = Object.freeze({ host: 'browser' as const, invoke, on, handlesForFiles, onConnection, ...(canPickFolders ? { pickFolder } : {}) });

/**
 * The bridge only for a page that holds this launch's token (asked of the host first): without one the
 * page says how to open the app (NoBridge) instead of showing a UI that cannot load anything.
 */
async function install(): Promise<void> {
  const answer = token ? await fetch('/session', { headers: tokenHeaders(), cache: 'no-store' }).then((r) => r.status, () => 0) : 403;
  if (answer === 403) {
    try {
      sessionStorage.removeItem(TOKEN_KEY);
    } catch {
      // nothing kept
    }
    document.documentElement.dataset.bridge = 'none';
    return;
  }
  Object.defineProperty(window, BRIDGE_GLOBAL, { value: bridge, writable: false, configurable: false, enumerable: true });
  connect();
}
void install();
