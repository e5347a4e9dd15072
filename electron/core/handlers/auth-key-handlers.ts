import { AppErrorCode, err, ok } from '../../../shared/result';
import { createAuthKey, deleteAuthKey, listAuthKeys, listScopes, secretOfKey, signCdnUrlWithKey, updateAuthKey } from '../auth-keys/auth-key-api';
import { previewCdnUrl } from '../cdn/preview-cdn-url';
import type { Handlers } from '../ipc/handlers';
import { CLIPBOARD_UNAVAILABLE, ClipboardUnavailableError } from '../ports/desktop';
import { LOCAL_WORKSPACE_ID } from '../workspaces/workspace-store';
import { withApi, type HandlerContext } from './context';

type Channels =
  | 'authKeys:list'
  | 'authKeys:scopes'
  | 'authKeys:create'
  | 'authKeys:update'
  | 'authKeys:delete'
  | 'authKeys:copySecret'
  | 'authKeys:revealSecret'
  | 'cdn:sign'
  | 'cdn:preview';

export function createAuthKeyHandlers(ctx: HandlerContext): Pick<Handlers, Channels> {
  return {
    'authKeys:list': ({ workspaceId }) => withApi(ctx, workspaceId, (api) => listAuthKeys(api)),
    'authKeys:scopes': ({ workspaceId }) => withApi(ctx, workspaceId, (api) => listScopes(api)),
    'authKeys:create': ({ workspaceId, ...change }) => withApi(ctx, workspaceId, (api) => createAuthKey(api, change)),
    'authKeys:update': ({ workspaceId, id, ...change }) =>
      withApi(ctx, workspaceId, async (api, wsId) => {
        const updated = await updateAuthKey(api, id, change);
        // Local's own key deactivated (or back): the Workspaces screen says so beside "Restore full access".
        if (updated.ok && wsId === LOCAL_WORKSPACE_ID) ctx.localAccess.keyChanged(updated.value.authKey, updated.value.isActive);
        return updated;
      }),
    'authKeys:delete': ({ workspaceId, id }) => withApi(ctx, workspaceId, (api) => deleteAuthKey(api, id)),
    'authKeys:copySecret': ({ workspaceId, id }) =>
      withApi(ctx, workspaceId, async (api) => {
        const secret = await secretOfKey(api, id);
        if (!secret.ok) return secret;
        try {
          return ok(await ctx.clipboard.copySecret(secret.value.secret));
        } catch (cause) {
          // No clipboard at all (a browser host without xclip): a code the page answers with Reveal.
          if (cause instanceof ClipboardUnavailableError) return err(CLIPBOARD_UNAVAILABLE, `${cause.message} Use Reveal to see the secret instead.`);
          return err(AppErrorCode.internal, `Could not use the clipboard: ${cause instanceof Error ? cause.message : String(cause)}`);
        }
      }),
    // The one secret the page may see: on an explicit, confirmed Reveal; never logged here or by the hosts.
    'authKeys:revealSecret': ({ workspaceId, id }) =>
      withApi(ctx, workspaceId, async (api) => {
        const secret = await secretOfKey(api, id);
        return secret.ok ? ok({ authKey: secret.value.authKey, secret: secret.value.secret }) : secret;
      }),
    'cdn:sign': ({ workspaceId, expiresInSeconds, ...o }) =>
      withApi(ctx, workspaceId, async (api, id) => {
        const expiresAtMs = Date.now() + expiresInSeconds * 1000;
        const signed = await signCdnUrlWithKey(api, { ...o, expiresAtMs, local: id === LOCAL_WORKSPACE_ID });
        return signed.ok ? ok({ url: signed.value.url, expiresAt: new Date(expiresAtMs).toISOString() }) : signed;
      }),
    'cdn:preview': ({ workspaceId, url }) => withApi(ctx, workspaceId, (api) => previewCdnUrl(url, api.endpoint)),
  };
}
