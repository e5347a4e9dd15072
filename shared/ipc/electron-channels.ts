/**
 * The only two Electron IPC channels: every contract request goes through `invoke` (the contract channel
 * travels inside the message) and every core event through `event`. Main checks the sender on `invoke`.
 */
export const ELECTRON_INVOKE_CHANNEL = 'assemblyline:invoke';
export const ELECTRON_EVENT_CHANNEL = 'assemblyline:event';
