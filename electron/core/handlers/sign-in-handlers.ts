import { randomBytes } from 'node:crypto';
import { AppErrorCode, err, ok } from '../../../shared/result';
import type { Handlers } from '../ipc/handlers';
import type { ClientKey } from '../../../shared/ipc/workspace-models';
import type { ClientAssertionSigner } from '../auth/client-credentials';
import { discoverSignIn, offersPrivateKeyJwt, signInWithBrowser } from '../sign-in/browser-sign-in';
import { clientKeyAccount, createClientKey, publicView, signClientAssertion } from '../sign-in/client-key';
import { CA_FILE_INVALID, parseCaPem, transportFor } from '../net/transport';
import { LOCAL_WORKSPACE_ID } from '../workspaces/workspace-store';
import { refreshTokenAccount } from '../workspaces/workspace-client';
import type { HandlerContext } from './context';
import { toWorkspace } from './workspace-handlers';

type Channels =
  | 'workspaces:signInAvailable'
  | 'workspaces:signIn'
  | 'workspaces:signInCancel'
  | 'workspaces:clientKeyCreate'
  | 'workspaces:clientKeyDiscard'
  | 'workspaces:clientKeyShow'
  | 'workspaces:clientKeyRegisterLocal';

const toClientKey = (v: Awaited<ReturnType<typeof publicView>>): ClientKey => ({
  clientId: v.clientId,
  kid: v.kid,
  publicJwk: JSON.stringify(v.publicJwk, null, 2),
  publicPem: v.publicPem.trim(),
});

/**
 * "Sign in with browser": OAuth with PKCE through the system browser and a loopback redirect. The refresh
 * token goes to the vault; no Auth Secret is typed or stored. One sign-in at a time.
 */
export function createSignInHandlers(ctx: HandlerContext): Pick<Handlers, Channels> {
  let running: AbortController | null = null;
  return {
    'workspaces:signInAvailable': async ({ endpoint, id, caPem }) => {
      // A company deployment's metadata is behind its own CA: discover it as the workspace would reach it.
      const ca = caPem !== undefined ? caPem : id ? ctx.workspaces.get(id)?.caPem : null;
      const meta = await discoverSignIn(endpoint.replace(/\/+$/, ''), transportFor(ca).fetch);
      return ok({ available: meta !== null, privateKeyJwt: offersPrivateKeyJwt(meta) });
    },

    'workspaces:clientKeyCreate': async () => {
      const status = await ctx.vault.status();
      if (!status.secure) return err(AppErrorCode.vaultUnavailable, `A sign-in key is kept in the system keychain, which is not available: ${status.detail}`);
      const made = await createClientKey();
      await ctx.clientKeys.remember(made.view.kid);
      const stored = await ctx.vault.set(clientKeyAccount(made.view.kid), made.privateJwk);
      return stored.ok ? ok(toClientKey(made.view)) : stored;
    },

    'workspaces:clientKeyDiscard': async ({ kid }) => {
      const discarded = await ctx.clientKeys.discard(kid);
      return discarded.ok ? ok({}) : discarded;
    },

    'workspaces:clientKeyShow': async ({ kid }) => {
      const privateJwk = await ctx.vault.get(clientKeyAccount(kid));
      if (!privateJwk) return err(AppErrorCode.notFound, 'No sign-in key with this id is in the system keychain: generate a new one.');
      return ok(toClientKey(await publicView(privateJwk)));
    },

    'workspaces:clientKeyRegisterLocal': async ({ kid }) => {
      const privateJwk = await ctx.vault.get(clientKeyAccount(kid));
      if (!privateJwk) return err(AppErrorCode.notFound, 'No sign-in key with this id is in the system keychain: generate a new one.');
      const view = await publicView(privateJwk);
      // The Local workspace holds the embedded service's admin key: registering is one signed request.
      const local = ctx.clientFor(LOCAL_WORKSPACE_ID);
      if (!local.ok) return local;
      const saved = await local.value.api.request('PUT', `/oauth_clients/${encodeURIComponent(view.clientId)}`, { jwks: { keys: [view.publicJwk] } });
      return saved.ok ? ok({ clientId: view.clientId }) : saved;
    },

    'workspaces:signInCancel': async () => {
      running?.abort();
      return ok({});
    },

    'workspaces:signIn': async ({ id, name, endpoint, slug, clientKeyId, caPem }) => {
      const status = await ctx.vault.status();
      if (!status.secure) return err(AppErrorCode.vaultUnavailable, `Signing in keeps a refresh token in the system keychain, which is not available: ${status.detail}`);
      const existing = id ? ctx.workspaces.get(id) : null;
      if (id && !existing) return err(AppErrorCode.notFound, `No workspace with id ${id}.`);
      // Signing in again renews a browser sign-in; it never replaces a workspace's key and secret.
      if (existing && (existing.authMode !== 'browser' || existing.endpoint !== endpoint.replace(/\/+$/, ''))) {
        return err(AppErrorCode.invalidRequest, 'Only a browser sign-in at the same endpoint can be renewed; add a new workspace to sign in elsewhere.');
      }
      const ca = caPem !== undefined ? caPem || null : (existing?.caPem ?? null);
      if (ca) {
        const parsed = parseCaPem(ca);
        if (!parsed.ok) return err(CA_FILE_INVALID, parsed.error.message);
      }
      let clientKey: (ClientAssertionSigner & { kid: string }) | undefined;
      if (clientKeyId) {
        const privateJwk = await ctx.vault.get(clientKeyAccount(clientKeyId));
        if (!privateJwk) return err(AppErrorCode.notFound, 'The sign-in key is not in the system keychain: generate a new one.');
        const view = await publicView(privateJwk);
        clientKey = { kid: view.kid, clientId: view.clientId, sign: (tokenEndpoint) => signClientAssertion({ privateJwk, tokenEndpoint }) };
      }
      running?.abort();
      const controller = new AbortController();
      running = controller;
      const base = endpoint.replace(/\/+$/, '');
      const signedIn = await signInWithBrowser({
        endpoint: base,
        openExternal: (url) => ctx.desktop.openExternal(url),
        signal: controller.signal,
        fetch: transportFor(ca).fetch,
        ...(clientKey ? { clientKey } : {}),
      });
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
        ...(ca ? { caPem: ca } : {}),
        ...(clientKey ? { clientKey: { clientId: clientKey.clientId, kid: clientKey.kid } } : {}),
      });
      if (!saved.ok) return saved;
      // Renewed with another key (or none): the key it signed in with before is no one's now.
      const previousKid = existing?.clientKey?.kid;
      if (previousKid && previousKid !== clientKey?.kid) await ctx.clientKeys.discard(previousKid);
      ctx.forgetClient(workspaceId);
      return ok(await toWorkspace(ctx, saved.value));
    },
  };
}
