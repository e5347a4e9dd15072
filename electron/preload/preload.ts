import { contextBridge, ipcRenderer, webUtils, type IpcRendererEvent } from 'electron';
import type { AssemblylineBridge, PickedFile, PickedRoot } from '../../shared/ipc/bridge';
import { BRIDGE_GLOBAL } from '../../shared/ipc/bridge';
import type { ChannelName, ChannelRequest, ChannelResponse, EventName, EventPayload } from '../../shared/ipc/contract';
import { ELECTRON_EVENT_CHANNEL, ELECTRON_INVOKE_CHANNEL, ELECTRON_PICK_CHANNEL, ELECTRON_PICK_FOLDER_CHANNEL } from '../../shared/ipc/electron-channels';
import { rootForPickedFile, uniqueInOrder } from '../../shared/ipc/picked-roots';
import { AppErrorCode, err, ok, type Result } from '../../shared/result';

/**
 * The sandboxed preload: exposes exactly the bridge's named functions over two fixed channels — never
 * ipcRenderer itself, never a channel chosen by the page, never process.env (checklist #20).
 */

async function invoke<C extends ChannelName>(channel: C, request: ChannelRequest<C>): Promise<Result<ChannelResponse<C>>> {
  try {
    return (await ipcRenderer.invoke(ELECTRON_INVOKE_CHANNEL, { channel, request })) as Result<ChannelResponse<C>>;
  } catch (cause) {
    return err(AppErrorCode.internal, cause instanceof Error ? cause.message : String(cause));
  }
}

function on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void {
  const wrapped = (_event: IpcRendererEvent, message: { event?: unknown; payload?: unknown }) => {
    if (message && message.event === event) listener(message.payload as EventPayload<E>);
  };
  ipcRenderer.on(ELECTRON_EVENT_CHANNEL, wrapped);
  return () => {
    ipcRenderer.removeListener(ELECTRON_EVENT_CHANNEL, wrapped);
  };
}

/**
 * Electron reads files in place: the real path of each File, cut back to the dropped root, goes to main,
 * which answers with opaque handles. The page gets only those; it never sees or sends a path.
 */
async function handlesForFiles(items: readonly PickedFile[]): Promise<Result<PickedRoot[]>> {
  const roots: string[] = [];
  for (const item of items) {
    const path = webUtils.getPathForFile(item.file as unknown as File);
    if (!path) return err(AppErrorCode.fileUnreadable, `${item.relativePath} has no path on disk (was it dragged from another app?)`);
    roots.push(rootForPickedFile(path, item.relativePath));
  }
  const unique = uniqueInOrder(roots);
  if (unique.length === 0) return ok([]);
  try {
    return (await ipcRenderer.invoke(ELECTRON_PICK_CHANNEL, { paths: unique })) as Result<PickedRoot[]>;
  } catch (cause) {
    return err(AppErrorCode.internal, cause instanceof Error ? cause.message : String(cause));
  }
}

/** The native folder dialog, shown by main; the page gets handles (or null: canceled), never paths. */
async function pickFolder(): Promise<Result<PickedRoot[] | null>> {
  try {
    return (await ipcRenderer.invoke(ELECTRON_PICK_FOLDER_CHANNEL)) as Result<PickedRoot[] | null>;
  } catch (cause) {
    return err(AppErrorCode.internal, cause instanceof Error ? cause.message : String(cause));
  }
}

const bridge: AssemblylineBridge = { host: 'electron', invoke, on, handlesForFiles, pickFolder };
contextBridge.exposeInMainWorld(BRIDGE_GLOBAL, bridge);
