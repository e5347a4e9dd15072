import { readFile } from 'node:fs/promises';
import type { Protocol } from 'electron';
import { APP_SCHEME } from '../ipc/sender-validation';
import { appContentSecurityPolicy } from '../security/csp';
import { appContentType, resolveAppRequest } from './app-path';

/** Must run before `app.whenReady()`: app:// behaves like https (secure context, fetch, CSP 'self'). */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ]);
}

/** Checklist #18: serve the renderer from app://, never file://, with the CSP as a header. */
export function handleAppProtocol(protocol: Pick<Protocol, 'handle'>, rendererDir: string): void {
  const csp = appContentSecurityPolicy();
  protocol.handle(APP_SCHEME, async (request) => {
    const filePath = resolveAppRequest(rendererDir, request.url);
    if (!filePath) return new Response('Not found', { status: 404 });
    try {
      const body = await readFile(filePath);
      return new Response(body, {
        headers: {
          'Content-Type': appContentType(filePath),
          'Content-Security-Policy': csp,
          'X-Content-Type-Options': 'nosniff',
        },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}
