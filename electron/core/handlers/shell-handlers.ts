import { stat } from 'node:fs/promises';
import path from 'node:path';
import { BridgeErrorCode } from '../../../shared/ipc/bridge-errors';
import type { Handlers } from '../ipc/handlers';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { DownloadLedger } from '../files/download-ledger';
import { isLoopbackHost, isSafeExternalUrl } from '../security/external-url';
import type { HandlerContext } from './context';

/**
 * Opening a file runs whatever app the OS picks, and revealing one tells the page it exists, so the
 * untrusted page may open or reveal only what results:download wrote this session. URLs go to the system
 * browser under the same rule as window.open (security/external-url.ts).
 */
export function createShellHandlers(ctx: HandlerContext, downloads: DownloadLedger): Pick<Handlers, 'shell:openPath' | 'shell:revealPath' | 'shell:openUrl'> {
  const downloaded = async (target: string): Promise<Result<string>> => {
    if (!downloads.has(target)) {
      return err(BridgeErrorCode.pathNotAppWritten, 'Only files Assemblyline downloaded can be opened or shown.');
    }
    try {
      await stat(target);
      return ok(path.resolve(target));
    } catch {
      return err(AppErrorCode.notFound, `Not found (moved or deleted): ${path.basename(target)}`);
    }
  };
  // The embedded service (and a workspace on this computer) serve plain http on loopback.
  const loopbackOrigins = () =>
    [ctx.localServiceUrl, ...ctx.workspaces.list().map((w) => w.endpoint)].filter((u): u is string => {
      try {
        return typeof u === 'string' && isLoopbackHost(new URL(u).hostname);
      } catch {
        return false;
      }
    });
  return {
    'shell:openPath': async ({ path: target }) => {
      const found = await downloaded(target);
      if (!found.ok) return found;
      await ctx.desktop.openPath(found.value);
      return ok({});
    },
    'shell:openUrl': async ({ url }) => {
      if (!isSafeExternalUrl(url, loopbackOrigins())) {
        return err(BridgeErrorCode.urlNotAllowed, 'Only https addresses without a user name or password open in the browser.');
      }
      try {
        await ctx.desktop.openExternal(url);
      } catch (cause) {
        return err(AppErrorCode.internal, `Could not open the browser: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
      return ok({});
    },
    'shell:revealPath': async ({ path: target }) => {
      const found = await downloaded(target);
      if (!found.ok) return found;
      await ctx.desktop.revealPath(found.value);
      return ok({});
    },
  };
}
