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
