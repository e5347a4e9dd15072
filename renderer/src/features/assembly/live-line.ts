// What a running Assembly is doing, in one line, from its status record and the service's execution
// progress (when it reports it). Pure.

import type { AssemblyStatus } from '../../../../shared/api/assembly-status';
import { isAssemblyBusy } from '../../../../shared/api/codes';
import type { AssemblyUpdate, FollowState } from '../../../../shared/ipc/assembly-models';
import { parseInstant } from '../../lib/date-time';
import { formatBytes, formatDuration } from '../../lib/format';

export interface LiveLine {
  readonly phase: 'receiving' | 'executing';
  /** 0–100 when the service reports it; null draws a moving bar. */
  readonly percent: number | null;
  /** Seconds it has executed (or received) so far, when the record says since when. */
  readonly elapsed: number | null;
  readonly text: string;
}

const count = (n: number, one: string) => `${n.toLocaleString('en-US')} ${one}${n === 1 ? '' : 's'}`;

/** The line while the Assembly runs; null once it ended. */
export function liveLine(status: AssemblyStatus | null, progress: AssemblyUpdate['progress'], now: number): LiveLine | null {
  if (!status || !isAssemblyBusy(status)) return null;
  if (status.ok === 'ASSEMBLY_UPLOADING') {
    const received = status.bytes_received ?? 0;
    const expected = typeof status.bytes_expected === 'number' ? status.bytes_expected : Number(status.bytes_expected ?? Number.NaN);
    const known = Number.isFinite(expected) && expected > 0;
    const since = parseInstant(status.start_date)?.getTime();
    return {
      phase: 'receiving',
      percent: known ? Math.min(100, Math.floor((100 * received) / expected)) : null,
      elapsed: since === undefined ? null : Math.max(0, (now - since) / 1000),
      text: `Receiving files · ${formatBytes(received)}${known ? ` of ${formatBytes(expected)}` : ''} · ${count(status.uploads?.length ?? 0, 'file')} in`,
    };
  }
  const since = parseInstant(status.execution_start ?? null)?.getTime() ?? parseInstant(status.start_date)?.getTime();
  const elapsed = since === undefined ? null : Math.max(0, (now - since) / 1000);
  const results = Object.values(status.results ?? {}).reduce((n, files) => n + files.length, 0);
  const running = (progress?.perStep ?? []).filter((s) => s.state === 'executing');
  const parts: string[] = [];
  if (progress) parts.push(`Processing ${Math.round(progress.combined)} %`);
  else parts.push('Processing on the service');
  for (const s of running) parts.push(`step "${s.step}" ${Math.round(s.progress)} %`);
  if (elapsed !== null) parts.push(`running ${formatDuration(elapsed)}`);
  parts.push(results === 0 ? 'no results yet' : `${count(results, 'result')} so far`);
  // Honest: a deployment that sends no execution progress gets no invented percentage.
  if (!progress) parts.push('this service reports no progress');
  return { phase: 'executing', percent: progress ? Math.max(0, Math.min(100, Math.round(progress.combined))) : null, elapsed, text: parts.join(' · ') };
}

/** How core follows the Assembly, as core said it at `since` (this page's clock). */
export interface HeldFollow {
  readonly state: FollowState;
  readonly since: number;
}

/**
 * What the user should know about how the Assembly is followed, or null when all is as usual: a rate limit
 * is a wait that counts down ("waiting 4 s (rate limited)"), never an error; a dropped or silent update
 * stream means the view now moves by polling.
 */
export function followNote(follow: HeldFollow | null, now: number): string | null {
  if (!follow) return null;
  const { state, since } = follow;
  if (state.rateLimitedMs !== null) {
    // `now` ticks once a second and may be older than `since`: the wait left is never more than the wait.
    const left = Math.max(1, Math.ceil(Math.min(state.rateLimitedMs, since + state.rateLimitedMs - now) / 1000));
    return `waiting ${left.toLocaleString('en-US')} s (rate limited)`;
  }
  if (state.reason === 'stream-dropped') return 'update stream dropped · checking every 2 s';
  if (state.reason === 'stream-stalled') return 'update stream silent · checking every 2 s';
  return null;
}
