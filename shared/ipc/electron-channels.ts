/**
 * The only Electron IPC channels: every contract request goes through `invoke` (the contract channel
 * travels inside the message) and every core event through `event`. `pick` is the preload's alone: it
 * sends the real paths of files the user picked or dropped (webUtils) and gets back opaque handles; the
 * page cannot reach it, since the preload exposes only `handlesForFiles`. Main checks the sender on both.
 */
export const ELECTRON_INVOKE_CHANNEL = 'assemblyline:invoke';
export const ELECTRON_EVENT_CHANNEL = 'assemblyline:event';
export const ELECTRON_PICK_CHANNEL = 'assemblyline:pick';
/** The preload's folder picker: main shows the native folder dialog and answers handles (or null: canceled). */
export const ELECTRON_PICK_FOLDER_CHANNEL = 'assemblyline:pickFolder';
