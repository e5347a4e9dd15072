import { lstat } from 'node:fs/promises';
import path from 'node:path';
import type { DraftChoice } from '../../../shared/ipc/draft-choice';
import type { DraftRow, DraftSkip, DraftSummary, TransferSettings } from '../../../shared/ipc/transfer-models';
import { err, ok, type Result } from '../../../shared/result';
import type { FileHandleRegistry } from '../files/file-handles';
import { walkPaths } from '../files/folder-scanner';
import { mimeFromName } from '../files/mime-types';
import { systemClock, type Clock } from '../uploads/clock';
import type { DraftFile, DraftTake } from './draft-feed';
import { DraftList, type ListedRoot } from './draft-list';
import type { DraftStore, SavedDraftFiles } from './draft-store';
import { compileSkipRules } from './skip-rules';

/** Codes the draft answers with (beyond FILE_HANDLE_UNKNOWN for a handle core never issued). */
export const DraftErrorCode = {
  /** `take()` on a draft with no files and no walk under way. */
  empty: 'DRAFT_EMPTY',
} as const;

/** The most files one draft holds (a bound on core's memory); the plan warns from 100 000 on. */
export const MAX_DRAFT_FILES = 250_000;
/** draft:updated at most this often while a walk runs (4 a second). */
export const DRAFT_EVENT_INTERVAL_MS = 250;
/** Why a root the last session picked is not in the restored draft. */
export const VANISHED_REASON = 'No longer there: it was moved, renamed or deleted since Assemblyline last ran.';

export interface DraftDeps {
  files: Pick<FileHandleRegistry, 'root' | 'shownAs' | 'takeUnreadable' | 'register' | 'alias' | 'aliasesOf' | 'noteUnreadable'>;
  emit(summary: DraftSummary): void;
  /** The transfer settings (the engine keeps them); their skip rules apply in `take()`. */
  getSettings(): TransferSettings;
  /** Where the picked roots are kept across restarts (none: the draft lives in memory only). */
  store?: Pick<DraftStore, 'saveFiles' | 'saveChoice' | 'choice'>;
  clock?: Clock;
}

export interface Draft {
  /** Starts walking the picked roots and answers at once (`scanning: true` while the walk runs). */
  add(handles: readonly string[]): Result<DraftSummary>;
  summary(): DraftSummary;
  /** What a transfer of this draft is called (`photos`, `photos + 2 more`). */
  label(): string;
  rows(offset: number, limit: number): { total: number; rows: DraftRow[] };
  skipped(offset: number, limit: number): { total: number; items: DraftSkip[] };
  remove(ids: readonly string[]): DraftSummary;
  /** Empties the draft and stops its walks. */
  clear(): DraftSummary;
  /** Every file's relative path (as the user sees it) and size, in order: what the plan reads. */
  forEachFile(visit: (relativePath: string, size: number, index: number) => void): void;
  /** The path on disk of the file at `index` (core only). */
  pathAt(index: number): string;
  /** Hands the draft (and its walks still under way) to a transfer and starts a new, empty one. */
  take(): Result<DraftTake>;
  /**
   * Picks again what the last session had picked (walking the roots again, leaving out the files the user
   * had removed); a root that is gone is listed as skipped with VANISHED_REASON.
   */
  restore(saved: SavedDraftFiles): DraftSummary;
  /** The steps choice last saved (preset, custom text, Template + fields); null before any. */
  choice(): DraftChoice | null;
  saveChoice(choice: DraftChoice): void;
  /** The picked roots (absolute paths) of the current draft: staged copies it still needs. */
  rootPaths(): string[];
  /** Resolves once no walk of the current draft is running (tests, and hosts shutting down). */
  idle(): Promise<void>;
  close(): void;
}

const rowId = (id: number) => `d${id}`;

/** A picked root as kept on disk; aliases as a map while the draft is live (a root walked twice names them twice). */
interface LiveRoot {
  readonly path: string;
  readonly label: string;
  readonly aliases: Map<string, string>;
  readonly notes: { relativePath: string; reason: string }[];
}
/** The current draft's roots and removed files, as the store keeps them; replaced (not emptied) by clear and take. */
interface Picked {
  readonly roots: Map<string, LiveRoot>;
  readonly removed: Set<string>;
}
const nothingPicked = (): Picked => ({ roots: new Map(), removed: new Set() });
const isInside = (root: string, file: string) => file === root || file.startsWith(root.endsWith(path.sep) ? root : `${root}${path.sep}`);
const lastSegment = (relativePath: string) => relativePath.slice(relativePath.lastIndexOf('/') + 1);

