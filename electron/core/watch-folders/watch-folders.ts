import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { watch as chokidarWatch, type FSWatcher } from 'chokidar';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { PRESETS } from '../../../shared/api/presets';
import type { Instructions } from '../../../shared/api/instructions';
import type { DesktopNotice } from '../../../shared/ipc/desktop-models';
import type { WatchField, WatchFolder, WatchItem, WatchItemsPage, WatchRecipe } from '../../../shared/ipc/watch-folder-models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import { mimeFromName } from '../files/mime-types';
import type { RunManager } from '../runs/run-manager';
import { feedOf } from '../transfers/draft-feed';
import type { TransferEngine } from '../transfers/transfer-engine';
import { countsOf, newMachine, nextDue, pendingAfterRestore, step, type ItemRec, type MachineState, type WatchCommand, type WatchEvent } from './watch-machine';
import { excludedFolders, isIgnoredRelativePath, isInside, retiredAfterEdit } from './watch-paths';
import { writeResultsForWatch } from './watch-results';
import { openWatchStore, type WatchDef, type WatchStore } from './watch-store';

/** When a folder that appeared in a watch is read again (its files written before chokidar watched it). */
const RESCAN_NEW_FOLDER_MS = [300, 2_000];

/** A folder the watch needs is missing, unreadable, or inside the output folder. */
export const WATCH_FOLDER_INVALID = 'WATCH_FOLDER_INVALID';

export interface WatchFoldersDeps {
  dataDir: string;
  transfers: Pick<TransferEngine, 'start' | 'settled' | 'batchesOf' | 'rows'>;
  runs: Pick<RunManager, 'settled'>;
  /** `watch-folders:changed` for the screen. */
  announce(id: string, removed?: boolean): void;
  /** A watch item finished or failed: the page and the OS are told. */
  notify(notice: DesktopNotice): void;
  now?: () => number;
  fetch?: typeof fetch;
  /** The fetch of a watch's workspace (its deployment's CA file), for its result files; wins over `fetch`. */
  fetchFor?: (workspaceId: string | undefined) => typeof fetch | undefined;
  /** A watch's workspace reading an Assembly's status again: fresh URLs for results whose URL expired. */
  readStatusFor?: (workspaceId: string | undefined) => ((status: AssemblyStatus) => Promise<Result<AssemblyStatus>>) | undefined;
}

export interface AddWatchInput {
  folder: string;
  output: string;
  recipe: WatchRecipe;
  reprocessStale: boolean;
  afterSuccess: WatchDef['afterSuccess'];
  conflict: WatchDef['conflict'];
  settleMs: number;
  workspaceId?: string;
}

/** An edit: anything but the watched folder (paths resolved by the handler, as on add); omitted = unchanged. */
export type WatchChange = Partial<Pick<AddWatchInput, 'output' | 'recipe' | 'reprocessStale' | 'afterSuccess' | 'conflict' | 'settleMs'>>;

