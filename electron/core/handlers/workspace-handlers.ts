import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { Workspace } from '../../../shared/ipc/models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { Handlers } from '../ipc/handlers';
import { testConnection } from '../workspaces/connection-test';
import { refreshTokenAccount } from '../workspaces/workspace-client';
import { LOCAL_WORKSPACE_ID, type StoredWorkspace } from '../workspaces/workspace-store';
import { listAuthKeys, secretOfKey } from '../auth-keys/auth-key-api';
import { mayReuseSecret, urlDestination } from '../security/secret-destination';
import { CA_FILE_INVALID, MAX_CA_PEM, parseCaPem } from '../net/transport';
import { withApi, type HandlerContext } from './context';

type Channels =
  | 'workspaces:list'
  | 'workspaces:save'
  | 'workspaces:remove'
  | 'workspaces:activate'
  | 'workspaces:test'
  | 'workspaces:readCaFile'
  | 'workspaces:keyChoices'
  | 'workspaces:switchKey'
  | 'workspaces:restoreLocalAccess';

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
    clientKey: w.clientKey ?? null,
    accessProblem: w.id === LOCAL_WORKSPACE_ID ? ctx.localAccess.problem() : null,
    ca: caInfo(w.caPem),
  };
}

const caInfo = (pem: string | null | undefined): Workspace['ca'] => {
  if (!pem) return null;
  const parsed = parseCaPem(pem);
  return parsed.ok ? parsed.value.info : { subject: 'a CA file that cannot be read', validTo: '' };
};

/** The CA text to store: the typed one (checked), the stored one when none was given, or none. */
function caToStore(input: string | null | undefined, existing: StoredWorkspace | null): Result<string | null> {
  if (input === undefined) return ok(existing?.caPem ?? null);
  if (input === null || input.trim() === '') return ok(null);
  const parsed = parseCaPem(input);
  return parsed.ok ? ok(input) : parsed;
}

/** A picked file's text, refused (CA_FILE_INVALID) when it is a folder, unreadable or over `max` bytes. */
async function readSmallText(file: string, max: number): Promise<Result<string>> {
  try {
    const fh = await open(file, 'r');
    try {
      const st = await fh.stat();
      if (!st.isFile()) return err(CA_FILE_INVALID, 'Choose the CA file itself (a .pem or .crt file), not a folder.');
      if (st.size > max) return err(CA_FILE_INVALID, 'The CA file is too large for a certificate (over 256 KiB).');
      return ok(await fh.readFile('utf8'));
    } finally {
      await fh.close();
    }
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    return err(CA_FILE_INVALID, code === 'EISDIR' ? 'Choose the CA file itself (a .pem or .crt file), not a folder.' : `The CA file could not be read (${code ?? 'error'}).`);
  }
}

