import { useEffect, useState } from 'react';
import { create } from 'zustand';
import { formatRoute, parseRoute, sameRoute } from '../lib/route-url';
import type { TemplateListParams } from '../lib/template-list-params';

export type Route =
  | { readonly name: 'upload' }
  | { readonly name: 'activity' }
  /** The transfer queue; `batchId` narrows the list to one batch (from a run's "Files are in Transfers"). */
  | { readonly name: 'transfers'; readonly batchId?: string }
  | { readonly name: 'run'; readonly runId: string }
  /** Any Assembly of the workspace by id (Activity's detail); runs of this app keep `run`. */
  | { readonly name: 'assembly'; readonly assemblyId: string }
  /** `list`: the list's sort, order, date range, built-ins, search and page (absent = the defaults). */
  | { readonly name: 'templates'; readonly selectedId?: string; readonly list?: TemplateListParams }
  | { readonly name: 'credentials' }
  | { readonly name: 'workspaces' }
  | { readonly name: 'auth-keys' }
  | { readonly name: 'cdn' }
  | { readonly name: 'usage' } | { readonly name: 'statistics' } | { readonly name: 'queue' }
  /** Watch folders: watches with their state, counts and files. */
  | { readonly name: 'watch-folders' }
  /** Stored assets; `folder` is the folder shown (`photos/2026`), the root when absent. */
  | { readonly name: 'assets'; readonly folder?: string }
  /** Create (no id), edit (id) or duplicate (id, copy) a Template. */
  | { readonly name: 'template-editor'; readonly id?: string; readonly copy?: boolean };

export interface NavigateOptions {
  /** Replace the current history entry instead of adding one (redirects: Back must not return to them). */
  readonly replace?: boolean;
  /** Go even when a form holds unsaved input (after a save, the form's own "discard"). */
  readonly force?: boolean;
}

/** A way out held while the user is asked: what it would throw away, and the move itself. */
export interface PendingLeave {
  /** What holds unsaved input, as each form says it ("the Template editor"). */
  readonly what: readonly string[];
  readonly proceed: () => void;
}

interface NavigationState {
  readonly route: Route;
  /**
   * Shows `route` and puts it in the URL's hash: a new history entry, so Back returns here. While a form
   * holds unsaved input (`useUnsavedChanges`), it asks first (`pending`) unless `force`.
   */
  readonly navigate: (route: Route, options?: NavigateOptions) => void;
  /** Forms with unsaved input now, by a key of each, with what each is. */
  readonly unsaved: ReadonlyMap<string, string>;
  /** A move held until the user answers "Leave" or "Stay" (features/shell/LeaveGuard). */
  readonly pending: PendingLeave | null;
  /** Leave: the unsaved input is let go and the held move happens. */
  readonly leave: () => void;
  /** Stay: the move is dropped; the forms keep what they hold. */
  readonly stay: () => void;
}

const currentWindow = (): Window | null => (typeof window === 'undefined' ? null : window);

/** Writes the hash without a reload; the query (the browser host's token) and path stay as they are. */
const writeHash = (route: Route, replace: boolean): void => {
  const win = currentWindow();
  if (!win) return;
  const hash = formatRoute(route);
  if (win.location.hash === hash) return;
  try {
    if (replace) win.history.replaceState(win.history.state, '', hash);
    else win.history.pushState(null, '', hash);
  } catch {
    // A page without a history (an opaque origin in a test) still navigates, only without Back.
  }
};

export const useNavigation = create<NavigationState>((set, get) => ({
  route: parseRoute(currentWindow()?.location.hash ?? ''),
  navigate: (route, options = {}) => {
    const replace = options.replace === true;
    if (sameRoute(get().route, route) && !replace) return;
    if (options.force !== true && get().unsaved.size > 0) {
      guarded(() => get().navigate(route, { ...options, force: true }));
      return;
    }
    writeHash(route, replace);
    set({ route });
  },
  unsaved: new Map(),
  pending: null,
  leave: () => {
    const pending = get().pending;
    // The forms let go of their input (they unmount, or mark it again when it changes).
    set({ pending: null, unsaved: new Map() });
    pending?.proceed();
  },
  stay: () => set({ pending: null }),
}));

/**
 * The one navigation guard: runs `action` at once when no form holds unsaved input, else holds it until
 * the user answers (Leave runs it, Stay drops it). Everything that leaves a form's input behind goes
 * through here: `navigate` (sidebar, links, shortcuts, menu commands), Back and Forward (`followLocation`),
 * a workspace switch. Closing or reloading the window asks through `beforeunload` (`guardUnload`).
 */
export function guarded(action: () => void): void {
  const { unsaved } = useNavigation.getState();
  if (unsaved.size === 0) {
    action();
    return;
  }
  useNavigation.setState({ pending: { what: [...new Set(unsaved.values())], proceed: action } });
}

