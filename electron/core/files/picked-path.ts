import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { BridgeErrorCode } from '../../../shared/ipc/bridge-errors';
import { err, type Result } from '../../../shared/result';
import type { FileHandleRegistry } from './file-handles';

/**
 * A picked file on disk, checked the way the folder scanner walks: below the picked root, through real
 * folders only. A link to a file is followed (the scanner lists it too), a link to a folder is not, so a
 * page cannot reach `/etc` through `photos/link-to-etc/passwd` even when the user's folder holds such a link.
 * `realDirs` caches resolved folders across the files of one request.
 */
export async function resolvePickedFile(
  files: FileHandleRegistry,
  handle: string,
  relativePath: string,
  realDirs: Map<string, Promise<string | null>> = new Map(),
): Promise<Result<string>> {
  const root = files.root(handle);
  if (!root.ok) return root;
  const target = files.resolve(handle, relativePath);
  if (!target.ok || target.value === root.value) return target;
  const real = (dir: string) => {
    let found = realDirs.get(dir);
    if (!found) {
      found = realpath(dir).catch(() => null);
      realDirs.set(dir, found);
    }
    return found;
  };
  const [realRoot, realDir] = await Promise.all([real(root.value), real(path.dirname(target.value))]);
  // A folder that does not exist (any more): let the read fail with its own clear reason.
  if (realRoot === null || realDir === null) return target;
  const inside = path.relative(realRoot, realDir);
  if (inside === '..' || inside.startsWith(`..${path.sep}`) || path.isAbsolute(inside)) {
    return err(BridgeErrorCode.pathOutsidePick, `"${relativePath.slice(0, 200)}" leads outside what the user picked (through a linked folder).`);
  }
  return target;
}
