import type { TransferFileState, TransferTotals } from '../../../../shared/ipc/transfer-models';

/** The Transfers view's filter chips: which row states each shows, and its count from the totals. */
export const FILTERS = ['all', 'active', 'queued', 'failed', 'done', 'canceled'] as const;
export type TransferFilter = (typeof FILTERS)[number];

export const FILTER_LABEL: Record<TransferFilter, string> = {
  all: 'All',
  active: 'Active',
  queued: 'Queued',
  failed: 'Failed',
  done: 'Done',
  canceled: 'Canceled',
};

/** `uploaded` is active: its bytes are in, its checksum not yet compared. Skipped files count as done. */
const STATES: Record<TransferFilter, readonly TransferFileState[] | undefined> = {
  all: undefined,
  active: ['uploading', 'uploaded'],
  queued: ['queued', 'paused'],
  failed: ['failed'],
  done: ['verified', 'unverified', 'skipped'],
  canceled: ['canceled'],
};

export const statesOf = (filter: TransferFilter): TransferFileState[] | undefined => {
  const states = STATES[filter];
  return states ? [...states] : undefined;
};

export const filterCount = (filter: TransferFilter, totals: TransferTotals): number => {
  switch (filter) {
    case 'all':
      return totals.filesTotal;
    case 'active':
      return totals.filesActive;
    case 'queued':
      return totals.filesQueued;
    case 'failed':
      return totals.filesFailed;
    case 'done':
      return totals.filesDone + totals.filesSkipped;
    case 'canceled':
      return totals.filesCanceled;
  }
};

export const matchesFilter = (filter: TransferFilter, state: TransferFileState): boolean => {
  const states = STATES[filter];
  return states === undefined || states.includes(state);
};
