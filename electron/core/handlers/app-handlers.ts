import type { Handlers } from '../ipc/handlers';
import type { AppPreferences, AppPreferencesView } from '../../../shared/ipc/desktop-models';
import { ok } from '../../../shared/result';
import type { HandlerContext } from './context';

/** Why the browser host cannot keep running in the background: it has no tray, and the page is the UI. */
export const BACKGROUND_UNAVAILABLE_IN_BROWSER =
  'Only in the desktop app: the browser host has no tray icon. Closing this tab stops the page; the transfers go on while the host process (npm start) keeps running.';

/** The preferences with whether this host honors background mode (only Electron has a tray). */
export function preferencesView(host: HandlerContext['host'], preferences: AppPreferences): AppPreferencesView {
  const available = host === 'electron';
  return { ...preferences, background: { available, reason: available ? null : BACKGROUND_UNAVAILABLE_IN_BROWSER } };
}

export function createAppHandlers(ctx: HandlerContext): Pick<Handlers, 'app:info' | 'app:preferences' | 'app:savePreferences'> {
  return {
    'app:info': async () =>
      ok({
        version: ctx.version,
        host: ctx.host,
        platform: process.platform,
        dataDir: ctx.dataDir,
        localServiceUrl: ctx.localServiceUrl,
        activeWorkspaceId: ctx.workspaces.activeId(),
        vault: await ctx.vault.status(),
      }),
    'app:preferences': async () => ok(preferencesView(ctx.host, ctx.preferences.get())),
    'app:savePreferences': async (change) => ok(preferencesView(ctx.host, await ctx.preferences.save(change))),
  };
}