export function createDraft(deps: DraftDeps): Draft {
  const clock = deps.clock ?? systemClock;
  let list = new DraftList();
  /** Walks of the current list: cleared or closed drafts abort them. Taken ones go on feeding their transfer. */
  let controllers = new Set<AbortController>();
  /** Every walk still running, taken ones too: closing core stops them all. */
  const running = new Set<AbortController>();
  let labels: string[] = [];
  let picked = nothingPicked();
  let choice: DraftChoice | null = deps.store?.choice() ?? null;
  let timer: unknown = null;
  let lastEmit = -Infinity;
  let closed = false;

  const summary = (): DraftSummary => ({
    version: list.version,
    scanning: list.walks > 0,
    files: list.length,
    bytes: list.bytes,
    unreadable: list.skips.length,
    duplicates: list.duplicates,
  });

  const fire = () => {
    timer = null;
    lastEmit = clock.now();
    deps.emit(summary());
  };
  /** Coalesced: at once when quiet, else once at the end of the current 250 ms window. */
  const announce = () => {
    if (closed || timer !== null) return;
    const wait = lastEmit + DRAFT_EVENT_INTERVAL_MS - clock.now();
    if (wait <= 0) fire();
    else timer = clock.setTimeout(fire, wait);
  };

  /** Hands the picked roots to the store (it coalesces writes). */
  const persist = () => {
    if (closed || !deps.store) return;
    deps.store.saveFiles({
      roots: [...picked.roots.values()].map((r) => ({ path: r.path, label: r.label, aliases: [...r.aliases], notes: r.notes })),
      removed: [...picked.removed],
    });
  };

  async function walk(target: DraftList, roots: { handle: string; root: string }[], controller: AbortController, restored: boolean): Promise<void> {
    // The walk belongs to the draft it started in: a clear or take meanwhile gives the new draft its own.
    const mine = picked;
    const listed = new Map<string, ListedRoot>();
    const rootOf = (root: string, handle: string) => {
      let found = listed.get(root);
      if (!found) {
        found = { handle, base: path.dirname(root) };
        listed.set(root, found);
      }
      return found;
    };
    try {
      for (const { handle, root } of roots) {
        if (controller.signal.aborted) return;
        const kept = mine.roots.get(root);
        if (restored && (await vanished(root))) {
          const name = kept?.label ?? deps.files.shownAs(handle, path.basename(root));
          target.skip(name, VANISHED_REASON);
          // Nothing of it goes to a transfer, so it does not name one either.
          if (target === list && labels.includes(name)) labels.splice(labels.indexOf(name), 1);
          if (mine.roots.delete(root) && mine === picked) persist();
          continue;
        }
        const notes = deps.files.takeUnreadable(handle);
        for (const note of notes) target.skip(note.relativePath, note.reason);
        kept?.notes.push(...notes);
        for await (const entry of walkPaths([root], { signal: controller.signal })) {
          if (controller.signal.aborted) return;
          const shown = deps.files.shownAs(handle, entry.relativePath);
          if (entry.kind === 'file' && mine.removed.has(entry.path)) continue;
          if (entry.kind === 'skip') {
            // The browser host staged nothing of a root whose every file the page could not read: its notes say why.
            if (!(notes.length > 0 && entry.path === root)) target.skip(shown, entry.reason);
          } else if (target.length >= MAX_DRAFT_FILES) {
            target.skip(shown, `Not added: a draft holds at most ${MAX_DRAFT_FILES.toLocaleString('en-US')} files.`);
          } else {
            target.add(rootOf(root, handle), entry.relativePath, shown, entry.size, entry.mtimeMs);
          }
          if (target === list) announce();
        }
      }
    } catch (cause) {
      target.skip(roots[0]?.handle ? deps.files.shownAs(roots[0].handle, path.basename(roots[0].root)) : '?', `The folder walk stopped: ${cause instanceof Error ? cause.message : String(cause)}`);
    } finally {
      running.delete(controller);
      target.walks -= 1;
      target.changed();
      if (target === list) {
        controllers.delete(controller);
        announce();
      }
      // The names the walk learned (aliases, notes) are kept once it is done.
      if (mine === picked) persist();
    }
  }

  const idsOf = (ids: readonly string[]) => {
    const set = new Set<number>();
    for (const id of ids) if (/^d\d+$/.test(id)) set.add(Number(id.slice(1)));
    return set;
  };

  const rowAt = (index: number, skip: ReturnType<typeof compileSkipRules>): DraftRow => {
    const file = list.at(index);
    const name = lastSegment(file.relativePath);
    return { id: rowId(file.id), handle: file.root.handle, relativePath: file.relativePath, name, size: file.size, mime: mimeFromName(name), leftOut: skip(file) };
  };

  function addRoots(roots: { handle: string; root: string }[], restored: boolean): DraftSummary {
    for (const { handle, root } of roots) {
      const label = deps.files.shownAs(handle, path.basename(root));
      labels.push(label);
      const kept = picked.roots.get(root);
      if (kept) {
        // Picked again: the files removed from it come back, as they would in a new draft.
        for (const file of picked.removed) if (isInside(root, file)) picked.removed.delete(file);
      }
      const aliases = kept?.aliases ?? new Map<string, string>();
      for (const [disk, user] of deps.files.aliasesOf(handle)) aliases.set(disk, user);
      if (!kept) picked.roots.set(root, { path: root, label, aliases, notes: [] });
    }
    const controller = new AbortController();
    controllers.add(controller);
    running.add(controller);
    list.walks += 1;
    list.changed();
    void walk(list, roots, controller, restored);
    // A restored draft is on disk already; the walk's end saves what it learned (notes, roots gone).
    if (!restored) persist();
    announce();
    return summary();
  }

  const stopWalks = () => {
    for (const controller of controllers) controller.abort();
    controllers = new Set();
  };

  return {
    add(handles) {
      const roots: { handle: string; root: string }[] = [];
      for (const handle of new Set(handles)) {
        const root = deps.files.root(handle);
        if (!root.ok) return root;
        roots.push({ handle, root: root.value });
      }
      return ok(addRoots(roots, false));
    },
    summary,
    label: () => labelOf(labels),
    rows(offset, limit) {
      const rows: DraftRow[] = [];
      // Each row says whether Start leaves it out (a .DS_Store listed like any file, sent like none, misleads).
      const skip = compileSkipRules(deps.getSettings().skip);
      for (let i = offset; i < Math.min(list.length, offset + limit); i += 1) rows.push(rowAt(i, skip));
      return { total: list.length, rows };
    },
    skipped(offset, limit) {
      return { total: list.skips.length, items: list.skips.slice(offset, offset + limit) };
    },
    remove(ids) {
      const gone = idsOf(ids);
      // Kept by path, so the next start's walk leaves them out too.
      for (let i = 0; i < list.length; i += 1) {
        const file = list.at(i);
        if (gone.has(file.id)) picked.removed.add(list.pathOf(file));
      }
      if (list.remove(gone) > 0) persist();
      announce();
      return summary();
    },
    clear() {
      stopWalks();
      const version = list.version;
      list = new DraftList();
      // Versions keep growing across a clear, so a page never mistakes the new draft for an old state.
      list.version = version + 1;
      labels = [];
      picked = nothingPicked();
      persist();
      announce();
      return summary();
    },
    forEachFile(visit) {
      list.forEach(visit);
    },
    pathAt(index) {
      return list.pathOf(list.at(index));
    },
    take() {
      if (list.length === 0 && list.walks === 0) return err(DraftErrorCode.empty, 'The draft is empty: add files or folders first.');
      const taken = list;
      const label = labelOf(labels);
      const rules = deps.getSettings().skip;
      const version = list.version;
      list = new DraftList();
      list.version = version + 1;
      labels = [];
      picked = nothingPicked();
      persist();
      // Its walks go on feeding the transfer; only a later clear/close of the new draft must not stop them.
      controllers = new Set();
      announce();
      return ok({ label, files: feed(taken, rules), skip: rules });
    },
    restore(saved) {
      const roots = saved.roots.map((r) => {
        const handle = deps.files.register(r.path);
        for (const [disk, user] of r.aliases) deps.files.alias(handle, disk, user);
        for (const note of r.notes) deps.files.noteUnreadable(handle, note.relativePath, note.reason);
        return { handle, root: path.resolve(r.path) };
      });
      for (const file of saved.removed) picked.removed.add(file);
      return roots.length > 0 ? addRoots(roots, true) : summary();
    },
    rootPaths: () => [...picked.roots.keys()],
    choice: () => choice,
    saveChoice(next) {
      choice = next;
      deps.store?.saveChoice(next);
    },
    async idle() {
      while (list.walks > 0) await list.nextChange();
    },
    close() {
      closed = true;
      stopWalks();
      for (const controller of running) controller.abort();
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
    },
  };
}

/** The taken list's files after the rules, in order, waiting for a walk still under way. */
async function* feed(taken: DraftList, rules: TransferSettings['skip']): AsyncGenerator<DraftFile> {
  const skip = compileSkipRules(rules);
  for (let i = 0; ; i += 1) {
    while (i >= taken.length) {
      if (taken.walks === 0) return;
      await taken.nextChange();
    }
    const file = taken.at(i);
    if (skip(file) !== null) continue;
    const name = lastSegment(file.relativePath);
    yield { path: taken.pathOf(file), relativePath: file.relativePath, name, size: file.size, mime: mimeFromName(name), mtimeMs: file.mtimeMs };
  }
}

/** Only a root that is not there at all counts as gone; an unreadable one is walked and its reason listed. */
async function vanished(root: string): Promise<boolean> {
  try {
    await lstat(root);
    return false;
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

function labelOf(labels: readonly string[]): string {
  const unique = [...new Set(labels)];
  if (unique.length === 0) return 'Drop';
  return unique.length === 1 ? (unique[0] as string) : `${unique[0]} + ${unique.length - 1} more`;
}
