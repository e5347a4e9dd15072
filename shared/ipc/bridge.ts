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
   * Turn what the user dropped or picked into paths on disk that core can read and scan. The page walks
   * dropped folders itself and passes every file with its relative path (`photos/sub/a.jpg`); the bridge
   * answers with the top-level roots (`/home/me/photos`), which `files:scan` expands again in core.
   * Electron finds real paths with `webUtils.getPathForFile`; the browser host, which gets no paths from
   * a page, first stages the bytes with the host under the same relative paths.
   */
  pathsForFiles(items: readonly PickedFile[]): Promise<Result<DroppedPath[]>>;
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

/** A top-level dropped item on disk: a file or a folder, for `files:scan`. */
export interface DroppedPath {
  readonly path: string;
}

/** The name under which the bridge is exposed on `window`. */
export const BRIDGE_GLOBAL = 'assemblyline';
