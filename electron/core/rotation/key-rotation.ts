import { randomBytes } from 'node:crypto';
import type { Rotation, RotationStep } from '../../../shared/ipc/workspace-models';
import { AppErrorCode, err, ok, type AppError, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import { createAuthKey, deleteAuthKey, listAuthKeys, secretOfKey, updateAuthKey } from '../auth-keys/auth-key-api';
import type { CoreEvents } from '../events';
import type { Vault } from '../vault/vault';
import { createWorkspaceClient } from '../workspaces/workspace-client';
import { LOCAL_WORKSPACE_ID, type StoredWorkspace, type WorkspaceStore } from '../workspaces/workspace-store';
import type { RotationLog } from './rotation-log';

export const ROTATION_STEPS: readonly RotationStep[] = ['create-key', 'store-secret', 'verify', 'switch', 'deactivate-old', 'done'];

/** Vault accounts a rotation uses while it runs; both are removed when it ends either way. */
export const newSecretAccount = (workspaceId: string) => `${workspaceId}#rotation-new`;
export const oldSecretAccount = (workspaceId: string) => `${workspaceId}#rotation-old`;

export interface KeyRotationDeps {
  log: RotationLog;
  workspaces: WorkspaceStore;
  vault: Vault;
  events: CoreEvents;
  secretOf(workspaceId: string): Promise<string | null>;
  forgetClient(workspaceId: string): void;
  clock?: () => number;
  /** Test hook: stop (as if the app quit) right after a step completes. */
  stopAfter?: RotationStep;
}

export interface KeyRotation {
  start(workspaceId: string): Promise<Result<Rotation>>;
  resume(id: string): Promise<Result<Rotation>>;
  rollback(id: string): Promise<Result<Rotation>>;
  deleteOldKey(id: string): Promise<Result<Rotation>>;
  list(): Rotation[];
  /** At start-up: a rotation that was running when the app stopped is marked interrupted. */
  recover(): Promise<void>;
}

/**
 * The key-rotation assistant: new key with the same scopes → its secret into the vault → a real signed
 * request proves it → the workspace switches to it → the old key is deactivated. Each step is logged
 * before the next begins, so an interruption can resume or roll back from exactly where it stopped.
 */
export function createKeyRotation(deps: KeyRotationDeps): KeyRotation {
  const clock = deps.clock ?? Date.now;
  const iso = () => new Date(clock()).toISOString();

  const clientWith = (w: StoredWorkspace, authKey: string, secret: string): ApiClient =>
    createWorkspaceClient({ ...w, authKey, authMode: 'signature' }, { getSecret: async () => secret, clock }).api;

  async function save(r: Rotation, message?: string): Promise<Rotation> {
    const next: Rotation = { ...r, updatedAt: iso(), log: message ? [...r.log, { at: iso(), message }] : r.log };
    await deps.log.put(next);
    deps.events.emit('rotation:updated', next);
    return next;
  }

  const stop = async (r: Rotation, step: string, error: AppError): Promise<Result<Rotation>> => {
    const saved = await save({ ...r, state: 'interrupted', error: { code: error.code, message: error.message } }, `Stopped at "${step}": ${error.message}`);
    return ok(saved);
  };

  async function run(start: Rotation): Promise<Result<Rotation>> {
    let r = await save({ ...start, state: 'running', error: null });
    const w = deps.workspaces.get(r.workspaceId);
    if (!w) return stop(r, 'start', { code: AppErrorCode.notFound, message: 'The workspace was removed.' });
    const oldSecret = await deps.vault.get(oldSecretAccount(r.workspaceId));
    if (!oldSecret) return stop(r, 'start', { code: AppErrorCode.vaultUnavailable, message: 'The old Auth Secret is no longer in the vault.' });
    const oldApi = clientWith(w, r.oldKey, oldSecret);

    for (const step of ROTATION_STEPS) {
      if (r.completed.includes(step)) continue;
      const done = await perform(step, r, w, oldApi);
      if (!done.ok) return stop(r, step, done.error);
      r = await save({ ...done.value, completed: [...done.value.completed, step] }, STEP_DONE[step](done.value));
      if (deps.stopAfter === step && step !== 'done') return ok(await save({ ...r, state: 'interrupted', error: { code: 'ROTATION_INTERRUPTED', message: `Stopped after "${step}".` } }));
    }
    return ok(await save({ ...r, state: 'done' }));
  }

  async function perform(step: RotationStep, r: Rotation, w: StoredWorkspace, oldApi: ApiClient): Promise<Result<Rotation>> {
    const newSecret = async () => deps.vault.get(newSecretAccount(r.workspaceId));
    switch (step) {
      case 'create-key': {
        const keys = await listAuthKeys(oldApi);
        if (!keys.ok) return keys;
        const old = keys.value.find((k) => k.authKey === r.oldKey);
        if (!old) return err('AUTH_KEYS_NOT_FOUND', `The service does not list the key ${r.oldKey}.`);
        // A key this rotation made before an interruption (its description carries the rotation id) is reused.
        const earlier = keys.value.find((k) => k.description.includes(`[${r.id}]`));
        const created =
          earlier !== undefined
            ? ok(earlier)
            : await createAuthKey(oldApi, {
                description: `${(old.description || 'Rotated key').slice(0, 200)} [${r.id}]`,
                scopes: old.scopes,
                smartCdn: old.smartCdn,
                signatureAlgo: old.signatureAlgo,
              });
        if (!created.ok) return created;
        return ok({ ...r, oldKeyId: old.id, newKeyId: created.value.id, newKey: created.value.authKey });
      }
      case 'store-secret': {
        const secret = await secretOfKey(oldApi, r.newKeyId!);
        if (!secret.ok) return secret;
        const stored = await deps.vault.set(newSecretAccount(r.workspaceId), secret.value.secret);
        return stored.ok ? ok(r) : stored;
      }
      case 'verify': {
        const secret = await newSecret();
        if (!secret) return err(AppErrorCode.vaultUnavailable, 'The new secret is not in the vault.');
        const probe = await clientWith(w, r.newKey!, secret).request('GET', `/auth_keys/${encodeURIComponent(r.newKeyId!)}`);
        return probe.ok ? ok(r) : probe;
      }
      case 'switch': {
        const secret = await newSecret();
        if (!secret) return err(AppErrorCode.vaultUnavailable, 'The new secret is not in the vault.');
        const stored = await deps.vault.set(r.workspaceId, secret);
        if (!stored.ok) return stored;
        const current = deps.workspaces.get(r.workspaceId) ?? w;
        const saved = await deps.workspaces.upsert({ ...current, authKey: r.newKey! });
        if (!saved.ok) return saved;
        deps.forgetClient(r.workspaceId);
        return ok(r);
      }
      case 'deactivate-old': {
        const secret = await newSecret();
        if (!secret) return err(AppErrorCode.vaultUnavailable, 'The new secret is not in the vault.');
        const off = await updateAuthKey(clientWith(w, r.newKey!, secret), r.oldKeyId!, { isActive: false });
        return off.ok ? ok(r) : off;
      }
      case 'done':
        await deps.vault.delete(newSecretAccount(r.workspaceId));
        await deps.vault.delete(oldSecretAccount(r.workspaceId));
        return ok(r);
    }
  }

  const pending = (workspaceId: string) => deps.log.list().find((r) => r.workspaceId === workspaceId && (r.state === 'running' || r.state === 'interrupted' || r.state === 'failed-rollback'));

  return {
    list: () => deps.log.list(),
    async recover() {
      for (const r of deps.log.list().filter((x) => x.state === 'running')) {
        const last = r.completed[r.completed.length - 1];
        await save({ ...r, state: 'interrupted', error: { code: 'ROTATION_INTERRUPTED', message: `The app stopped ${last ? `after "${last}"` : 'before the first step'}.` } }, 'The app stopped during the rotation.');
      }
    },
    async start(workspaceId) {
      const w = deps.workspaces.get(workspaceId);
      if (!w) return err(AppErrorCode.notFound, `No workspace with id ${workspaceId}.`);
      if (w.id === LOCAL_WORKSPACE_ID) return err(AppErrorCode.invalidRequest, "The Local workspace's key belongs to the embedded service; rotate the keys of remote workspaces.");
      if (w.authMode === 'browser') return err(AppErrorCode.invalidRequest, 'This workspace signs in with the browser and holds no Auth Secret to rotate.');
      const open = pending(workspaceId);
      if (open) return err('ROTATION_IN_PROGRESS', `A rotation of "${w.name}" is not finished: resume it or roll it back first.`);
      if (!(await deps.vault.status()).secure) return err(AppErrorCode.vaultUnavailable, 'Rotation keeps both secrets in the system keychain, which is not available.');
      const oldSecret = await deps.secretOf(workspaceId);
      if (!oldSecret) return err(AppErrorCode.vaultUnavailable, `No Auth Secret is stored for "${w.name}".`);
      const kept = await deps.vault.set(oldSecretAccount(workspaceId), oldSecret);
      if (!kept.ok) return kept;
      const r: Rotation = {
        id: `rot-${randomBytes(5).toString('hex')}`,
        workspaceId,
        workspaceName: w.name,
        oldKey: w.authKey,
        oldKeyId: null,
        newKey: null,
        newKeyId: null,
        completed: [],
        state: 'running',
        error: null,
        oldKeyDeleted: false,
        startedAt: iso(),
        updatedAt: iso(),
        log: [{ at: iso(), message: `Rotation of ${w.authKey} started.` }],
      };
      return run(r);
    },
    async resume(id) {
      const r = deps.log.get(id);
      if (!r) return err(AppErrorCode.notFound, `No rotation ${id}.`);
      if (r.state !== 'interrupted') return err(AppErrorCode.invalidRequest, `The rotation is ${r.state}; only an interrupted one resumes.`);
      return run(await save(r, 'Resumed.'));
    },
    async rollback(id) {
      let r = deps.log.get(id);
      if (!r) return err(AppErrorCode.notFound, `No rotation ${id}.`);
      if (r.state === 'done' || r.state === 'rolled-back') return err(AppErrorCode.invalidRequest, `The rotation is ${r.state}: there is nothing to roll back.`);
      const w = deps.workspaces.get(r.workspaceId);
      const oldSecret = await deps.vault.get(oldSecretAccount(r.workspaceId));
      const newSecret = await deps.vault.get(newSecretAccount(r.workspaceId));
      const fail = async (what: string, e: AppError) => ok(await save({ ...r!, state: 'failed-rollback', error: { code: e.code, message: `${what}: ${e.message}` } }, `Rollback stopped: ${what}: ${e.message}`));
      if (!w || !oldSecret) return fail('Cannot roll back', { code: AppErrorCode.vaultUnavailable, message: 'the workspace or the old secret is gone' });
      r = await save(r, 'Rolling back.');
      const oldApi = clientWith(w, r.oldKey, oldSecret);
      if (r.completed.includes('deactivate-old') && r.oldKeyId && newSecret) {
        const on = await updateAuthKey(clientWith(w, r.newKey!, newSecret), r.oldKeyId, { isActive: true });
        if (!on.ok) return fail('Reactivating the old key failed', on.error);
        r = await save({ ...r, completed: r.completed.filter((s) => s !== 'deactivate-old') }, `Reactivated ${r.oldKey}.`);
      }
      if (r.completed.includes('switch')) {
        const stored = await deps.vault.set(r.workspaceId, oldSecret);
        if (!stored.ok) return fail('Restoring the old secret failed', stored.error);
        const current = deps.workspaces.get(r.workspaceId) ?? w;
        const saved = await deps.workspaces.upsert({ ...current, authKey: r.oldKey });
        if (!saved.ok) return fail('Switching back failed', saved.error);
        deps.forgetClient(r.workspaceId);
        r = await save({ ...r, completed: r.completed.filter((s) => s !== 'switch') }, `The workspace uses ${r.oldKey} again.`);
      }
      if (r.newKeyId) {
        const removed = await deleteAuthKey(oldApi, r.newKeyId);
        if (!removed.ok && removed.error.code !== 'AUTH_KEYS_NOT_FOUND' && removed.error.httpCode !== 404) return fail('Deleting the new key failed', removed.error);
        r = await save(r, `Deleted the new key ${r.newKey ?? ''}.`);
      }
      await deps.vault.delete(newSecretAccount(r.workspaceId));
      await deps.vault.delete(oldSecretAccount(r.workspaceId));
      return ok(await save({ ...r, completed: [], state: 'rolled-back', error: null }, 'Rolled back: nothing changed.'));
    },
    async deleteOldKey(id) {
      const r = deps.log.get(id);
      if (!r) return err(AppErrorCode.notFound, `No rotation ${id}.`);
      if (r.state !== 'done' || !r.oldKeyId) return err(AppErrorCode.invalidRequest, 'Only the old key of a finished rotation can be deleted.');
      if (r.oldKeyDeleted) return ok(r);
      const w = deps.workspaces.get(r.workspaceId);
      const secret = w ? await deps.secretOf(w.id) : null;
      if (!w || !secret || w.authKey !== r.newKey) return err(AppErrorCode.invalidRequest, 'The workspace no longer uses the rotated key; delete the old key on the Auth Keys screen.');
      const removed = await deleteAuthKey(clientWith(w, w.authKey, secret), r.oldKeyId);
      if (!removed.ok) return removed;
      return ok(await save({ ...r, oldKeyDeleted: true }, `Deleted the old key ${r.oldKey}.`));
    },
  };
}

const STEP_DONE: Record<RotationStep, (r: Rotation) => string> = {
  'create-key': (r) => `Created ${r.newKey ?? 'a new key'} with the same scopes.`,
  'store-secret': () => 'Stored its secret in the system keychain.',
  verify: () => 'A signed request with the new key succeeded.',
  switch: (r) => `The workspace now uses ${r.newKey ?? 'the new key'}.`,
  'deactivate-old': (r) => `Deactivated ${r.oldKey}.`,
  done: () => 'Rotation finished.',
};
