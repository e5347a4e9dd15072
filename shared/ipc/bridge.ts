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
   * Turn files the user dropped or picked (DOM `File` objects) into paths on disk that core can read.
   * Electron asks `webUtils.getPathForFile`; the browser host, which gets no paths from the page,
   * stages the bytes with the host first. Folders dropped in Electron come back as the folder's path.
   */
  pathsForFiles(files: readonly BrowserFileLike[]): Promise<Result<DroppedPath[]>>;
  readonly host: 'electron' | 'browser';
}

/** The part of a DOM `File` the bridge relies on (shared/ has no DOM types). */
export interface BrowserFileLike {
  readonly name: string;
  readonly size: number;
  readonly type: string;
  /** Set by `<input webkitdirectory>`: `folder/sub/file.jpg`. */
  readonly webkitRelativePath?: string;
}

export interface DroppedPath {
  readonly path: string;
  /** Relative path to keep for display and for `relative_path` (folder structure of the drop). */
  readonly relativePath: string;
}

/** The name under which the bridge is exposed on `window`. */
export const BRIDGE_GLOBAL = 'assemblyline';
