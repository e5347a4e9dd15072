import type { Result } from '../result';
import type { ChannelName, ChannelRequest, ChannelResponse, EventName, EventPayload } from './contract';

/**
 * What the renderer sees as `window.assemblyline`. It is the only way out of the page: the preload
 * (Electron) and the page bridge (browser host) both implement it, and nothing generic is exposed.
 */
export interface AssemblylineBridge {
  invoke<C extends ChannelName>(channel: C, request: ChannelRequest<C>): Promise<Result<ChannelResponse<C>>>;
  /** Subscribe to an event; returns the unsubscribe function. */
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
  /**
   * Turn what the user dropped or picked into handles core can scan. The page walks dropped folders
   * itself and passes every file with its relative path (`photos/sub/a.jpg`); the bridge answers with one
   * opaque handle per top-level root (the folder `photos`, or a loose file), which `files:scan` expands in
   * core. Electron's preload finds the real paths with `webUtils.getPathForFile` and has core register
   * them; the browser host, which gets no paths from a page, stages the bytes and registers what it
   * staged. The page never sees or sends a path on disk.
   */
  handlesForFiles(items: readonly PickedFile[]): Promise<Result<PickedRoot[]>>;
  /**
   * Let the user pick one or more folders with the system's own folder dialog and answer one handle per
   * picked folder, for `drafts:add` (or `files:scan`); null when the user canceled. Electron: a native
   * dialog, read in place. Browser host: the directory picker (`showDirectoryPicker`), walked and staged
   * in small slices, so a page of 2,000 files never freezes (unlike `<input webkitdirectory>`). A file the
   * browser cannot read is not staged: core lists it under `drafts:skipped` with the reason. Absent where
   * the host cannot pick folders (a browser without the directory picker): fall back to the file input.
   */
  pickFolder?(): Promise<Result<PickedRoot[] | null>>;
  readonly host: 'electron' | 'browser';
  /**
   * Browser host only (Electron's IPC cannot drop): the link to the host went down or came back. While it
   * is down, `invoke` answers HOST_DISCONNECTED at once; on return the page refetches what it shows.
   */
  onConnection?(listener: (connected: boolean) => void): () => void;
}

/** `invoke` while the browser host cannot be reached (it stopped, or restarts). */
export const HOST_DISCONNECTED = 'HOST_DISCONNECTED';

/** The part of a DOM `File` the bridge relies on (shared/ has no DOM types). */
export interface BrowserFileLike {
  readonly name: string;
  readonly size: number;
  readonly type: string;
  /** Set by `<input webkitdirectory>`: `folder/sub/file.jpg`. */
  readonly webkitRelativePath?: string;
}

export interface PickedFile {
  readonly file: BrowserFileLike;
  /** `name` for a loose file, `folder/sub/name` for a file inside a dropped or picked folder. */
  readonly relativePath: string;
}

/** A top-level dropped or picked item (a file or a folder), named by the handle core issued for it. */
export interface PickedRoot {
  readonly handle: string;
}

/** The name under which the bridge is exposed on `window`. */
export const BRIDGE_GLOBAL = 'assemblyline';
