import type { TransfersView } from './TransfersView';

/**
 * Transfers is where Start leads, so its code must be ready before the first Start: the view is a chunk of
 * its own that the build marks to be compiled whole as it loads (renderer/vite.config.ts), and the page loads
 * it while idle after start. Otherwise the first switch compiled the view's functions one by one inside its
 * own tasks (~17 ms of V8 compiling, issue 27: bench:start-switch's first round).
 */
let loading: Promise<typeof TransfersView> | null = null;
let loaded: typeof TransfersView | null = null;

export const loadTransfersView = (): Promise<typeof TransfersView> => {
  loading ??= import('./TransfersView').then(
    (m) => {
      loaded = m.TransfersView;
      return m.TransfersView;
    },
    (cause: unknown) => {
      // Not kept: a chunk that failed to load (the app's host went away, e2e connection.spec) is asked again.
      loading = null;
      throw cause;
    },
  );
  return loading;
};

/** The view once its chunk has loaded; null before (the route then waits for it behind a Suspense). */
export const loadedTransfersView = (): typeof TransfersView | null => loaded;
