import { WebSocketServer, type WebSocket } from 'ws';
import type { EventName, EventPayload } from '../../shared/ipc/contract';
import { AppErrorCode, err, type Result } from '../../shared/result';
import { dispatch } from '../core/ipc/dispatch';
import { BRIDGE_PROTOCOL } from './access-policy';
import type { Handlers } from '../core/ipc/handlers';

/** Biggest message a page may send: a `runs:start` for tens of thousands of files fits; a flood does not. */
export const MAX_BRIDGE_MESSAGE_BYTES = 32 * 1024 * 1024;

export interface BridgeCore {
  readonly handlers: Handlers;
  onEvent(listener: <E extends EventName>(name: E, payload: EventPayload<E>) => void): () => void;
}

/** What the page sends: one contract request, tagged with an id the answer echoes. */
export interface BridgeRequestMessage {
  readonly id: number | string;
  readonly channel: string;
  readonly request: unknown;
}

export type BridgeServerMessage =
  | { readonly id: number | string; readonly result: Result<unknown> }
  | { readonly event: EventName; readonly payload: unknown };

/** Parse a page message; a malformed one is answered (when it has an id) instead of being dropped. */
export function parseBridgeMessage(
  raw: string,
): { ok: true; message: BridgeRequestMessage } | { ok: false; id: number | string | null; reason: string } {
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return { ok: false, id: null, reason: 'Message is not JSON' };
  }
  if (typeof data !== 'object' || data === null) return { ok: false, id: null, reason: 'Message is not an object' };
  const { id, channel, request } = data as Record<string, unknown>;
  const validId = typeof id === 'number' || (typeof id === 'string' && id.length <= 100) ? id : null;
  if (validId === null) return { ok: false, id: null, reason: 'Message has no id' };
  if (typeof channel !== 'string') return { ok: false, id: validId, reason: 'Message has no channel' };
  return { ok: true, message: { id: validId, channel, request } };
}

/**
 * The WebSocket half of the browser host: every page message goes through the same `dispatch` as
 * Electron's IPC, and every core event is pushed to every connected page.
 */
export function createBridgeSocketServer(core: BridgeCore): {
  wss: WebSocketServer;
  close(): Promise<void>;
} {
  // The page offers `assemblyline` and its token as subprotocols; the answer names only `assemblyline`.
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_BRIDGE_MESSAGE_BYTES,
    handleProtocols: (offered) => (offered.has(BRIDGE_PROTOCOL) ? BRIDGE_PROTOCOL : false),
  });
  const send = (socket: WebSocket, message: BridgeServerMessage) => {
    if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  };

  const unsubscribe = core.onEvent((event, payload) => {
    const text = JSON.stringify({ event, payload });
    for (const client of wss.clients) if (client.readyState === client.OPEN) client.send(text);
  });

  wss.on('connection', (socket) => {
    socket.on('message', (data, isBinary) => {
      if (isBinary) {
        socket.close(1003, 'Binary messages are not supported');
        return;
      }
      const parsed = parseBridgeMessage(data.toString());
      if (!parsed.ok) {
        if (parsed.id !== null) send(socket, { id: parsed.id, result: err(AppErrorCode.invalidRequest, parsed.reason) });
        else socket.close(1008, parsed.reason);
        return;
      }
      const { id, channel, request } = parsed.message;
      void dispatch(core.handlers, channel, request).then((result) => send(socket, { id, result }));
    });
    socket.on('error', () => socket.terminate());
  });

  return {
    wss,
    close: () =>
      new Promise<void>((resolveClose) => {
        unsubscribe();
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolveClose());
      }),
  };
}
