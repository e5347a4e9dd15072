import type { SkipRules } from '../../../shared/ipc/transfer-models';

/** One file of a draft, as the folder walk (electron/core/drafts) hands it to the engine. */
export interface DraftFile {
  /** Absolute path on disk. */
  path: string;
  /** `photos/sub/a.jpg`, from the dropped item's parent. */
  relativePath: string;
  name: string;
  size: number;
  mime: string | null;
  mtimeMs: number;
}

/**
 * What `transfers:start` takes from the draft: files arrive while the walk still runs, already filtered by
 * the skip rules except `skipUnchanged`, which the engine applies when each file's turn comes.
 */
export interface DraftFeed {
  label: string;
  files: AsyncIterable<DraftFile>;
  skip: SkipRules;
}

/** A feed from a list (tests, `runs:start`). */
export function feedOf(label: string, files: readonly DraftFile[], skip: Partial<SkipRules> = {}): DraftFeed {
  return {
    label,
    skip: { include: [], exclude: [], skipHidden: false, minBytes: null, maxBytes: null, skipUnchanged: false, ...skip },
    files: (async function* () {
      yield* files;
    })(),
  };
}
