import type { ReplayManyResult } from '../../../../shared/ipc/assembly-models';
import { formatCount } from '../../lib/format';

/** The service's answer to a replay of an Assembly that has not ended yet (not a refusal of the replay as such). */
const STILL_RUNNING = 'ASSEMBLY_NOT_FINISHED';

/**
 * The toast after "Replay N…": how many replays started, how many selected Assemblies were still running
 * (left alone: they can be replayed once ended), and the first real refusal with its code. Pure.
 */
export const replayManySummary = ({ started, failed }: ReplayManyResult): { text: string; tone: 'success' | 'info' | 'danger' } => {
  const running = failed.filter((f) => f.code === STILL_RUNNING).length;
  const refused = failed.filter((f) => f.code !== STILL_RUNNING);
  const parts = [started.length > 0 || running === 0 ? `Replaying ${formatCount(started.length, 'Assembly', 'Assemblies')}` : 'Nothing replayed'];
  if (running > 0) parts.push(`${formatCount(running, 'Assembly', 'Assemblies')} still running ${running === 1 ? 'was' : 'were'} left alone: replay ${running === 1 ? 'it' : 'them'} once ended`);
  if (refused.length > 0) parts.push(`${refused.length.toLocaleString('en-US')} refused: ${refused[0]!.code} — ${refused[0]!.message}`);
  if (parts.length === 1 && started.length > 0) return { text: `${parts[0]}: they run at the top of the list.`, tone: 'success' };
  const text = parts.join('; ');
  return { text: /[.!?]$/.test(text) ? text : `${text}.`, tone: refused.length > 0 ? 'danger' : 'info' };
};
