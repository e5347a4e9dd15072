import type { TransferTotals } from '../../../../shared/ipc/transfer-models';
import { formatBytes, formatCount, formatEta, formatSpeed } from '../../lib/format';
import { formatTime } from '../../lib/date-time';

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
  // Of the work under way: a finished drop of earlier is neither "sent" nor "left" of this one.
  const { bytesTotal, bytesSent } = totals.current;
  if (bytesTotal <= 0 || bytesSent / bytesTotal < ETA_MIN_FRACTION) return null;
  const remaining = Math.max(0, bytesTotal - bytesSent);
  // Core's estimate knows per-file overhead; bytes over speed is the floor when it has none.
  return totals.etaSeconds ?? remaining / totals.speedBps;
};

/** "12:03:10" in the user's clock (lib/date-time). */
const clock = (iso: string): string => formatTime(iso);

export interface TotalsText {
  readonly files: string;
  readonly bytes: string;
  readonly speed: string;
  /** Time left, or what the queue waits for. */
  readonly eta: string;
  /** "2 of 4 at once (backing off)" while the engine runs fewer than asked; null otherwise. */
  readonly concurrency: string | null;
}

/**
 * Files of the work under way that arrived, of those meant to go (canceled ones are not); files whose
 * bytes all left but whose Assembly has not answered yet (many per request) said apart, and failed ones.
 */
const filesText = (totals: TransferTotals): string => {
  const cur = totals.current;
  const arrived = cur.filesDone + cur.filesSkipped;
  const meant = cur.filesTotal - cur.filesCanceled;
  const inFlight = Math.max(0, cur.filesSent - cur.filesDone);
  const sent = inFlight > 0 ? ` · ${inFlight.toLocaleString('en-US')} more sent` : '';
  const failed = cur.filesFailed > 0 ? ` · ${cur.filesFailed.toLocaleString('en-US')} failed` : '';
  return `${arrived.toLocaleString('en-US')} of ${formatCount(meant, 'file')}${sent}${failed}`;
};

export const totalsText = (input: EtaInput, concurrencySetting: number | null): TotalsText => {
  const { totals } = input;
  const busy = totals.filesActive + totals.filesQueued > 0;
  let eta: string;
  if (totals.waitingUntil) eta = `Waiting for the service until ${clock(totals.waitingUntil)}`;
  else if (totals.paused) eta = 'Paused';
  else if (!busy) eta = totals.filesTotal > 0 ? 'Done' : '—';
  // Every byte is in; the Assemblies have yet to answer for the last files (never "Done" before that).
  else if (totals.filesQueued === 0 && totals.bytesSent >= totals.bytesTotal) eta = 'Verifying…';
  else {
    const seconds = etaSeconds(input);
    eta = seconds === null ? 'Estimating…' : formatEta(seconds);
  }
  const backingOff = concurrencySetting !== null && totals.effectiveConcurrency < concurrencySetting && busy && !totals.paused;
  return {
    files: filesText(totals),
    bytes: `${formatBytes(totals.current.bytesSent)} of ${formatBytes(totals.current.bytesTotal)}`,
    speed: busy && !totals.paused ? formatSpeed(totals.speedBps) : '—',
    eta,
    concurrency: backingOff ? `${totals.effectiveConcurrency} of ${concurrencySetting} at once (the service asked to slow down)` : null,
  };
};
