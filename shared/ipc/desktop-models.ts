import { z } from 'zod';

/**
 * Something finished while the user may be looking elsewhere: a drop's Assemblies all ended, or one of them
 * failed. The Electron host raises an OS notification; the browser host's page raises a Web Notification.
 * `route` is the app's hash route to open on click (`#/transfers?batch=…`, `#/assemblies/<id>`, `#/run/<id>`).
 */
export const desktopNoticeSchema = z.object({
  /** Stable per event: the OS replaces a notice with the same tag instead of stacking it. */
  tag: z.string(),
  title: z.string(),
  body: z.string(),
  tone: z.enum(['success', 'warning', 'danger']),
  route: z.string().startsWith('#/'),
});
export type DesktopNotice = z.infer<typeof desktopNoticeSchema>;

/** The transfer queue at a glance, for the taskbar/dock and the power manager. */
export interface TransferIndicator {
  /** 0–1 of the bytes of the files still in the queue; null when nothing is queued or sending. */
  readonly fraction: number | null;
  readonly mode: 'normal' | 'paused';
  /** Transfers are running: the system should not sleep until they end or pause. */
  readonly keepAwake: boolean;
}

/** What the Electron host's application menu and notification clicks ask the page to do. */
export const appCommandSchema = z.discriminatedUnion('command', [
  z.object({ command: z.literal('navigate'), route: z.string().startsWith('#/') }),
  z.object({ command: z.literal('open-files') }),
  z.object({ command: z.literal('open-folder') }),
  z.object({ command: z.literal('shortcuts') }),
  z.object({ command: z.literal('find') }),
]);
export type AppCommand = z.infer<typeof appCommandSchema>;

/** The app's own preferences (core keeps them in `<dataDir>/preferences.json`). */
export const appPreferencesSchema = z.object({
  /** Closing the window hides it; the queue goes on and a tray/menu-bar icon shows it (Electron host only). */
  keepRunningInBackground: z.boolean(),
});
export type AppPreferences = z.infer<typeof appPreferencesSchema>;

export const DEFAULT_APP_PREFERENCES: AppPreferences = { keepRunningInBackground: false };

/** The preferences, and whether this host can honor background mode (the browser host has no tray). */
export const appPreferencesViewSchema = appPreferencesSchema.extend({
  background: z.object({ available: z.boolean(), reason: z.string().nullable() }),
});
export type AppPreferencesView = z.infer<typeof appPreferencesViewSchema>;
