/** What @tanstack/virtual-core hands a range extractor: the rows in view and the overscan wanted. */
export interface ViewRange {
  readonly startIndex: number;
  readonly endIndex: number;
  readonly overscan: number;
  readonly count: number;
}

/**
 * The rows to render, in whole chunks of `chunk` rows covering the rows in view plus the overscan.
 * While a scroll stays inside the same chunks the rendered rows do not change, so that frame changes no
 * DOM and the browser only moves the already painted rows; a chunk boundary adds or drops `chunk` rows at once.
 */
export const chunkedRange = (range: ViewRange, chunk: number): number[] => {
  if (range.count <= 0) return [];
  const size = Math.max(1, Math.floor(chunk));
  const first = Math.max(0, Math.floor((range.startIndex - range.overscan) / size) * size);
  const last = Math.min(range.count - 1, (Math.floor((range.endIndex + range.overscan) / size) + 1) * size - 1);
  const rows: number[] = [];
  for (let i = first; i <= last; i++) rows.push(i);
  return rows;
};
