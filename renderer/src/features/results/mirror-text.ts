import type { ConflictPolicy, MirrorLayout, MirrorProgress } from '../../../../shared/ipc/mirror-models';
import { formatBytes, formatCount } from '../../lib/format';

/** The layouts as the dialog offers them, each with where `photos/2024/a.jpg`'s `resized` result would go. */
export const LAYOUTS: ReadonlyArray<{ value: MirrorLayout; label: string; example: string }> = [
  { value: 'by-step', label: 'One folder per step, mirroring the input folders', example: 'resized/photos/2024/a.png' },
  { value: 'flat', label: 'One folder per step, no subfolders', example: 'resized/a.png' },
  { value: 'by-folder', label: 'The input folders, the step before each name', example: 'photos/2024/resized-a.png' },
];

export const CONFLICTS: ReadonlyArray<{ value: ConflictPolicy; label: string; hint: string }> = [
  { value: 'skip', label: 'Skip', hint: 'leave the file there untouched' },
  { value: 'overwrite', label: 'Overwrite', hint: 'replace it with the result' },
  { value: 'keep-both', label: 'Keep both', hint: 'save the result as "name (2).ext"' },
];

/** "2 of 6 files · 1.2 MB of 3.4 MB" while a mirror runs. */
export const mirrorProgressText = (p: MirrorProgress): string =>
  `${p.filesDone.toLocaleString('en-US')} of ${formatCount(p.filesTotal, 'file')} · ${formatBytes(p.bytesDone)} of ${formatBytes(p.bytesTotal)}`;

/** "3 written · 0 skipped · 3 verified · 0 failed", the summary a user checks at the end. */
export const mirrorSummaryText = (p: MirrorProgress): string => `${p.written} written · ${p.skipped} skipped · ${p.verified} verified · ${p.failed} failed`;

/** The headline of an ended mirror. */
export const mirrorOutcome = (p: MirrorProgress): { text: string; tone: 'success' | 'danger' | 'neutral' } => {
  if (p.state === 'canceled') return { text: 'Stopped: files already saved stay in the folder.', tone: 'neutral' };
  if (p.failed > 0) return { text: `${formatCount(p.failed, 'file')} could not be saved.`, tone: 'danger' };
  if (p.filesTotal === 0) return { text: 'There were no results to save.', tone: 'neutral' };
  return { text: 'Every result is in the folder.', tone: 'success' };
};
