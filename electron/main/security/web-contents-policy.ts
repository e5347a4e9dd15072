import type { App, Session, Shell } from 'electron';
import { isSafeExternalUrl } from './external-url';
import { isPermissionAllowed } from './permission-policy';

/**
 * Checklist #12-#15 in one place: no page opens windows, navigates away or attaches a webview; links
 * to https go to the system browser instead.
 */
export function installWebContentsPolicy(app: App, shell: Pick<Shell, 'openExternal'>): void {
  app.on('web-contents-created', (_event, contents) => {
    contents.setWindowOpenHandler(({ url }) => {
      if (isSafeExternalUrl(url)) void shell.openExternal(url).catch(() => undefined);
      return { action: 'deny' };
    });
    contents.on('will-navigate', (event) => event.preventDefault());
    contents.on('will-redirect', (event) => event.preventDefault());
    contents.on('will-attach-webview', (event) => event.preventDefault());
  });
}

/** Checklist #5: every permission is denied but clipboard writes from our own page (permission-policy.ts). */
export function denyPermissions(session: Session): void {
  session.setPermissionRequestHandler((contents, permission, callback) => callback(isPermissionAllowed(permission, contents.getURL())));
  session.setPermissionCheckHandler((_contents, permission, requestingOrigin) => isPermissionAllowed(permission, requestingOrigin));
}
