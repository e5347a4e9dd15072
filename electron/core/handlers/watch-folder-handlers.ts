import path from 'node:path';
import type { AfterSuccess, AfterSuccessInput, FolderRef, WatchField } from '../../../shared/ipc/watch-folder-models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { Handlers } from '../ipc/handlers';
import { WATCH_FOLDER_INVALID } from '../watch-folders/watch-folders';
import { isInside } from '../watch-folders/watch-paths';
import type { HandlerContext } from './context';

type WatchChannels = 'watch-folders:list' | 'watch-folders:add' | 'watch-folders:update' | 'watch-folders:pause' | 'watch-folders:resume' | 'watch-folders:remove' | 'watch-folders:items';

/**
 * A folder the page named: a handle from the host's folder picker (Electron: the real folder), or, in the
 * browser host only, a typed absolute path — its picker stages copies, which would be no folder to watch.
 */
export function resolveFolderRef(ctx: Pick<HandlerContext, 'files' | 'host' | 'dataDir'>, ref: FolderRef, what: string): Result<string> {
  const resolved = 'handle' in ref ? ctx.files.root(ref.handle) : typedPath(ctx, ref.path, what);
  if (!resolved.ok) return resolved;
  // The app's own data (secrets vault, databases, staging) is never watched, written or moved into.
  if (isInside(ctx.dataDir, resolved.value) || isInside(resolved.value, ctx.dataDir)) return err(WATCH_FOLDER_INVALID, `The ${what} cannot hold or lie inside the app's data folder.`);
  return resolved;
}

/**
 * A path the page typed (browser host only). Not a picked folder, so it gets guardrails: absolute, and no
 * hidden folder on the way (`~/.ssh`, `~/.config/…`): a script in the page cannot point a watch at them.
 */
function typedPath(ctx: Pick<HandlerContext, 'host'>, typed: string, what: string): Result<string> {
  if (ctx.host !== 'browser') return err(AppErrorCode.invalidRequest, `Pick the ${what} with the folder dialog.`);
  if (!path.isAbsolute(typed)) return err(WATCH_FOLDER_INVALID, `The ${what} must be an absolute path (${typed}).`);
  const resolved = path.resolve(typed);
  if (resolved.split(path.sep).some((part) => part.startsWith('.'))) return err(WATCH_FOLDER_INVALID, `The ${what} cannot be or lie inside a hidden folder (${resolved}).`);
  return ok(resolved);
}

/** A refusal tagged with the dialog field it is about (`details.field`). */
function withField<T>(field: WatchField, result: Result<T>): Result<T> {
  return result.ok ? result : { ok: false, error: { ...result.error, details: { ...result.error.details, field } } };
}

function resolveAfterSuccess(ctx: Pick<HandlerContext, 'files' | 'host' | 'dataDir'>, input: AfterSuccessInput): Result<AfterSuccess> {
  if (input.kind !== 'move') return ok(input);
  const moveTo = withField('afterSuccess', resolveFolderRef(ctx, input.folder, 'folder to move originals to'));
  return moveTo.ok ? ok({ kind: 'move', folder: moveTo.value }) : moveTo;
}

export function createWatchFolderHandlers(ctx: HandlerContext): Pick<Handlers, WatchChannels> {
  return {
    'watch-folders:list': async () => ok(ctx.watchFolders.list()),
    'watch-folders:add': async (input) => {
      const folder = withField('folder', resolveFolderRef(ctx, input.folder, 'folder to watch'));
      if (!folder.ok) return folder;
      const output = withField('output', resolveFolderRef(ctx, input.output, 'output folder'));
      if (!output.ok) return output;
      const afterSuccess = resolveAfterSuccess(ctx, input.afterSuccess);
      if (!afterSuccess.ok) return afterSuccess;
      return ctx.watchFolders.add({
        folder: folder.value,
        output: output.value,
        recipe: input.recipe,
        reprocessStale: input.reprocessStale,
        afterSuccess: afterSuccess.value,
        conflict: input.conflict,
        settleMs: input.settleMs,
        workspaceId: input.workspaceId ?? ctx.workspaces.activeId(),
      });
    },
    // The same folder checks as on add; the watched folder itself is not editable (another folder is another watch).
    'watch-folders:update': async ({ id, output, afterSuccess, ...change }) => {
      let resolvedOutput: string | undefined;
      if (output) {
        const resolved = withField('output', resolveFolderRef(ctx, output, 'output folder'));
        if (!resolved.ok) return resolved;
        resolvedOutput = resolved.value;
      }
      let resolvedAfter: AfterSuccess | undefined;
      if (afterSuccess) {
        const resolved = resolveAfterSuccess(ctx, afterSuccess);
        if (!resolved.ok) return resolved;
        resolvedAfter = resolved.value;
      }
      return ctx.watchFolders.update(id, {
        ...(change.recipe ? { recipe: change.recipe } : {}),
        ...(resolvedOutput !== undefined ? { output: resolvedOutput } : {}),
        ...(change.reprocessStale !== undefined ? { reprocessStale: change.reprocessStale } : {}),
        ...(resolvedAfter ? { afterSuccess: resolvedAfter } : {}),
        ...(change.conflict !== undefined ? { conflict: change.conflict } : {}),
        ...(change.settleMs !== undefined ? { settleMs: change.settleMs } : {}),
      });
    },
    'watch-folders:pause': async ({ id }) => ctx.watchFolders.pause(id),
    'watch-folders:resume': async ({ id }) => ctx.watchFolders.resume(id),
    'watch-folders:remove': async ({ id }) => ctx.watchFolders.remove(id),
    'watch-folders:items': async ({ id, offset, limit }) => ctx.watchFolders.items(id, offset, limit),
  };
}
