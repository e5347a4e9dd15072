import type { AssemblyFile } from '../../../../shared/api/assembly-status';

/** One file "Download results" saves: its step, URL and the name it is saved under. */
export interface ResultDownload {
  step: string;
  url: string;
  name: string;
}

/**
 * Every result file of an Assembly with a URL, step by step in the record's order, each URL once (a file
 * can be listed by two steps). Named as the run view names them (name, basename, id). Pure.
 */
export function resultDownloads(results: Record<string, readonly AssemblyFile[]>): ResultDownload[] {
  const seen = new Set<string>();
  const out: ResultDownload[] = [];
  for (const [step, files] of Object.entries(results)) {
    for (const file of files) {
      const url = file.ssl_url || file.url;
      if (!url || seen.has(url)) continue;
      seen.add(url);
      out.push({ step, url, name: file.name || file.basename || file.id || 'result' });
    }
  }
  return out;
}

export interface DownloadTally {
  total: number;
  saved: number;
  failed: { name: string; code: string; message: string }[];
}

/** "Downloading 3 of 7…" while it runs; "Saved 7 files." / "Saved 5 of 7 files; 2 failed (CODE: …)." after. Pure. */
export function downloadTallyText(t: DownloadTally, running: boolean): string {
  const files = (n: number) => `${n.toLocaleString('en-US')} file${n === 1 ? '' : 's'}`;
  if (running) return `Downloading ${Math.min(t.saved + t.failed.length + 1, t.total)} of ${t.total.toLocaleString('en-US')}…`;
  if (t.failed.length === 0) return `Saved ${files(t.saved)}.`;
  const first = t.failed[0]!;
  return `Saved ${t.saved.toLocaleString('en-US')} of ${files(t.total)}; ${t.failed.length} failed (${first.name}: ${first.code} — ${first.message}).`;
}