let nextFormKey = 0;

/**
 * Marks the calling form as holding unsaved input while `dirty` is true (`what` names it in the
 * question: "the Template editor"). Leaving then asks first; saving or discarding clears `dirty`.
 */
export const useUnsavedChanges = (dirty: boolean, what: string): void => {
  const [key] = useState(() => `form-${(nextFormKey += 1)}`);
  useEffect(() => {
    if (!dirty) return undefined;
    const mark = new Map(useNavigation.getState().unsaved);
    mark.set(key, what);
    useNavigation.setState({ unsaved: mark });
    return () => {
      const { unsaved } = useNavigation.getState();
      if (!unsaved.has(key)) return;
      const unmark = new Map(unsaved);
      unmark.delete(key);
      useNavigation.setState({ unsaved: unmark });
    };
  }, [dirty, key, what]);
};

/**
 * While a form holds unsaved input, closing or reloading the window asks first: the browser asks with its
 * own words; Electron asks through the window's `will-prevent-unload` (electron/main/app-window.ts).
 */
export function guardUnload(win: Window): () => void {
  const ask = (event: BeforeUnloadEvent) => {
    if (useNavigation.getState().unsaved.size === 0) return;
    event.preventDefault();
    // Older engines ask only when returnValue is set.
    event.returnValue = '';
  };
  win.addEventListener('beforeunload', ask);
  return () => win.removeEventListener('beforeunload', ask);
}

/**
 * Follows the URL: Back, Forward and a hash typed by hand show their screen. A hash that names nothing
 * (or names it oddly) is replaced by the canonical one, without a new history entry. An empty hash (the
 * first load) stays empty: it is the Upload view.
 */
export function followLocation(win: Window): () => void {
  // The store read the URL when it was made: from now on the URL says the store's route in full.
  const { route } = useNavigation.getState();
  if (!(win.location.hash === '' && route.name === 'upload')) writeHash(route, true);
  const sync = () => {
    const route = parseRoute(win.location.hash);
    const shown = useNavigation.getState().route;
    if (sameRoute(shown, route)) {
      if (win.location.hash !== '' && win.location.hash !== formatRoute(route)) writeHash(route, true);
      return;
    }
    if (useNavigation.getState().unsaved.size > 0) {
      // Back or Forward away from unsaved input: the URL says the screen shown again until the user answers.
      writeHash(shown, false);
      guarded(() => {
        writeHash(route, true);
        useNavigation.setState({ route });
      });
      return;
    }
    if (win.location.hash !== '' && win.location.hash !== formatRoute(route)) writeHash(route, true);
    useNavigation.setState({ route });
  };
  win.addEventListener('popstate', sync);
  win.addEventListener('hashchange', sync);
  return () => {
    win.removeEventListener('popstate', sync);
    win.removeEventListener('hashchange', sync);
  };
}

/** Where the last screen shown is kept (Electron: app://app is one stable origin across restarts). */
export const LAST_ROUTE_KEY = 'assemblyline.lastRoute';

/**
 * Electron loads index.html without a hash at every start, which would always open on Upload. This
 * remembers the hash of each screen shown and, on a start without a hash, reopens the last one (replacing
 * the entry: Back does not lead to an empty Upload first). A hash in the URL always wins. A remembered
 * item that is gone shows its screen's "not found" state (a run: NOT_FOUND and "Back to Activity"); a
 * remembered hash that names nothing is Upload. Call before the first render, so Upload never flashes.
 * Returns the unsubscribe function.
 */
export function rememberRoute(win: Window, storage: Pick<Storage, 'getItem' | 'setItem'>): () => void {
  const save = (route: Route) => {
    try {
      storage.setItem(LAST_ROUTE_KEY, formatRoute(route));
    } catch {
      // Storage full or disabled: the app still works, it only opens on Upload next time.
    }
  };
  if (win.location.hash === '') {
    let saved: string | null = null;
    try {
      saved = storage.getItem(LAST_ROUTE_KEY);
    } catch {
      saved = null;
    }
    if (saved) {
      const route = parseRoute(saved);
      writeHash(route, true);
      useNavigation.setState({ route });
    }
  }
  save(useNavigation.getState().route);
  return useNavigation.subscribe((state, previous) => {
    if (state.route !== previous.route) save(state.route);
  });
}

/** Keeps the navigation store and the URL in step while the app is mounted; closing asks over unsaved input. */
export const useLocationRoute = (): void => {
  useEffect(() => {
    const stopFollowing = followLocation(window);
    const stopGuarding = guardUnload(window);
    return () => {
      stopFollowing();
      stopGuarding();
    };
  }, []);
};
