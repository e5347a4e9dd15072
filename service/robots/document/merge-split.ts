// /document/merge: the PDFs of a bundle as one, in the vendor's order (document_1, document_2… by `as`,
// else by `sort_by`: natural name order by default), joined by poppler's pdfunite. /document/split: the
// pages `pages` selects ("5", "5-10", a list, in the order given; all by default) as one new PDF, cut by
// pdfseparate and joined again. Both write meta.page_count (read back from the result).

import { copyFile, mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { describeResult } from '../file-record';
import { joinOrder, withRoles } from '../media/media-inputs';
import { outputDir, outputFile } from '../output-path';
import type { BundleRunner, RobotFileOutcome, RobotRunner } from '../robot-types';
import { unsuitable, wrongKind } from '../unsuitable-input';
import { isPdf, pageCount, pageEntries, selectPages } from './pdf-pages';
import { runTool } from './tools';

const failed = (code: string, what: string, run: { aborted: boolean; message: string }): RobotFileOutcome =>
  run.aborted ? { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' } : { ok: false, code, message: `${what} failed: ${run.message}` };

const copied = (from: string, to: string) =>
  copyFile(from, to).then(
    () => ({ ok: true, aborted: false, message: '' }),
    (e: Error) => ({ ok: false, aborted: false, message: e.message }),
  );

export const runDocumentMerge: BundleRunner = async (job) => {
  const { robot, params, outDir, signal } = job;
  const ordered = joinOrder(withRoles(params.use, job.inputs), params.sort_by).map((r) => r.file);
  const pdfs = ordered.filter(isPdf);
  if (pdfs.length === 0) return unsuitable(`Not a PDF: ${robot} needs PDF documents to merge`);
  const lead = pdfs[0]!;
  const dir = await outputDir(outDir, lead.id);
  const target = outputFile(dir, lead.basename, '.pdf');
  // pdfunite needs two inputs at least; one PDF is its own merge.
  const run = pdfs.length === 1 ? await copied(lead.localPath, target) : await runTool('pdfunite', [...pdfs.map((f) => f.localPath), target], signal);
  if (!run.ok) return failed('DOCUMENT_MERGE_ERROR', `Merging ${pdfs.map((f) => `"${f.name}"`).join(', ')}`, run);
  job.onProgress?.(1);
  return { ok: true, files: [await describeResult(lead, target, `${lead.basename}.pdf`, { merged_files: pdfs.length })] };
};

export const runDocumentSplit: RobotRunner = async (job) => {
  const { robot, params, input, outDir, signal } = job;
  if (!isPdf(input)) return wrongKind('a PDF', robot, input.mime);
  const count = await pageCount(input, signal);
  if (count === null) return { ok: false, code: 'DOCUMENT_SPLIT_ERROR', message: `"${input.name}" could not be read as a PDF (no page count).` };
  const entries = pageEntries(params.pages);
  const chosen = entries.length === 0 ? { pages: Array.from({ length: count }, (_, i) => i + 1) } : selectPages(entries, count);
  if ('problem' in chosen) return { ok: false, code: 'DOCUMENT_SPLIT_VALIDATION', message: `pages: ${chosen.problem}.` };
  const dir = await outputDir(outDir, input.id);
  const scratch = await mkdtemp(join(dir, '.split-'));
  try {
    const cut = await runTool('pdfseparate', ['--', input.localPath, join(scratch, 'page-%d.pdf')], signal);
    if (!cut.ok) return failed('DOCUMENT_SPLIT_ERROR', `Cutting "${input.name}" into pages`, cut);
    job.onProgress?.(0.5);
    const target = outputFile(dir, input.basename, '.pdf');
    const parts = chosen.pages.map((p) => join(scratch, `page-${p}.pdf`));
    const joined = parts.length === 1 ? await copied(parts[0]!, target) : await runTool('pdfunite', [...parts, target], signal);
    if (!joined.ok) return failed('DOCUMENT_SPLIT_ERROR', `Joining the pages of "${input.name}"`, joined);
    job.onProgress?.(1);
    return { ok: true, files: [await describeResult(input, target, `${input.basename}.pdf`, { pages: chosen.pages })] };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
};
