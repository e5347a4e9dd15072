import type { SkipRules } from '../../../shared/ipc/transfer-models';

/**
 * What `transfers:start` takes from the draft (`ctx.drafts.take()`): the same shape as the engine's
 * `electron/core/transfers/draft-feed.ts` (keep the field names in step).
 */
export interface DraftFile {
  /** On disk (core only; never sent to the page). */
  path: string;
  /** As the user sees it, from the dropped item's parent: `photos/sub/a.jpg`. */
  relativePath: string;
  name: string;
  size: number;
  mime: string | null;
  mtimeMs: number;
}

export interface DraftTake {
  /** `photos`, `photos + 2 more`: what the transfer is called. */
  label: string;
  /** The draft's files after the skip rules (all but skipUnchanged), in walk order; ends when the walk ends. */
  files: AsyncIterable<DraftFile>;
  /** The rules in force at take time (the engine applies skipUnchanged with them). */
  skip: SkipRules;
}
