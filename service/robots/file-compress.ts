// /file/compress: one tar (default) or zip archive per bundle of inputs (service-facts §8). How inputs
// are bundled is the executor's job: one archive per file by default, as the vendor does; one of everything
// with `bundle_steps`; one per original with `group_by_original`; `fields` picks the inputs; `as` names a
// role no archive has, so it changes nothing. This builds one archive.

import { parseIntParam } from '../instructions/robot-params';
import { writeTar, writeZip, type ArchiveEntry } from './archive-writers';
import { describeResult, splitName, type StoredFile } from './file-record';
import { outputDir, outputFile } from './output-path';
import type { BundleRunner } from './robot-types';

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Makes a path safe inside an archive, so unpacking it cannot write elsewhere: forward slashes, no
 * leading "/" or drive ("C:"), no "." or ".." parts, no control characters. Hidden names stay.
 */
export function safeArchivePath(path: string): string {
  const parts = path.replace(CONTROL, '').replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.' && p !== '..');
  if (/^[A-Za-z]:$/.test(parts[0] ?? '')) parts.shift();
  return parts.join('/') || 'file';
}

/** Archive paths for a layout; colliding paths get "_1", "_2", … before the extension. Pure. */
export function archivePaths(inputs: { file: StoredFile; fromStep: string }[], layout: string): string[] {
  const used = new Set<string>();
  return inputs.map(({ file, fromStep }) => {
    let path: string;
    if (layout === 'simple') path = file.name;
    else if (layout === 'relative-path') {
      const rel = file.user_meta?.relative_path ?? file.meta.relative_path;
      path = typeof rel === 'string' && rel !== '' ? rel : file.name;
    } else {
      // "advanced": a folder per step; results carry 2 chars of their original's prefix and their own.
      const prefix = fromStep === ':original' ? `${file.id.slice(0, 2)}_` : `${file.original_id.slice(0, 2)}_${file.id.slice(0, 2)}_`;
      path = `${fromStep}/${prefix}${file.name}`;
    }
    path = safeArchivePath(path);
    const { basename, ext } = splitName(path);
    let candidate = path;
    for (let n = 1; used.has(candidate); n++) candidate = `${basename}_${n}${ext ? `.${ext}` : ''}`;
    used.add(candidate);
    return candidate;
  });
}

export const runFileCompress: BundleRunner = async ({ params, inputs, outDir, signal }) => {
  const first = inputs[0];
  if (!first) return { ok: true, files: [] };
  const format = params.format === 'zip' ? 'zip' : 'tar';
  const gzip = format === 'tar' && params.gzip === true;
  const layout = typeof params.file_layout === 'string' ? params.file_layout : 'advanced';
  const base = typeof params.archive_name === 'string' && params.archive_name.trim() !== '' ? safeArchivePath(params.archive_name).replace(/\//g, '_') : 'archive';
  const suffix = `.${format === 'zip' ? 'zip' : gzip ? 'tar.gz' : 'tar'}`;
  const name = `${base}${suffix}`;
  const paths = archivePaths(inputs, layout);
  const entries: ArchiveEntry[] = inputs.map(({ file }, i) => ({ name: paths[i]!, localPath: file.localPath, size: file.size }));
  const target = outputFile(await outputDir(outDir, first.file.id), base, suffix);
  try {
    if (format === 'zip') await writeZip(target, entries, Math.abs(parseIntParam(params.compression_level) ?? -6), signal);
    else await writeTar(target, entries, gzip, signal);
  } catch (e) {
    if (signal.aborted) return { ok: false, code: 'ASSEMBLY_CANCELED', message: 'canceled' };
    return { ok: false, code: 'FILE_COMPRESS_ERROR', message: `The archive could not be written: ${(e as Error).message}` };
  }
  // An archive has many originals; its original_* fields name the first file's.
  return { ok: true, files: [await describeResult(first.file, target, name)] };
};
