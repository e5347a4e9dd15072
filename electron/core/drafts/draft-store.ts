import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { draftChoiceSchema, type DraftChoice } from '../../../shared/ipc/draft-choice';
import { openOrSetAside, writePrivateFile } from '../vault/private-files';

/**
 * The draft on disk (`<dataDir>/draft.json`): what the user picked (the roots, by path, not the files they
 * held: those are walked again at the next start) and the steps choice, so a restart finds the Upload
 * view as it was left. Small by design — a root per drop, the user's names where the browser host
 * shortened them on disk, and the files the user removed.
 */

export const DRAFT_FILE = 'draft.json';

export const savedRootSchema = z.object({
  /** The picked root, absolute (in the browser host: its staged copy). */
  path: z.string().min(1),
  /** The root's name as the user sees it (for a root that vanished). */
  label: z.string(),
  /** `[on disk, as the user sees it]` relative paths, where the browser host shortened a name. */
  aliases: z.array(z.tuple([z.string(), z.string()])).default([]),
  /** Items the host could not take (the page could not read them): listed again as skipped. */
  notes: z.array(z.object({ relativePath: z.string(), reason: z.string() })).default([]),
});
export type SavedRoot = z.infer<typeof savedRootSchema>;

const savedFilesSchema = z.object({
  roots: z.array(savedRootSchema),
  /** Files the user removed from the list (absolute paths): a walk of their root leaves them out. */
  removed: z.array(z.string()).default([]),
});
export type SavedDraftFiles = z.infer<typeof savedFilesSchema>;

const fileSchema = z.object({
  format: z.literal(1),
  files: savedFilesSchema,
  choice: draftChoiceSchema.nullable(),
});
type DraftFile = z.infer<typeof fileSchema>;

export const EMPTY_FILES: SavedDraftFiles = { roots: [], removed: [] };

export interface DraftStore {
  /** What the last session left (empty when nothing was saved, or the file was damaged and set aside). */
  readonly saved: { readonly files: SavedDraftFiles; readonly choice: DraftChoice | null };
  saveFiles(files: SavedDraftFiles): void;
  saveChoice(choice: DraftChoice): void;
  choice(): DraftChoice | null;
  /** Resolves once everything saved so far is on disk. */
  flush(): Promise<void>;
}

/** Reads the file; a missing one is empty, one that cannot be parsed throws (openOrSetAside sets it aside). */
function readDraftFile(file: string): DraftFile {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (cause) {
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') return { format: 1, files: EMPTY_FILES, choice: null };
    throw cause;
  }
  return fileSchema.parse(JSON.parse(text));
}

export interface DraftStoreOptions {
  /** Changes within this many ms are written once (a walk's end, a burst of removals). */
  readonly delayMs?: number;
  /** Told when a write fails (the draft still works in memory). */
  readonly onError?: (message: string) => void;
}

export function openDraftStore(dataDir: string, options: DraftStoreOptions = {}): DraftStore {
  const file = path.join(dataDir, DRAFT_FILE);
  const loaded = openOrSetAside(file, readDraftFile);
  let current: DraftFile = loaded;
  const delayMs = options.delayMs ?? 100;
  let timer: ReturnType<typeof setTimeout> | null = null;
  // One write at a time (they share a temp name); a change meanwhile is written after it, once.
  let writing: Promise<void> = Promise.resolve();
  let dirty = false;

  const write = () => {
    timer = null;
    if (!dirty) return;
    dirty = false;
    const text = JSON.stringify(current);
    writing = writing
      .then(() => writePrivateFile(file, text))
      .catch((cause: unknown) => options.onError?.(`The Upload view's selection could not be saved: ${cause instanceof Error ? cause.message : String(cause)}`));
  };
  const schedule = () => {
    dirty = true;
    if (timer === null) timer = setTimeout(write, delayMs);
  };

  return {
    saved: { files: loaded.files, choice: loaded.choice },
    saveFiles(files) {
      current = { ...current, files };
      schedule();
    },
    saveChoice(choice) {
      current = { ...current, choice };
      schedule();
    },
    choice: () => current.choice,
    async flush() {
      if (timer !== null) {
        clearTimeout(timer);
        write();
      }
      await writing;
    },
  };
}
