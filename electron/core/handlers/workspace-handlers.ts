import { randomBytes } from 'node:crypto';
import type { Workspace } from '../../../shared/ipc/models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { Handlers } from '../ipc/handlers';
import { testConnection } from '../workspaces/connection-test';
import { refreshTokenAccount } from '../workspaces/workspace-client';
import { LOCAL_WORKSPACE_ID, type StoredWorkspace } from '../workspaces/workspace-store';
import type { HandlerContext } from './context';

type Channels = 'workspaces:list' | 'workspaces:save' | 'workspaces:remove' | 'workspaces:activate' | 'workspaces:test';

/** The record the renderer sees: never the secret, only whether one is stored. */
export async function toWorkspace(ctx: HandlerContext, w: StoredWorkspace): Promise<Workspace> {
  return {
    id: w.id,
    name: w.name,
    kind: w.kind,
    endpoint: w.endpoint,
    authKey: w.authKey,
    hasSecret: await ctx.canSign(w.id),
    slug: w.slug,
    authMode: w.authMode,
    signatureAlgo: w.signatureAlgo ?? 'sha384',
    tokenScopes: w.tokenScopes,
  };
}

const newId = (): string => `ws-${randomBytes(6).toString('hex')}`;

/** Secrets go to the vault only when it is secure: never to a plaintext file behind the user's back. */
async function storeSecret(ctx: HandlerContext, account: string, secret: string): Promise<Result<void>> {
  const status = await ctx.vault.status();
  if (!status.secure) {
    return err(AppErrorCode.vaultUnavailable, `The secret was not stored: ${status.detail} Assemblyline never writes secrets to disk in plain text.`);
  }
  return ctx.vault.set(account, secret);
}

export function createWorkspaceHandlers(ctx: HandlerContext): Pick<Handlers, Channels> {
  return {
    'workspaces:list': async () => ok(await Promise.all(ctx.workspaces.list().map((w) => toWorkspace(ctx, w)))),

    'workspaces:save': async (input) => {
      if (input.id === LOCAL_WORKSPACE_ID) {
        // The Local workspace's endpoint and key are the embedded service's; only how it authenticates is the user's.
        if (input.authMode === 'browser') return err(AppErrorCode.invalidRequest, 'The Local workspace signs its requests or uses tokens; browser sign-in is for remote deployments.');
        await ctx.workspaces.setLocalAuth(input.authMode, input.tokenScopes);
        ctx.forgetClient(LOCAL_WORKSPACE_ID);
        return ok(await toWorkspace(ctx, ctx.workspaces.get(LOCAL_WORKSPACE_ID)!));
      }
      const existing = input.id ? ctx.workspaces.get(input.id) : null;
      if (input.id && !existing) return err(AppErrorCode.notFound, `No workspace with id ${input.id}.`);
      if (input.authMode === 'browser' || existing?.authMode === 'browser') {
        // A browser sign-in is renamed here; its endpoint and key come from the sign-in itself.
        if (!existing || existing.authMode !== 'browser' || input.authMode !== 'browser') {
          return err(AppErrorCode.invalidRequest, 'Use "Sign in with browser" to set up browser sign-in; to use a key and secret instead, remove the workspace and add it again.');
        }
        if (input.endpoint.replace(/\/+$/, '') !== existing.endpoint) return err(AppErrorCode.invalidRequest, 'Sign in again to use another endpoint.');
        const renamed = await ctx.workspaces.upsert({ ...existing, name: input.name, slug: input.slug });
        return renamed.ok ? ok(await toWorkspace(ctx, renamed.value)) : renamed;
      }
      if (!input.authKey) return err(AppErrorCode.invalidRequest, 'The Auth Key is required.');
      const id = existing?.id ?? newId();
      const secret = input.authSecret?.trim() ?? '';
      const keyChanged = existing !== null && existing.authKey !== input.authKey;
      // The stored secret only ever goes where it was first given: another endpoint needs it typed again.
      const endpointChanged = existing !== null && existing.endpoint !== input.endpoint.replace(/\/+$/, '');
      if (!secret && (!existing || keyChanged || endpointChanged || !(await ctx.vault.get(id)))) {
        return err(
          AppErrorCode.invalidRequest,
          keyChanged ? 'A new Auth Key needs its Auth Secret.' : endpointChanged ? 'Type the Auth Secret again to use it with another endpoint.' : 'The Auth Secret is required.',
        );
      }
      if (secret) {
        const stored = await storeSecret(ctx, id, secret);
        if (!stored.ok) return stored;
      }
      const saved = await ctx.workspaces.upsert({
        id,
        name: input.name,
        kind: 'remote',
        endpoint: input.endpoint.replace(/\/+$/, ''),
        authKey: input.authKey,
        signatureAlgo: input.signatureAlgo,
        slug: input.slug,
        authMode: input.authMode,
        tokenScopes: input.tokenScopes,
      });
      if (!saved.ok) return saved;
      ctx.forgetClient(id);
      return ok(await toWorkspace(ctx, saved.value));
    },

    'workspaces:remove': async ({ id }) => {
      const removed = await ctx.workspaces.remove(id);
      if (!removed.ok) return removed;
      await ctx.vault.delete(id);
      await ctx.vault.delete(refreshTokenAccount(id));
      ctx.forgetClient(id);
      return ok({});
    },

    'workspaces:activate': async ({ id }) => {
      const done = await ctx.workspaces.setActive(id);
      return done.ok ? ok({}) : done;
    },

    'workspaces:test': async ({ id, draft }) => {
      const saved = id ? ctx.workspaces.get(id) : null;
      if (id && !saved) return err(AppErrorCode.notFound, `No workspace with id ${id}.`);
      if (!saved && !draft) return err(AppErrorCode.invalidRequest, 'Test a saved workspace (id) or the form (draft).');
      const workspace: StoredWorkspace = {
        id: saved?.id ?? 'draft',
        name: draft?.name ?? saved?.name ?? 'New workspace',
        kind: saved?.kind ?? 'remote',
        endpoint: (draft?.endpoint ?? saved!.endpoint).replace(/\/+$/, ''),
        authKey: draft?.authKey ?? saved!.authKey,
        signatureAlgo: draft?.signatureAlgo ?? saved?.signatureAlgo ?? 'sha384',
        slug: draft?.slug ?? saved?.slug ?? '',
        authMode: draft?.authMode ?? saved!.authMode,
        tokenScopes: draft?.tokenScopes !== undefined ? draft.tokenScopes : (saved?.tokenScopes ?? null),
      };
      // A typed secret wins; otherwise the stored one (same key only), read here in core.
      const typed = draft?.authSecret?.trim();
      // The stored one only for the same key at the same endpoint: a page must not send it elsewhere.
      const sameTarget = saved !== null && saved.authKey === workspace.authKey && saved.endpoint === workspace.endpoint;
      const secret = typed || (sameTarget ? await ctx.secretOf(saved.id) : null);
      const own = saved && workspace.authMode === 'browser' ? ctx.clientFor(saved.id) : null;
      return ok(
        await testConnection({
          workspace,
          secret,
          ...(own?.ok ? { api: own.value.api } : {}),
          ...(saved
            ? {
                getRefreshToken: () => ctx.vault.get(refreshTokenAccount(saved.id)),
                setRefreshToken: async (t: string) => void (await ctx.vault.set(refreshTokenAccount(saved.id), t)),
              }
            : {}),
        }),
      );
    },
  };
}
