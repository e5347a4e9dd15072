import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { ELECTRON_EVENT_CHANNEL, ELECTRON_INVOKE_CHANNEL } from '../../../shared/ipc/electron-channels';
import { err, type Result } from '../../../shared/result';
import type { EventName, EventPayload } from '../../../shared/ipc/contract';
import { dispatch } from '../../core/ipc/dispatch';
import type { Handlers } from '../../core/ipc/handlers';
import { isTrustedSender } from './sender-validation';

export interface IpcCore {
  readonly handlers: Handlers;
  onEvent(listener: <E extends EventName>(name: E, payload: EventPayload<E>) => void): () => void;
}

export const SENDER_REJECTED = 'IPC_SENDER_REJECTED';

/** The frame facts the sender check needs, read defensively (a frame can be destroyed mid-call). */
export function senderInfo(event: Pick<IpcMainInvokeEvent, 'senderFrame'>): { url: string | null; isMainFrame: boolean } | null {
  const frame = event.senderFrame;
  if (!frame) return null;
  return { url: frame.url, isMainFrame: frame.parent === null };
}

/** What arrives on the invoke channel, checked for shape before the contract parses the request. */
export async function handleInvoke(core: IpcCore, event: Pick<IpcMainInvokeEvent, 'senderFrame'>, message: unknown): Promise<Result<unknown>> {
  if (!isTrustedSender(senderInfo(event))) return err(SENDER_REJECTED, 'IPC from an untrusted frame was refused.');
  const { channel, request } = (typeof message === 'object' && message !== null ? message : {}) as Record<string, unknown>;
  return dispatch(core.handlers, channel, request);
}

/**
 * ONE handler for every contract channel and ONE event channel: the sender check happens here once,
 * and `dispatch` parses every request with the contract's schema.
 */
export function registerIpc(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, core: IpcCore, windows: () => WebContents[]): () => void {
  ipcMain.handle(ELECTRON_INVOKE_CHANNEL, (event, message: unknown) => handleInvoke(core, event, message));
  const unsubscribe = core.onEvent((event, payload) => {
    for (const contents of windows()) if (!contents.isDestroyed()) contents.send(ELECTRON_EVENT_CHANNEL, { event, payload });
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(ELECTRON_INVOKE_CHANNEL);
  };
}
