import type { AssemblyFile } from '../../../../shared/api/assembly-status';
import { formatPlayTime } from '../../lib/format';

/** A file record's URL (https first), name and dimensions as the Assembly view shows them. Pure. */
export const resultUrlOf = (file: AssemblyFile): string | null => file.ssl_url || file.url || null;
export const resultNameOf = (file: AssemblyFile): string => file.name || file.basename || file.id || 'result';
export const dimensionsOf = (file: AssemblyFile): string | null => {
  const { width, height } = file.meta ?? {};
  return typeof width === 'number' && typeof height === 'number' ? `${width} × ${height}` : null;
};

/** "640 × 480 · 0:04" from a file's meta: what a producer checks first. Pure. */
export const metaLine = (file: AssemblyFile): string => {
  const parts: string[] = [];
  const dims = dimensionsOf(file);
  if (dims) parts.push(dims);
  const duration = file.meta?.duration;
  if (typeof duration === 'number') parts.push(formatPlayTime(duration));
  return parts.join(' · ');
};
