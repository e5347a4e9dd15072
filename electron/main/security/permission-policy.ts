import { APP_HOST, APP_SCHEME } from '../ipc/sender-validation';

/**
 * Checklist #5: deny every permission, except writing to the clipboard from our own page ("Copy URL",
 * "Copy Assembly ID" need it). Reading the clipboard, camera, notifications, ... are all refused.
 */
const ALLOWED_FOR_APP = new Set(['clipboard-sanitized-write']);

export function isPermissionAllowed(permission: string, requestingUrl: string | null | undefined): boolean {
  if (!ALLOWED_FOR_APP.has(permission) || !requestingUrl) return false;
  try {
    const url = new URL(requestingUrl);
    return url.protocol === `${APP_SCHEME}:` && url.host === APP_HOST;
  } catch {
    return false;
  }
}
