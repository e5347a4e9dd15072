import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { err, ok, type Result } from '../../shared/result';
import type { FileHandleRegistry } from '../core/files/file-handles';
import { resolveStagingPath, StagingErrorCode } from './staging-path';

/** Where staging writes and where it registers what it staged (core's `Core` satisfies it). */
export interface StagingCore {
  readonly stagingDir: string;
  readonly files: Pick<FileHandleRegistry, 'register' | 'alias'>;
}

/** What a successful `PUT /staging/...` answers: the handle of the staged root, for `files:scan`. */
export interface StagedFile {
  readonly handle: string;
  readonly bytes: number;
}

/**
 * Stream a request body to `<stagingDir>/<batch>/<relativePath>` and register its top-level root as a
 * picked root: the page gets an opaque handle, never the path. Bytes go to a short-named `.part` file
 * first (a dotfile the scanner skips) and are renamed when complete, so a dropped connection never
 * leaves a truncated file that looks whole, and a 255-byte name never grows past the limit. Never
 * rejects: every failure, cleanup included, is answered as data.
 */
export async function stageUpload(core: StagingCore, urlPath: string, body: IncomingMessage): Promise<Result<StagedFile>> {
  const target = resolveStagingPath(core.stagingDir, urlPath);
  if (!target.ok) return target;
  const { filePath, rootPath, relativePath, diskRelativePath } = target.value;
  const partPath = join(dirname(filePath), `.${randomBytes(6).toString('hex')}.part`);
  try {
    await mkdir(dirname(filePath), { recursive: true });
    const out = createWriteStream(partPath, { flags: 'wx' });
    await pipeline(body, out);
    await rename(partPath, filePath);
    const handle = core.files.register(rootPath);
    core.files.alias(handle, diskRelativePath, relativePath);
    return ok({ handle, bytes: out.bytesWritten });
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
