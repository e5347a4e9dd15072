import type { TransferTotals } from '../../../../shared/ipc/transfer-models';
import { formatBytes, formatCount, formatEta, formatSpeed } from '../../lib/format';

/**
 * When the Transfers view may promise a time. An estimate from the first seconds of a queue of small
 * files says "30 s left" at 12 %: so none until the speed has been measured for a while and a share of
 * the bytes is out, none while paused or waiting for the service.
 */
export const ETA_MIN_MEASURED_MS = 5_000;
export const ETA_MIN_FRACTION = 0.02;

export interface EtaInput {
  readonly totals: TransferTotals;
  /** Since when (ms) the speed has been above 0 without a break; null while it is 0. */
  readonly measuredSince: number | null;
  readonly now: number;
}

/** Track when a speed measurement began: keeps the start while the speed stays above 0. */
export const nextMeasuredSince = (previous: number | null, speedBps: number, now: number): number | null =>
  speedBps > 0 ? (previous ?? now) : null;

export const etaSeconds = ({ totals, measuredSince, now }: EtaInput): number | null => {
  if (totals.paused || totals.waitingUntil !== null) return null;
  if (totals.speedBps <= 0 || measuredSince === null || now - measuredSince < ETA_MIN_MEASURED_MS) return null;
  if (totals.bytesTotal <= 0 || totals.bytesSent / totals.bytesTotal < ETA_MIN_FRACTION) return null;
  const remaining = Math.max(0, totals.bytesTotal - totals.bytesSent);
  // Core's estimate knows per-file overhead; bytes over speed is the floor when it has none.
  return totals.etaSeconds ?? remaining / totals.speedBps;
};

/** "12:03:10" in the user's clock. */
const clock = (iso: string): string => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });
};

export interface TotalsText {
  readonly files: string;
  readonly bytes: string;
  readonly speed: string;
  /** Time left, or what the queue waits for. */
  readonly eta: string;
  /** "2 of 4 at once (backing off)" while the engine runs fewer than asked; null otherwise. */
  readonly concurrency: string | null;
}

/** Files that arrived of those meant to go (canceled ones are not), and the failed ones said apart. */
const filesText = (totals: TransferTotals): string => {
  const arrived = totals.filesDone + totals.filesSkipped;
  const meant = totals.filesTotal - totals.filesCanceled;
  const failed = totals.filesFailed > 0 ? ` · ${totals.filesFailed.toLocaleString('en-US')} failed` : '';
  return `${arrived.toLocaleString('en-US')} of ${formatCount(meant, 'file')}${failed}`;
};

export const totalsText = (input: EtaInput, concurrencySetting: number | null): TotalsText => {
  const { totals } = input;
  const busy = totals.filesActive + totals.filesQueued > 0;
  let eta: string;
  if (totals.waitingUntil) eta = `Waiting for the service until ${clock(totals.waitingUntil)}`;
  else if (totals.paused) eta = 'Paused';
  else if (!busy) eta = totals.filesTotal > 0 ? 'Done' : '—';
  else {
    const seconds = etaSeconds(input);
    eta = seconds === null ? 'Estimating…' : formatEta(seconds);
  }
  const backingOff = concurrencySetting !== null && totals.effectiveConcurrency < concurrencySetting && busy && !totals.paused;
  return {
    files: filesText(totals),
    bytes: `${formatBytes(totals.bytesSent)} of ${formatBytes(totals.bytesTotal)}`,
    speed: busy && !totals.paused ? formatSpeed(totals.speedBps) : '—',
    eta,
    concurrency: backingOff ? `${totals.effectiveConcurrency} of ${concurrencySetting} at once (the service asked to slow down)` : null,
  };
};