export interface WatchFolders {
  list(): WatchFolder[];
  add(input: AddWatchInput): Promise<Result<WatchFolder>>;
  /** Edit a watch, its ledger kept: the change applies to files sent from now on (docs/desktop.md). */
  update(id: string, change: WatchChange): Promise<Result<WatchFolder>>;
  pause(id: string): Promise<Result<WatchFolder>>;
  resume(id: string): Promise<Result<WatchFolder>>;
  remove(id: string): Promise<Result<Record<string, never>>>;
  items(id: string, offset: number, limit: number): Result<WatchItemsPage>;
  /** The transfer carries a watch's file (its notices are the watch's). */
  ownsTransfer(transferId: string): boolean;
  /** Start every stored watch that is not paused: each catches up on what changed while the app was closed. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

/** The Template or preset of a watch as the instructions of each file's Assembly. */
export function instructionsOf(recipe: WatchRecipe): Result<Instructions> {
  if (recipe.kind === 'template') return ok({ template_id: recipe.templateId, ...(Object.keys(recipe.fields).length > 0 ? { fields: recipe.fields } : {}) });
  const preset = PRESETS.find((p) => p.id === recipe.presetId);
  return preset ? ok({ steps: preset.steps }) : err(AppErrorCode.invalidRequest, `No preset ${recipe.presetId}.`);
}

interface Runtime {
  def: WatchDef;
  machine: MachineState;
  watcher: FSWatcher | null;
  ready: boolean;
  error: string | null;
  timer: ReturnType<typeof setTimeout> | null;
  /** Bumped on every (re)start, so events of a closed watcher are dropped. */
  generation: number;
  /**
   * Where each file on the wire goes and what happens to its original, as when it was sent: an edit
   * meanwhile applies to the next files. (After a restart a resumed file follows the current settings.)
   */
  sentWith: Map<string, Pick<WatchDef, 'output' | 'afterSuccess' | 'conflict'>>;
}

/** A refusal about one field of the watch dialog (`details.field`), so the dialog shows it there. */
const fieldErr = (field: WatchField, code: string, message: string) => err(code, message, { details: { field } });

/** The checks add and edit share: the output folder (not holding the watched one, creatable) and the recipe. */
async function checkSettings(folder: string, output: string, recipe: WatchRecipe): Promise<Result<void>> {
  if (isInside(output, folder)) return fieldErr('output', WATCH_FOLDER_INVALID, 'The watched folder cannot lie inside the output folder (results would be processed again).');
  const instructions = instructionsOf(recipe);
  if (!instructions.ok) return fieldErr('recipe', instructions.error.code, instructions.error.message);
  try {
    await mkdir(output, { recursive: true });
  } catch (cause) {
    return fieldErr('output', WATCH_FOLDER_INVALID, `The output folder cannot be created: ${(cause as Error).message}`);
  }
  return ok(undefined);
}

/** "a.jpg → /out", saying when the conflict policy kept results beside earlier ones or left earlier ones as they were. */
function doneNotice(rel: string, output: string, item: ItemRec | undefined): string {
  const skipped = item?.skippedResults?.length ?? 0;
  if (skipped > 0 && (item?.results.length ?? 0) === 0) return `${rel}: its results were already in ${output}, left as they were`;
  const kept = item?.keptBeside?.length ?? 0;
  return `${rel} → ${output}${kept > 0 ? ' (kept beside earlier results)' : skipped > 0 ? ' (some results were already there, left as they were)' : ''}`;
}

const toIso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

/**
 * Every watch folder: the stored definitions and ledgers (watch-store.ts), one chokidar watcher and one pure
 * state machine (watch-machine.ts) per watch, and the effects of its commands — stat + sha256, a transfer
 * per file through the queue (so it shows in Transfers and obeys its concurrency), the results written to
 * the output folder, the original kept, deleted or moved, a notice.
 */
export function createWatchFolders(deps: WatchFoldersDeps): WatchFolders {
  const now = deps.now ?? Date.now;
  const store: WatchStore = openWatchStore(deps.dataDir);
  const runtimes = new Map<string, Runtime>();
  /** Transfers that carry a watch's file (their desktop notices are the watch's). */
  const owned = new Set<string>();
  let closed = false;
  const announceTimers = new Map<string, ReturnType<typeof setTimeout>>();

  // At most one `watch-folders:changed` per watch every 200 ms: a copied folder of thousands is one refresh.
  const announce = (id: string) => {
    if (announceTimers.has(id) || closed) return;
    announceTimers.set(
      id,
      setTimeout(() => {
        announceTimers.delete(id);
        deps.announce(id);
      }, 200),
    );
  };

  const view = (rt: Runtime): WatchFolder => {
    const failures = [...rt.machine.items.values()]
      .filter((i) => i.state === 'failed' && i.error)
      .sort((a, b) => b.updatedAt - a.updatedAt)
      .slice(0, 5)
      .map((i) => ({ relativePath: i.relativePath, error: i.error as string, at: new Date(i.updatedAt).toISOString() }));
    return {
      id: rt.def.id,
      folder: rt.def.folder,
      output: rt.def.output,
      recipe: rt.def.recipe,
      reprocessStale: rt.def.reprocessStale,
      afterSuccess: rt.def.afterSuccess,
      conflict: rt.def.conflict,
      settleMs: rt.def.settleMs,
      paused: rt.def.paused,
      state: rt.def.paused ? 'paused' : rt.error ? 'error' : rt.ready ? 'watching' : 'catching-up',
      error: rt.error,
      lastActivityAt: toIso(rt.def.lastActivityAt),
      counts: countsOf(rt.machine),
      latestErrors: failures,
    };
  };

  const itemView = (i: ItemRec): WatchItem => ({
    relativePath: i.relativePath,
    state: i.state,
    size: i.size,
    mtimeMs: i.mtimeMs,
    sha256: i.sha256,
    assemblyId: i.assemblyId,
    transferId: i.transferId,
    error: i.error,
    results: i.results,
    keptBeside: i.keptBeside ?? [],
    skippedResults: i.skippedResults ?? [],
    updatedAt: new Date(i.updatedAt).toISOString(),
  });

  /** Feed one event to a watch's machine; persist what changed, run the commands, re-arm the settle timer. */
  const apply = (rt: Runtime, event: WatchEvent) => {
    if (closed || !runtimes.has(rt.def.id)) return;
    const result = step(rt.machine, event);
    if (result.changed.length > 0) {
      const present: ItemRec[] = [];
      const gone: string[] = [];
      for (const p of new Set(result.changed)) {
        const item = rt.machine.items.get(p);
        if (item) present.push(item);
        else gone.push(p);
      }
      store.putItems(rt.def.id, present);
      if (gone.length > 0) store.removeItems(rt.def.id, gone);
      rt.def.lastActivityAt = now();
      store.putWatch(rt.def);
      announce(rt.def.id);
    }
    for (const command of result.commands) void run(rt, command);
    arm(rt);
  };

  const arm = (rt: Runtime) => {
    if (rt.timer) clearTimeout(rt.timer);
    rt.timer = null;
    if (closed || rt.def.paused) return;
    const due = nextDue(rt.machine);
    if (due === null) return;
    rt.timer = setTimeout(() => apply(rt, { type: 'tick', now: now() }), Math.max(10, due - now()));
  };

  const abs = (rt: Runtime, rel: string) => path.join(rt.def.folder, ...rel.split('/'));

  const run = async (rt: Runtime, command: WatchCommand): Promise<void> => {
    // Read before any await: a finished file's settings are dropped once its outcome is applied.
    const sent = sentSettings(rt, command.relativePath);
    try {
      switch (command.kind) {
        case 'check':
          return await check(rt, command.relativePath);
        case 'process':
          return await processFile(rt, command.relativePath);
        case 'after-success':
          return await afterSuccess(rt, command.relativePath, sent.afterSuccess);
        case 'notify':
          return deps.notify({
            tag: `watch:${rt.def.id}:${command.relativePath}`,
            title: command.outcome === 'done' ? 'Watch folder: processed' : 'Watch folder: failed',
            body: command.outcome === 'done' ? doneNotice(command.relativePath, sent.output, rt.machine.items.get(command.relativePath)) : `${command.relativePath}: ${command.error ?? 'failed'}`,
            tone: command.outcome === 'done' ? 'success' : 'danger',
            route: '#/watch-folders',
          });
      }
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      // The results are on disk; only the original could not be deleted or moved: say so, keep it done.
      if (command.kind === 'after-success') {
        const what = sent.afterSuccess.kind === 'delete' ? 'delete' : 'move';
        return deps.notify({ tag: `watch:${rt.def.id}:${command.relativePath}:after`, title: `Watch folder: could not ${what} the original`, body: `${command.relativePath}: ${message}`, tone: 'warning', route: '#/watch-folders' });
      }
      apply(rt, { type: 'failed', relativePath: command.relativePath, error: message, assemblyId: null, now: now() });
    }
  };

  const check = async (rt: Runtime, rel: string) => {
    const file = abs(rt, rel);
    try {
      const info = await stat(file);
      const sha256 = await hashFile(file);
      apply(rt, { type: 'checked', relativePath: rel, size: info.size, mtimeMs: info.mtimeMs, sha256, now: now() });
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return apply(rt, { type: 'gone', relativePath: rel, now: now() });
      apply(rt, { type: 'check-failed', relativePath: rel, error: `Could not read the file: ${(cause as Error).message}`, now: now() });
    }
  };

  const processFile = async (rt: Runtime, rel: string) => {
    // The settings of this moment go with the file, whatever an edit changes while it is on the wire.
    const sent = { output: rt.def.output, afterSuccess: rt.def.afterSuccess, conflict: rt.def.conflict };
    const instructions = instructionsOf(rt.def.recipe);
    if (!instructions.ok) return apply(rt, { type: 'failed', relativePath: rel, error: instructions.error.message, assemblyId: null, now: now() });
    const item = rt.machine.items.get(rel);
    if (!item) return;
    const file = abs(rt, rel);
    const name = path.basename(file);
    const started = await deps.transfers.start({
      ...(rt.def.workspaceId ? { workspaceId: rt.def.workspaceId } : {}),
      instructions: instructions.value,
      // One file, one Assembly: its results are its own, and a failure touches no other file.
      feed: feedOf(`Watch ${path.basename(rt.def.folder)}: ${rel}`, [{ path: file, relativePath: rel, name, size: item.size, mime: mimeFromName(name), mtimeMs: item.mtimeMs }]),
      batching: { batchMode: 'per-drop' },
    });
    if (!started.ok) return apply(rt, { type: 'failed', relativePath: rel, error: `${started.error.code}: ${started.error.message}`, assemblyId: null, now: now() });
    owned.add(started.value.id);
    rt.sentWith.set(rel, sent);
    apply(rt, { type: 'started', relativePath: rel, transferId: started.value.id, now: now() });
    await follow(rt, rel, started.value.id);
  };

  /** Waits for the file's transfer and Assembly, then writes its results (where they were meant to go when it was sent). */
  const follow = async (rt: Runtime, rel: string, transferId: string) => {
    try {
      await followTransfer(rt, rel, transferId);
    } finally {
      // The after-success command and the notice read it (in `run`, before any await) when the outcome is applied.
      rt.sentWith.delete(rel);
    }
  };

  const sentSettings = (rt: Runtime, rel: string) => rt.sentWith.get(rel) ?? rt.def;

  const followTransfer = async (rt: Runtime, rel: string, transferId: string) => {
    const generation = rt.generation;
    const failed = (error: string, assemblyId: string | null = null) => apply(rt, { type: 'failed', relativePath: rel, error, assemblyId, now: now() });
    let transfer;
    try {
      transfer = await deps.transfers.settled(transferId);
    } catch {
      return failed('Its transfer is no longer in the queue; it is sent again at the next start.');
    }
    if (closed) return;
    // The file's own row says where it ended: a file its Assembly did not hold intact went again in a new
    // batch (the engine's invariant), so the first batch may have completed without it.
    const row = deps.transfers.rows({ transferId, offset: 0, limit: 1 }).rows[0];
    const batches = deps.transfers.batchesOf(transferId);
    const batch = batches.find((b) => b.id === row?.batchId) ?? batches[0];
    if (transfer.state === 'canceled' || !batch || batch.state === 'canceled' || row?.state === 'canceled') return failed('Canceled in Transfers.', batch?.assemblyId ?? null);
    if (batch.state !== 'completed' || !batch.runId) return failed(batch.error ? `${batch.error.code}: ${batch.error.message}` : `The upload ended ${batch.state}.`, batch.assemblyId);
    // Done only for a file verified in its completed Assembly (or delivered whole where the service records no checksums).
    if (!row || (row.state !== 'verified' && row.state !== 'unverified')) return failed(row?.error ?? `Not in its Assembly's uploads (${row?.state ?? 'no row'}).`, batch.assemblyId);
    const settled = await deps.runs.settled(batch.runId);
    if (closed) return;
    if (!settled.ok) return failed(`${settled.error.code}: ${settled.error.message}`, batch.assemblyId);
    const status = settled.value.status;
    if (settled.value.error || status?.ok !== 'ASSEMBLY_COMPLETED') {
      const error = settled.value.error ?? { code: status?.error ?? settled.value.state, message: status?.message ?? 'The Assembly did not complete.' };
      return failed(`${error.code}: ${error.message}`, batch.assemblyId);
    }
    const sent = sentSettings(rt, rel);
    const fetch = deps.fetchFor?.(rt.def.workspaceId) ?? deps.fetch;
    const readStatus = deps.readStatusFor?.(rt.def.workspaceId);
    const results = await writeResultsForWatch({ status, relativePath: rel, output: sent.output, conflict: sent.conflict, ...(fetch ? { fetch } : {}), ...(readStatus ? { readStatus } : {}) });
    // A watch removed or restarted meanwhile: its ledger is gone or reloaded.
    if (generation !== rt.generation && !runtimes.has(rt.def.id)) return;
    apply(rt, { type: 'finished', relativePath: rel, assemblyId: batch.assemblyId, results: results.written, keptBeside: results.keptBeside, skippedResults: results.skipped, now: now() });
  };

  const afterSuccess = async (rt: Runtime, rel: string, how: WatchDef['afterSuccess']) => {
    if (how.kind === 'keep') return;
    const file = abs(rt, rel);
    if (how.kind === 'delete') return void (await rm(file, { force: true }));
    const target = path.join(how.folder, ...rel.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    try {
      await rename(file, target);
    } catch (cause) {
      // Another drive: copy, then remove.
      if ((cause as NodeJS.ErrnoException).code !== 'EXDEV') throw cause;
      await copyFile(file, target);
      await rm(file, { force: true });
    }
  };

  const startWatcher = async (rt: Runtime) => {
    rt.generation += 1;
    const generation = rt.generation;
    rt.ready = false;
    rt.error = null;
    try {
      const info = await stat(rt.def.folder);
      if (!info.isDirectory()) throw new Error('it is not a folder');
    } catch (cause) {
      rt.error = `The watched folder cannot be read: ${(cause as Error).message}`;
      announce(rt.def.id);
      return;
    }
    const root = rt.def.folder;
    const relOf = (p: string) => path.relative(root, p).split(path.sep).join('/');
    // Read from the current definition on every path, so an edit of the output or move-to folder needs no rescan.
    const excluded = (p: string) => excludedFolders(rt.def).some((f) => isInside(f, p));
    const watcher = chokidarWatch(root, {
      ignoreInitial: false,
      // We settle ourselves (size and mtime unchanged for settleMs), so a slow copy in parts is handled.
      awaitWriteFinish: false,
      alwaysStat: true,
      followSymlinks: false,
      ignored: (p: string) => {
        if (p === root) return false;
        return excluded(p) || isIgnoredRelativePath(relOf(p));
      },
    });
    rt.watcher = watcher;
    const live = () => generation === rt.generation && !closed;
    const seen = (p: string, stats?: { size: number; mtimeMs: number; isFile(): boolean }) => {
      // A folder the watch already had open when an edit made it the output: its results are not inputs.
      if (!live() || excluded(p)) return;
      if (stats && !stats.isFile()) return;
      const rel = relOf(p);
      if (stats) apply(rt, { type: 'seen', relativePath: rel, size: stats.size, mtimeMs: stats.mtimeMs, now: now() });
      else
        void stat(p).then(
          (s) => s.isFile() && live() && apply(rt, { type: 'seen', relativePath: rel, size: s.size, mtimeMs: s.mtimeMs, now: now() }),
          () => undefined,
        );
    };
    watcher.on('add', seen);
    watcher.on('change', seen);
    // chokidar reads a new folder, then watches it: a file written in between (a folder copied or moved in,
    // written at once) gets no 'add' (chokidar issue 1471). The new folder is read again once it is watched,
    // for files the watch has not met.
    const rescan = (dir: string) => {
      if (!live() || excluded(dir)) return;
      void readdir(dir, { recursive: true, withFileTypes: true }).then(
        (entries) => {
          for (const e of entries) {
            const p = path.join(e.parentPath, e.name);
            // Only files the watch has not met: a 'seen' again would count a done file as skipped, retry a failed one.
            if (e.isFile() && !rt.machine.items.has(relOf(p)) && !excluded(p) && !isIgnoredRelativePath(relOf(p))) seen(p);
          }
        },
        () => undefined,
      );
    };
    watcher.on('addDir', (dir: string) => {
      if (!rt.ready || dir === root) return;
      for (const ms of RESCAN_NEW_FOLDER_MS) setTimeout(() => rescan(dir), ms).unref();
    });
    watcher.on('unlink', (p: string) => live() && apply(rt, { type: 'gone', relativePath: relOf(p), now: now() }));
    watcher.on('error', (cause: unknown) => {
      if (!live()) return;
      rt.error = `Watching stopped: ${cause instanceof Error ? cause.message : String(cause)}`;
      announce(rt.def.id);
    });
    watcher.on('ready', () => {
      if (!live()) return;
      rt.ready = true;
      announce(rt.def.id);
    });
  };

  const stopWatcher = async (rt: Runtime) => {
    rt.generation += 1;
    if (rt.timer) clearTimeout(rt.timer);
    rt.timer = null;
    const watcher = rt.watcher;
    rt.watcher = null;
    await watcher?.close();
  };

  const boot = async (def: WatchDef): Promise<Runtime> => {
    const rt: Runtime = {
      def,
      machine: newMachine({ settleMs: def.settleMs, reprocessStale: def.reprocessStale, paused: def.paused, items: store.items(def.id) }),
      watcher: null,
      ready: false,
      error: null,
      timer: null,
      generation: 0,
      sentWith: new Map(),
    };
    runtimes.set(def.id, rt);
    for (const item of rt.machine.items.values()) if (item.transferId) owned.add(item.transferId);
    // Files that were on the wire when the app quit: the queue resumes them; follow them to their results.
    for (const item of rt.machine.items.values()) if (item.state === 'processing' && item.transferId) void follow(rt, item.relativePath, item.transferId).catch((cause: unknown) => apply(rt, { type: 'failed', relativePath: item.relativePath, error: String(cause), assemblyId: null, now: now() }));
    for (const command of pendingAfterRestore(rt.machine)) void run(rt, command);
    if (!def.paused) await startWatcher(rt);
    return rt;
  };

  const get = (id: string): Result<Runtime> => {
    const rt = runtimes.get(id);
    return rt ? ok(rt) : err(AppErrorCode.notFound, `No watch folder with id ${id}.`);
  };

  return {
    list: () => [...runtimes.values()].sort((a, b) => a.def.createdAt - b.def.createdAt).map(view),
    async add(input) {
      const folder = path.resolve(input.folder);
      const output = path.resolve(input.output);
      try {
        if (!(await stat(folder)).isDirectory()) return fieldErr('folder', WATCH_FOLDER_INVALID, `${folder} is not a folder.`);
      } catch (cause) {
        return fieldErr('folder', WATCH_FOLDER_INVALID, `The folder to watch cannot be read: ${(cause as Error).message}`);
      }
      if ([...runtimes.values()].some((r) => r.def.folder === folder)) return fieldErr('folder', WATCH_FOLDER_INVALID, `${folder} is already watched.`);
      const checked = await checkSettings(folder, output, input.recipe);
      if (!checked.ok) return checked;
      const def: WatchDef = {
        id: `wf_${randomUUID()}`,
        folder,
        output,
        recipe: input.recipe,
        reprocessStale: input.reprocessStale,
        afterSuccess: input.afterSuccess.kind === 'move' ? { kind: 'move', folder: path.resolve(input.afterSuccess.folder) } : input.afterSuccess,
        conflict: input.conflict,
        settleMs: input.settleMs,
        paused: false,
        ...(input.workspaceId ? { workspaceId: input.workspaceId } : {}),
        createdAt: now(),
        lastActivityAt: null,
      };
      store.putWatch(def);
      const rt = await boot(def);
      deps.announce(def.id);
      return ok(view(rt));
    },
    async update(id, change) {
      const found = get(id);
      if (!found.ok) return found;
      const rt = found.value;
      const output = change.output !== undefined ? path.resolve(change.output) : rt.def.output;
      const recipe = change.recipe ?? rt.def.recipe;
      // Validated as on add, before anything changes: a refused edit leaves the watch as it was.
      const checked = await checkSettings(rt.def.folder, output, recipe);
      if (!checked.ok) return checked;
      if (runtimes.get(id) !== rt) return err(AppErrorCode.notFound, `No watch folder with id ${id}.`);
      // Read after the check: a pause or file activity meanwhile is kept.
      const before = rt.def;
      const afterSuccess = change.afterSuccess === undefined ? before.afterSuccess : change.afterSuccess.kind === 'move' ? { kind: 'move' as const, folder: path.resolve(change.afterSuccess.folder) } : change.afterSuccess;
      const next: WatchDef = {
        ...before,
        output,
        recipe,
        afterSuccess,
        conflict: change.conflict ?? before.conflict,
        reprocessStale: change.reprocessStale ?? before.reprocessStale,
        settleMs: change.settleMs ?? before.settleMs,
      };
      const retired = retiredAfterEdit(before.folder, before, next);
      if (retired.length > 0) next.retiredFolders = retired;
      else delete next.retiredFolders;
      // The ledger and the machine's items stay: nothing already processed is sent again because of an edit.
      rt.def = next;
      rt.machine.reprocessStale = next.reprocessStale;
      rt.machine.settleMs = next.settleMs;
      store.putWatch(rt.def);
      arm(rt);
      deps.announce(id);
      return ok(view(rt));
    },
    async pause(id) {
      const found = get(id);
      if (!found.ok) return found;
      const rt = found.value;
      rt.def.paused = true;
      store.putWatch(rt.def);
      step(rt.machine, { type: 'pause' });
      await stopWatcher(rt);
      deps.announce(id);
      return ok(view(rt));
    },
    async resume(id) {
      const found = get(id);
      if (!found.ok) return found;
      const rt = found.value;
      if (!rt.def.paused && rt.watcher) return ok(view(rt));
      rt.def.paused = false;
      store.putWatch(rt.def);
      apply(rt, { type: 'resume', now: now() });
      // Catch up on what changed while paused (the watcher's first scan).
      await stopWatcher(rt);
      await startWatcher(rt);
      deps.announce(id);
      return ok(view(rt));
    },
    async remove(id) {
      const found = get(id);
      if (!found.ok) return found;
      runtimes.delete(id);
      await stopWatcher(found.value);
      store.removeWatch(id);
      deps.announce(id, true);
      return ok({});
    },
    items(id, offset, limit) {
      const found = get(id);
      if (!found.ok) return found;
      const all = [...found.value.machine.items.values()].sort((a, b) => b.updatedAt - a.updatedAt || a.relativePath.localeCompare(b.relativePath));
      return ok({ items: all.slice(offset, offset + limit).map(itemView), total: all.length });
    },
    ownsTransfer: (transferId) => owned.has(transferId),
    async restore() {
      for (const def of store.watches()) await boot(def);
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const t of announceTimers.values()) clearTimeout(t);
      await Promise.all([...runtimes.values()].map(stopWatcher));
      store.close();
    },
  };
}

function hashFile(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    createReadStream(file)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}
