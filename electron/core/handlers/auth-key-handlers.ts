import { AppErrorCode, err, ok } from '../../../shared/result';
import { createAuthKey, deleteAuthKey, listAuthKeys, listScopes, secretOfKey, signCdnUrlWithKey, updateAuthKey } from '../auth-keys/auth-key-api';
import type { Handlers } from '../ipc/handlers';
import { LOCAL_WORKSPACE_ID } from '../workspaces/workspace-store';
import type { HandlerContext } from './context';

type Channels = 'authKeys:list' | 'authKeys:scopes' | 'authKeys:create' | 'authKeys:update' | 'authKeys:delete' | 'authKeys:copySecret' | 'cdn:sign';

export function createAuthKeyHandlers(ctx: HandlerContext): Pick<Handlers, Channels> {
  return {
    'authKeys:list': async ({ workspaceId }) => {
      const c = ctx.clientFor(workspaceId);
      return c.ok ? listAuthKeys(c.value.api) : c;
    },
    'authKeys:scopes': async ({ workspaceId }) => {
      const c = ctx.clientFor(workspaceId);
      return c.ok ? listScopes(c.value.api) : c;
    },
    'authKeys:create': async ({ workspaceId, ...change }) => {
      const c = ctx.clientFor(workspaceId);
      return c.ok ? createAuthKey(c.value.api, change) : c;
    },
    'authKeys:update': async ({ workspaceId, id, ...change }) => {
      const c = ctx.clientFor(workspaceId);
      return c.ok ? updateAuthKey(c.value.api, id, change) : c;
    },
    'authKeys:delete': async ({ workspaceId, id }) => {
      const c = ctx.clientFor(workspaceId);
      return c.ok ? deleteAuthKey(c.value.api, id) : c;
    },
    'authKeys:copySecret': async ({ workspaceId, id }) => {
      const c = ctx.clientFor(workspaceId);
      if (!c.ok) return c;
      const secret = await secretOfKey(c.value.api, id);
      if (!secret.ok) return secret;
      try {
        return ok(await ctx.clipboard.copySecret(secret.value.secret));
      } catch (cause) {
        return err(AppErrorCode.internal, `Could not use the clipboard: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
    },
    'cdn:sign': async ({ workspaceId, expiresInSeconds, ...o }) => {
      const c = ctx.clientFor(workspaceId);
      if (!c.ok) return c;
      const expiresAtMs = Date.now() + expiresInSeconds * 1000;
      const signed = await signCdnUrlWithKey(c.value.api, { ...o, expiresAtMs, local: c.value.workspaceId === LOCAL_WORKSPACE_ID });
      return signed.ok ? ok({ url: signed.value.url, expiresAt: new Date(expiresAtMs).toISOString() }) : signed;
    },
  };
}
