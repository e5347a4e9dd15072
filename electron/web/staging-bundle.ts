import { writeFile } from 'node:fs/promises';
import { err, ok, type Result } from '../../shared/result';
import { encodeStagingUrl } from './page/page-bridge-logic';
import { resolveStagingPath } from './staging-path';
import { distinctSpelling } from './staging-spellings';
import { commitStaged, type StagingCore } from './staging-upload';

/**
 * Many small files in one request. A browser spends a few milliseconds of CPU on every request whatever
 * its size, so 2,000 thumbnails-sized files one PUT each crawl at ~150 files/s on a busy machine; in
 * bundles of 64 they stage many times faster. Body: one line of JSON (`{"files":[{"relativePath","size"}]}`)
 * then the files' bytes back to back. Each file is staged as a PUT would stage it and answered on its own.
 */

export const BUNDLE_PATH = '/staging-bundle/';
export const MAX_BUNDLE_FILES = 512;
/** The manifest line plus every file's bytes. */
export const MAX_BUNDLE_BYTES = 32 * 1024 ** 2;

export const BundleErrorCode = {
  invalid: 'STAGING_BUNDLE_INVALID',
  /** The bytes do not add up to the sizes announced (a file read short in the browser): send them one by one. */
  lengthMismatch: 'STAGING_BUNDLE_LENGTH_MISMATCH',
} as const;

export type BundleFileResult = { handle: string } | { error: { code: string; message: string } };

export interface ParsedBundle {
  readonly files: { relativePath: string; bytes: Buffer }[];
}

/** Splits a bundle body into its files. Pure. */
export function parseBundle(body: Buffer): Result<ParsedBundle> {
  const bad = (code: string, why: string) => err(code, `Invalid staging bundle: ${why}`, { httpCode: 400 });
  const newline = body.indexOf(0x0a);
  if (newline < 0) return bad(BundleErrorCode.invalid, 'no manifest line');
  let manifest: unknown;
  try {
    manifest = JSON.parse(body.subarray(0, newline).toString('utf8'));
  } catch {
    return bad(BundleErrorCode.invalid, 'the manifest is not JSON');
  }
  const list = (manifest as { files?: unknown } | null)?.files;
  if (!Array.isArray(list) || list.length === 0 || list.length > MAX_BUNDLE_FILES) return bad(BundleErrorCode.invalid, `1 to ${MAX_BUNDLE_FILES} files`);
  const files: ParsedBundle['files'] = [];
  let offset = newline + 1;
  for (const entry of list as unknown[]) {
    const { relativePath, size } = (entry ?? {}) as { relativePath?: unknown; size?: unknown };
    if (typeof relativePath !== 'string' || typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) return bad(BundleErrorCode.invalid, 'each file needs a relativePath and a size');
    if (offset + size > body.length) return bad(BundleErrorCode.lengthMismatch, 'fewer bytes than the sizes announce');
    files.push({ relativePath, bytes: body.subarray(offset, offset + size) });
    offset += size;
  }
  if (offset !== body.length) return bad(BundleErrorCode.lengthMismatch, 'more bytes than the sizes announce');
  return ok({ files });
}

/** Stages every file of a bundle; each answers for itself (a bad name fails that file, not the bundle). */
export async function stageBundle(core: StagingCore, batchId: string, body: Buffer): Promise<Result<{ results: BundleFileResult[] }>> {
  const parsed = parseBundle(body);
  if (!parsed.ok) return parsed;
  const results: BundleFileResult[] = [];
  // A few at once: the host's event loop also carries the bridge and core.
  const width = 8;
  for (let i = 0; i < parsed.value.files.length; i += width) {
    const slice = parsed.value.files.slice(i, i + width);
    const staged = await Promise.all(
      slice.map(async ({ relativePath, bytes }) => {
        const target = resolveStagingPath(core.stagingDir, encodeStagingUrl(batchId, relativePath));
        if (!target.ok) return target;
        return commitStaged(core, distinctSpelling(target.value), async (partPath) => {
          await writeFile(partPath, bytes, { flag: 'wx' });
          return bytes.length;
        });
      }),
    );
    for (const result of staged) results.push(result.ok ? { handle: result.value.handle } : { error: { code: result.error.code, message: result.error.message } });
  }
  return ok({ results });
}
