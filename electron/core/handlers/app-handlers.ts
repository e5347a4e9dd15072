import type { Handlers } from '../ipc/handlers';
import { ok } from '../../../shared/result';
import type { HandlerContext } from './context';

export function createAppHandlers(ctx: HandlerContext): Pick<Handlers, 'app:info'> {
  return {
    'app:info': async () =>
      ok({
        version: ctx.version,
        host: ctx.host,
        platform: process.platform,
        dataDir: ctx.dataDir,
        localServiceUrl: ctx.localServiceUrl,
        activeWorkspaceId: ctx.workspaces.activeId(),
        vault: await ctx.vault.status(),
      }),
  };
}
