// What the document robots share about PDFs: is a file one, how many pages it has (poppler's pdfinfo,
// where ExifTool's page_count is missing), and page lists ("3", "2-5") read into page numbers. Pure but
// for pageCount.

import type { StoredFile } from '../file-record';
import { runTool } from './tools';

export const isPdf = (f: StoredFile): boolean => f.mime === 'application/pdf';

/** The number of pages of a PDF: its meta.page_count, else pdfinfo's; null when neither can tell. */
export async function pageCount(file: StoredFile, signal: AbortSignal): Promise<number | null> {
  const known = file.meta.page_count;
  if (typeof known === 'number' && Number.isInteger(known) && known > 0) return known;
  const info = await runTool('pdfinfo', ['--', file.localPath], signal, 60_000);
  const m = /^Pages:\s+(\d+)/m.exec(info.stdout);
  return m ? Number(m[1]) : null;
}

/** A page or a range of pages, 1-based, as the vendor writes them: "5" or "5-10". Null when it is neither. */
export function parsePageSpec(spec: string): { from: number; to: number } | null {
  const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(spec);
  if (!m) return null;
  const from = Number(m[1]);
  const to = m[2] === undefined ? from : Number(m[2]);
  return from >= 1 && to >= from ? { from, to } : null;
}

/** `pages` of /document/split as entries: a string may hold several, separated by commas ("1,3-4"). */
export const pageEntries = (pages: unknown): string[] =>
  (Array.isArray(pages) ? pages : typeof pages === 'string' ? [pages] : []).flatMap((p) => String(p).split(',')).map((p) => p.trim()).filter((p) => p !== '');

/** The page numbers the entries select, in their order; `count` pages exist. */
export function selectPages(entries: readonly string[], count: number): { pages: number[] } | { problem: string } {
  const pages: number[] = [];
  for (const entry of entries) {
    const range = parsePageSpec(entry);
    if (!range) return { problem: `"${entry}" is not a page or a range of pages such as "5" or "5-10"` };
    if (range.from > count) return { problem: `page ${range.from} was asked for, but the PDF has ${count} page${count === 1 ? '' : 's'}` };
    for (let p = range.from; p <= Math.min(range.to, count); p++) pages.push(p);
  }
  return { pages };
}