const short = (k: string) => `${k.slice(0, 12)}…`;
const isOpenRotation = (state: string) => state === 'running' || state === 'interrupted' || state === 'failed-rollback';

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
        const ca = caToStore(input.caPem, existing);
        if (!ca.ok) return ca;
        const renamed = await ctx.workspaces.upsert({ ...existing, name: input.name, slug: input.slug, caPem: ca.value });
        return renamed.ok ? ok(await toWorkspace(ctx, renamed.value)) : renamed;
      }
      if (!input.authKey) return err(AppErrorCode.invalidRequest, 'The Auth Key is required.');
      const caPem = caToStore(input.caPem, existing);
      if (!caPem.ok) return caPem;
      const id = existing?.id ?? newId();
      const secret = input.authSecret?.trim() ?? '';
      const keyChanged = existing !== null && existing.authKey !== input.authKey;
      // The stored secret only ever goes where it was first given: another endpoint needs it typed again.
      const endpointChanged = existing !== null && !mayReuseSecret(urlDestination(existing.endpoint), urlDestination(input.endpoint));
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
        ...(caPem.value ? { caPem: caPem.value } : {}),
      });
      if (!saved.ok) return saved;
      ctx.forgetClient(id);
      return ok(await toWorkspace(ctx, saved.value));
    },

    'workspaces:remove': async ({ id }) => {
      const kid = ctx.workspaces.get(id)?.clientKey?.kid;
      const removed = await ctx.workspaces.remove(id);
      if (!removed.ok) return removed;
      await ctx.vault.delete(id);
      await ctx.vault.delete(refreshTokenAccount(id));
      // Its sign-in key, unless another workspace signs in with the same one.
      if (kid) await ctx.clientKeys.discard(kid);
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
        keyChosen: false,
      };
      // The form's CA file, else the saved one: the test trusts what the workspace would.
      const caPem = caToStore(draft?.caPem, saved);
      if (!caPem.ok) return caPem;
      if (caPem.value) workspace.caPem = caPem.value;
      // A typed secret wins; otherwise the stored one, read here in core — only where it was saved
      // (security/secret-destination.ts): a page must not send it, or the sign-in's refresh token, elsewhere.
      const typed = draft?.authSecret?.trim();
      const samePlace = saved !== null && mayReuseSecret(urlDestination(saved.endpoint), urlDestination(workspace.endpoint));
      const secret = typed || (samePlace && saved.authKey === workspace.authKey ? await ctx.secretOf(saved.id) : null);
      const own = samePlace && workspace.authMode === 'browser' ? ctx.clientFor(saved.id) : null;
      return ok(
        await testConnection({
          workspace,
          secret,
          ...(own?.ok ? { api: own.value.api } : {}),
          ...(samePlace
            ? {
                getRefreshToken: () => ctx.vault.get(refreshTokenAccount(saved.id)),
                setRefreshToken: async (t: string) => void (await ctx.vault.set(refreshTokenAccount(saved.id), t)),
              }
            : {}),
        }),
      );
    },

    'workspaces:readCaFile': async ({ handle }) => {
      const file = ctx.files.root(handle);
      if (!file.ok) return file;
      const pem = await readSmallText(file.value, MAX_CA_PEM);
      if (!pem.ok) return pem;
      const parsed = parseCaPem(pem.value);
      return parsed.ok ? ok({ pem: pem.value, ...parsed.value.info }) : parsed;
    },

    'workspaces:keyChoices': async ({ id }) => {
      if (id === LOCAL_WORKSPACE_ID) return ctx.localAccess.choices();
      const w = ctx.workspaces.get(id);
      if (!w) return err(AppErrorCode.notFound, `No workspace with id ${id}.`);
      return withApi(ctx, id, async (api) => {
        const keys = await listAuthKeys(api);
        return keys.ok
          ? ok(keys.value.map((k) => ({ id: k.id, authKey: k.authKey, description: k.description, isActive: k.isActive, scopes: k.scopes, fullScope: k.scopes === null })))
          : keys;
      });
    },

    'workspaces:switchKey': async (input) => {
      const w = ctx.workspaces.get(input.id);
      if (!w) return err(AppErrorCode.notFound, `No workspace with id ${input.id}.`);
      if (ctx.rotation.list().some((r) => r.workspaceId === w.id && isOpenRotation(r.state))) {
        return err('ROTATION_IN_PROGRESS', `A rotation of "${w.name}" is not finished: resume it or roll it back first.`);
      }
      if (w.id === LOCAL_WORKSPACE_ID) {
        // The app knows every key of its own service (through the service's process): choose, never type.
        if (!input.keyId) return err(AppErrorCode.invalidRequest, "Choose one of the local service's keys; the app knows their secrets.");
        const switched = await ctx.localAccess.switchTo(input.keyId);
        return switched.ok ? ok(await toWorkspace(ctx, ctx.workspaces.get(LOCAL_WORKSPACE_ID)!)) : switched;
      }
      if (w.authMode === 'browser') return err(AppErrorCode.invalidRequest, 'A browser sign-in holds no key of its own: sign in with the browser again to change it.');
      let next: { authKey: string; secret: string; algo: StoredWorkspace['signatureAlgo'] };
      if (input.keyId) {
        // A key of the same account whose secret the current key may read (auth_keys scopes).
        const client = ctx.clientFor(w.id);
        if (!client.ok) return client;
        const keys = await listAuthKeys(client.value.api);
        if (!keys.ok) return keys;
        const chosen = keys.value.find((k) => k.id === input.keyId);
        if (!chosen) return err('AUTH_KEYS_NOT_FOUND', `No Auth Key with id ${input.keyId}.`);
        if (!chosen.isActive) return err('AUTH_KEY_INACTIVE', `The key ${short(chosen.authKey)} is inactive: activate it first, or choose an active key.`);
        const secret = await secretOfKey(client.value.api, input.keyId);
        if (!secret.ok) return secret;
        next = { authKey: secret.value.authKey, secret: secret.value.secret, algo: chosen.signatureAlgo ?? 'sha384' };
      } else {
        next = { authKey: input.authKey!, secret: input.authSecret!, algo: w.signatureAlgo ?? 'sha384' };
      }
      // Proven before it is saved: a key that cannot sign in here never replaces one that could.
      const candidate: StoredWorkspace = { ...w, authKey: next.authKey, signatureAlgo: next.algo };
      const report = await testConnection({ workspace: candidate, secret: next.secret });
      if (!report.ok) {
        const failed = report.checks.find((c) => c.status === 'fail');
        return err(failed?.code ?? 'CONNECTION_TEST_FAILED', `Not switched: ${failed ? `${failed.label}: ${failed.message}` : 'the connection test failed.'}`);
      }
      const stored = await storeSecret(ctx, w.id, next.secret);
      if (!stored.ok) return stored;
      const saved = await ctx.workspaces.upsert(candidate);
      if (!saved.ok) return saved;
      ctx.forgetClient(w.id);
      return ok(await toWorkspace(ctx, saved.value));
    },

    'workspaces:restoreLocalAccess': () => ctx.localAccess.restore(),
  };
}
