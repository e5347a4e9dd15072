import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { err, ok, type Result } from '../../shared/result';
import type { FileHandleRegistry } from '../core/files/file-handles';
import { resolveStagingPath, StagingErrorCode, type StagingTarget } from './staging-path';
import { distinctSpelling } from './staging-spellings';

/** Where staging writes and where it registers what it staged (core's `Core` satisfies it). */
export interface StagingCore {
  readonly stagingDir: string;
  readonly files: Pick<FileHandleRegistry, 'register' | 'alias' | 'noteUnreadable'>;
}

/** What a successful `PUT /staging/...` answers: the handle of the staged root, for `files:scan`. */
export interface StagedFile {
  readonly handle: string;
  readonly bytes: number;
}

/** Partial copies live outside every batch (no batch id starts with a dot), so no walk ever meets one. */
export const PARTS_DIR = '.parts';

/**
 * Stream a request body to `<stagingDir>/<batch>/<relativePath>` and register its top-level root as a
 * picked root: the page gets an opaque handle, never the path. Bytes go to a short-named `.part` file in
 * `<stagingDir>/.parts` first and are renamed into place when complete, so a dropped connection never
 * leaves a truncated file that looks whole, and a folder walk never sees a half-written one. Never
 * rejects: every failure, cleanup included, is answered as data.
 */
export async function stageUpload(core: StagingCore, urlPath: string, body: IncomingMessage): Promise<Result<StagedFile>> {
  const target = resolveStagingPath(core.stagingDir, urlPath);
  if (!target.ok) return target;
  return commitStaged(core, distinctSpelling(target.value), async (partPath) => {
    const out = createWriteStream(partPath, { flags: 'wx' });
    await pipeline(body, out);
    return out.bytesWritten;
  });
}

/** Writes one file's bytes through a partial copy into place and registers its root (see stageUpload). */
export async function commitStaged(core: StagingCore, target: StagingTarget, write: (partPath: string) => Promise<number>): Promise<Result<StagedFile>> {
  const { filePath, rootPath, relativePath, diskRelativePath } = target;
  const partPath = join(core.stagingDir, PARTS_DIR, `${randomBytes(8).toString('hex')}.part`);
  try {
    await mkdir(dirname(partPath), { recursive: true });
    await mkdir(dirname(filePath), { recursive: true });
    const bytes = await write(partPath);
    await rename(partPath, filePath);
    const handle = core.files.register(rootPath);
    core.files.alias(handle, diskRelativePath, relativePath);
    return ok({ handle, bytes });
  } catch (cause) {
    const cleanup = await rm(partPath, { force: true }).then(
      () => '',
      (failure: unknown) => ` (and its partial copy could not be removed: ${messageOf(failure)})`,
    );
    // The page learns what went wrong, not where the host keeps its files.
    const message = `Could not stage ${relativePath}: ${messageOf(cause)}${cleanup}`.split(core.stagingDir).join('<staging>');
    const code = (cause as NodeJS.ErrnoException | undefined)?.code;
    // A name that clashes with one already staged (a file where a folder must go) is the page's mistake.
    if (code === 'ENOTDIR' || code === 'EEXIST' || code === 'EISDIR') return err(StagingErrorCode.conflict, message, { httpCode: 409 });
    return err(StagingErrorCode.writeFailed, message, { httpCode: code === 'ENOSPC' ? 507 : 500 });
  }
}

const messageOf = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

/** Longest reason a page may give for a file it could not read. */
const MAX_REASON_LENGTH = 500;
/** Longest path a report may name (Windows allows 32,767 characters). */
const MAX_REPORTED_PATH = 32_767;

/**
 * The page could not read a file it was given (no permission, moved, changed since it was picked): nothing
 * is staged, but its root is registered and the reason noted on it, so the draft lists the file as
 * skipped with that reason and the rest of the drop goes on.
 */
export function reportUnreadable(core: StagingCore, urlPath: string, report: { reason: string; relativePath: string }): Result<StagedFile> {
  const target = resolveStagingPath(core.stagingDir, urlPath);
  if (!target.ok) return target;
  // eslint-disable-next-line no-control-regex
  const clean = report.reason.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim().slice(0, MAX_REASON_LENGTH) || 'The browser could not read it.';
  // The URL names the root (any path fits in a body, however long); the file's own path must lie below it.
  const root = target.value.relativePath;
  const below = report.relativePath === root || report.relativePath.startsWith(`${root}/`);
  const relativePath = below ? report.relativePath.replace(/\0/g, '').slice(0, MAX_REPORTED_PATH) : root;
  const handle = core.files.register(target.value.rootPath);
  core.files.noteUnreadable(handle, relativePath, clean);
  return ok({ handle, bytes: 0 });
}
