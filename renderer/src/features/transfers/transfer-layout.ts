import type { TransferRowsPage } from '../../../../shared/ipc/transfer-models';

/**
 * The Transfers list shows one header line above each batch's rows. Core says where each batch's rows
 * start in the filtered order (`groups`); this maps a line of the list to a header or to a row offset,
 * by binary search over the groups, so nothing here is proportional to the number of rows.
 */

export type Group = TransferRowsPage['groups'][number];

export type Line = { readonly kind: 'header'; readonly group: Group; readonly groupIndex: number } | { readonly kind: 'row'; readonly offset: number; readonly group: Group | null };

export interface Layout {
  /** Lines in the list: rows plus one header per group. */
  readonly count: number;
  readonly groups: readonly Group[];
  /** Line index where each group's header sits. */
  readonly headerLines: readonly number[];
  /** Row offset where each group starts. */
  readonly groupOffsets: readonly number[];
}

/** Groups with no rows get no header; groups are taken in order of their offset. */
export const buildLayout = (groups: readonly Group[], total: number): Layout => {
  const kept = groups.filter((g) => g.count > 0).sort((a, b) => a.offset - b.offset);
  const headerLines = kept.map((g, i) => g.offset + i);
  return { count: total + kept.length, groups: kept, headerLines, groupOffsets: kept.map((g) => g.offset) };
};

/** The last index i with sorted[i] <= value, or -1. */
const floorIndex = (sorted: readonly number[], value: number): number => {
  let lo = 0;
  let hi = sorted.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) <= value) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
};

export const lineAt = (layout: Layout, line: number): Line => {
  const g = floorIndex(layout.headerLines, line);
  if (g < 0) return { kind: 'row', offset: line, group: null };
  const group = layout.groups[g] as Group;
  if (layout.headerLines[g] === line) return { kind: 'header', group, groupIndex: g };
  return { kind: 'row', offset: line - (g + 1), group };
};

/** The line showing the row at this offset (the inverse of lineAt for rows). */
export const lineOfOffset = (layout: Layout, offset: number): number => {
  return offset + floorIndex(layout.groupOffsets, offset) + 1;
};

/** Row offsets [start, end) shown by lines [lineStart, lineEnd). */
export const rowRangeOf = (layout: Layout, lineStart: number, lineEnd: number): { start: number; end: number } => {
  let start = Number.POSITIVE_INFINITY;
  let end = 0;
  for (const line of [lineStart, Math.max(lineStart, lineEnd - 1)]) {
    if (line < 0 || line >= layout.count) continue;
    const at = lineAt(layout, line);
    const offset = at.kind === 'row' ? at.offset : at.group.offset;
    start = Math.min(start, offset);
    end = Math.max(end, at.kind === 'row' ? offset + 1 : offset);
  }
  return Number.isFinite(start) ? { start, end: Math.max(start, end) } : { start: 0, end: 0 };
};
