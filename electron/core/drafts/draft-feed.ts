import type { DraftFeed } from '../transfers/draft-feed';

export type { DraftFile } from '../transfers/draft-feed';

/** What `transfers:start` takes from the draft (`ctx.drafts.take()`): the engine's own feed type. */
export type DraftTake = DraftFeed;
