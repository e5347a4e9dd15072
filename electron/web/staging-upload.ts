import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { dirname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { err, ok, type Result } from '../../shared/result';
import { resolveStagingPath, StagingErrorCode } from './staging-path';

/** What a successful `PUT /staging/...` answers: where the bytes landed and the root to scan. */
export interface StagedFile {
  readonly path: string;
  readonly root: string;
  readonly bytes: number;
}

/**
 * Stream a request body to `<stagingDir>/<batch>/<relativePath>`. Bytes go to a `.part` file first and
 * are renamed when complete, so a dropped connection never leaves a truncated file that looks whole.
 */
export async function stageUpload(stagingDir: string, urlPath: string, body: IncomingMessage): Promise<Result<StagedFile>> {
  const target = resolveStagingPath(stagingDir, urlPath);
  if (!target.ok) return target;
  const { filePath, rootPath } = target.value;
  const partPath = `${filePath}.${randomBytes(6).toString('hex')}.part`;
  try {
    await mkdir(dirname(filePath), { recursive: true });
    const out = createWriteStream(partPath, { flags: 'wx' });
    await pipeline(body, out);
    await rename(partPath, filePath);
    return ok({ path: filePath, root: rootPath, bytes: out.bytesWritten });
  } catch (cause) {
    await rm(partPath, { force: true });
    const message = cause instanceof Error ? cause.message : String(cause);
    return err(StagingErrorCode.writeFailed, `Could not stage ${target.value.relativePath}: ${message}`);
  }
}
