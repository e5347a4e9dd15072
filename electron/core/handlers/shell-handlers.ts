import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Handlers } from '../ipc/handlers';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { HandlerContext } from './context';

const isInside = (dir: string, target: string) => {
  const rel = path.relative(path.resolve(dir), path.resolve(target));
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
};

/**
 * Opening a file runs whatever app the OS picks, so the untrusted page may open only what core saved
 * (the downloads folder). Revealing in the file manager runs nothing and works for any existing path.
 */
export function createShellHandlers(ctx: HandlerContext): Pick<Handlers, 'shell:openPath' | 'shell:revealPath' | 'shell:openUrl'> {
  const exists = async (target: string): Promise<Result<void>> => {
    try {
      await stat(target);
      return ok(undefined);
    } catch {
      return err(AppErrorCode.notFound, `Not found: ${target}`);
    }
  };
  return {
    'shell:openPath': async ({ path: target }) => {
      if (!isInside(ctx.downloadsDir, target)) {
        return err(AppErrorCode.invalidRequest, `Only files in the downloads folder (${ctx.downloadsDir}) can be opened.`);
      }
      const found = await exists(target);
      if (!found.ok) return found;
      await ctx.desktop.openPath(path.resolve(target));
      return ok({});
    },
    // Only web addresses: a page must not make the OS run a file: or custom-scheme URL.
    'shell:openUrl': async ({ url }) => {
      if (!/^https?:\/\//i.test(url)) return err(AppErrorCode.invalidRequest, 'Only http and https addresses open in the browser.');
      try {
        await ctx.desktop.openExternal(url);
      } catch (cause) {
        return err(AppErrorCode.internal, `Could not open the browser: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
      return ok({});
    },
    'shell:revealPath': async ({ path: target }) => {
      const found = await exists(target);
      if (!found.ok) return found;
      await ctx.desktop.revealPath(path.resolve(target));
      return ok({});
    },
  };
}
