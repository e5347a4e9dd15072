import type { Handlers } from '../ipc/handlers';
import { AppErrorCode, err, ok } from '../../../shared/result';
import { scanPaths } from '../files/folder-scanner';
import { thumbnailFromFile } from '../files/thumbnails';
import type { HandlerContext } from './context';

export function createFileHandlers(_ctx: HandlerContext): Pick<Handlers, 'files:scan' | 'files:thumbnail'> {
  return {
    'files:scan': async ({ paths }) => ok(await scanPaths(paths)),
    'files:thumbnail': async ({ path, size }) => {
      try {
        return ok({ dataUrl: await thumbnailFromFile(path, size) });
      } catch (cause) {
        return err(AppErrorCode.fileUnreadable, `Could not read ${path}: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
    },
  };
}
