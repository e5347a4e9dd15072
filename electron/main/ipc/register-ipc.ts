import path from 'node:path';
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { z } from 'zod';
import type { PickedRoot } from '../../../shared/ipc/bridge';
import { ELECTRON_EVENT_CHANNEL, ELECTRON_INVOKE_CHANNEL, ELECTRON_PICK_CHANNEL, ELECTRON_PICK_FOLDER_CHANNEL } from '../../../shared/ipc/electron-channels';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { EventName, EventPayload } from '../../../shared/ipc/contract';
import type { FileHandleRegistry } from '../../core/files/file-handles';
import { dispatch } from '../../core/ipc/dispatch';
import type { Handlers } from '../../core/ipc/handlers';
import { isTrustedSender } from './sender-validation';

export interface IpcCore {
  readonly handlers: Handlers;
  readonly files: Pick<FileHandleRegistry, 'register'>;
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

const pickSchema = z.object({ paths: z.array(z.string().min(1).max(4096).refine((p) => path.isAbsolute(p))).min(1).max(10_000) });

/**
 * The preload's pick channel: real paths of what the user picked or dropped (from webUtils, which only
 * knows files the user chose) become opaque handles. The page itself cannot send here (see preload.ts).
 */
export function handlePick(core: IpcCore, event: Pick<IpcMainInvokeEvent, 'senderFrame'>, message: unknown): Result<PickedRoot[]> {
  if (!isTrustedSender(senderInfo(event))) return err(SENDER_REJECTED, 'IPC from an untrusted frame was refused.');
  const parsed = pickSchema.safeParse(message);
  if (!parsed.success) return err(AppErrorCode.invalidRequest, 'A pick must name absolute paths.');
  return ok(parsed.data.paths.map((p) => ({ handle: core.files.register(p) })));
}

/** Shows the native folder dialog for the window that asked: the picked folders' paths, or null when canceled. */
export type FolderDialog = (sender: WebContents | null) => Promise<string[] | null>;

/**
 * The preload's folder picker: main shows the system's folder dialog (only main can), and the folders the
 * user chose become handles. The page learns no path, and cannot name one: the dialog is the user's act.
 */
export async function handlePickFolder(core: IpcCore, event: Pick<IpcMainInvokeEvent, 'senderFrame'> & { sender?: WebContents }, showDialog: FolderDialog): Promise<Result<PickedRoot[] | null>> {
  if (!isTrustedSender(senderInfo(event))) return err(SENDER_REJECTED, 'IPC from an untrusted frame was refused.');
  try {
    const paths = await showDialog(event.sender ?? null);
    if (paths === null || paths.length === 0) return ok(null);
    return ok(paths.filter((p) => path.isAbsolute(p)).map((p) => ({ handle: core.files.register(p) })));
  } catch (cause) {
    return err(AppErrorCode.internal, `Could not show the folder dialog: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/** The one way main sends a contract event to a page (core's events, menu commands, notification clicks). */
export function sendEvent<E extends EventName>(contents: Pick<WebContents, 'isDestroyed' | 'send'>, event: E, payload: EventPayload<E>): void {
  if (!contents.isDestroyed()) contents.send(ELECTRON_EVENT_CHANNEL, { event, payload });
}

/**
 * ONE handler for every contract channel and ONE event channel: the sender check happens here once,
 * and `dispatch` parses every request with the contract's schema.
 */
export function registerIpc(ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>, core: IpcCore, windows: () => WebContents[], folderDialog?: FolderDialog): () => void {
  ipcMain.handle(ELECTRON_INVOKE_CHANNEL, (event, message: unknown) => handleInvoke(core, event, message));
  ipcMain.handle(ELECTRON_PICK_CHANNEL, (event, message: unknown) => handlePick(core, event, message));
  if (folderDialog) ipcMain.handle(ELECTRON_PICK_FOLDER_CHANNEL, (event) => handlePickFolder(core, event, folderDialog));
  const unsubscribe = core.onEvent((event, payload) => {
    for (const contents of windows()) sendEvent(contents, event, payload);
  });
  return () => {
    unsubscribe();
    ipcMain.removeHandler(ELECTRON_INVOKE_CHANNEL);
    ipcMain.removeHandler(ELECTRON_PICK_CHANNEL);
    if (folderDialog) ipcMain.removeHandler(ELECTRON_PICK_FOLDER_CHANNEL);
  };
}
