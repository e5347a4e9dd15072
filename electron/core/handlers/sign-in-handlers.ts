import { randomBytes } from 'node:crypto';
import { AppErrorCode, err, ok } from '../../../shared/result';
import type { Handlers } from '../ipc/handlers';
import { discoverSignIn, signInWithBrowser } from '../sign-in/browser-sign-in';
import { refreshTokenAccount } from '../workspaces/workspace-client';
import type { HandlerContext } from './context';
import { toWorkspace } from './workspace-handlers';

type Channels = 'workspaces:signInAvailable' | 'workspaces:signIn' | 'workspaces:signInCancel';

/**
 * "Sign in with browser": OAuth with PKCE through the system browser and a loopback redirect. The refresh
 * token goes to the vault; no Auth Secret is typed or stored. One sign-in at a time.
 */
export function createSignInHandlers(ctx: HandlerContext): Pick<Handlers, Channels> {
  let running: AbortController | null = null;
  return {
    'workspaces:signInAvailable': async ({ endpoint }) => ok({ available: (await discoverSignIn(endpoint.replace(/\/+$/, ''))) !== null }),

    'workspaces:signInCancel': async () => {
      running?.abort();
      return ok({});
    },

    'workspaces:signIn': async ({ id, name, endpoint, slug }) => {
      const status = await ctx.vault.status();
      if (!status.secure) return err(AppErrorCode.vaultUnavailable, `Signing in keeps a refresh token in the system keychain, which is not available: ${status.detail}`);
      const existing = id ? ctx.workspaces.get(id) : null;
      if (id && !existing) return err(AppErrorCode.notFound, `No workspace with id ${id}.`);
      // Signing in again renews a browser sign-in; it never replaces a workspace's key and secret.
      if (existing && (existing.authMode !== 'browser' || existing.endpoint !== endpoint.replace(/\/+$/, ''))) {
        return err(AppErrorCode.invalidRequest, 'Only a browser sign-in at the same endpoint can be renewed; add a new workspace to sign in elsewhere.');
      }
      running?.abort();
      const controller = new AbortController();
      running = controller;
      const base = endpoint.replace(/\/+$/, '');
      const signedIn = await signInWithBrowser({ endpoint: base, openExternal: (url) => ctx.desktop.openExternal(url), signal: controller.signal });
      if (running === controller) running = null;
      if (!signedIn.ok) return signedIn;
      const workspaceId = existing?.id ?? `ws-${randomBytes(6).toString('hex')}`;
      const stored = await ctx.vault.set(refreshTokenAccount(workspaceId), signedIn.value.refreshToken);
      if (!stored.ok) return stored;
      const saved = await ctx.workspaces.upsert({
        id: workspaceId,
        name,
        kind: 'remote',
        endpoint: base,
        authKey: signedIn.value.authKey ?? '',
        slug,
        authMode: 'browser',
        tokenScopes: null,
      });
      if (!saved.ok) return saved;
      ctx.forgetClient(workspaceId);
      return ok(await toWorkspace(ctx, saved.value));
    },
  };
}
