import type { Handlers } from '../ipc/handlers';
import { ok } from '../../../shared/result';
import type { HandlerContext } from './context';

export function createWorkspaceHandlers(ctx: HandlerContext): Pick<Handlers, 'workspaces:list'> {
  return {
    'workspaces:list': async () =>
      ok(
        await Promise.all(
          ctx.workspaces.list().map(async (w) => ({
            id: w.id,
            name: w.name,
            kind: w.kind,
            endpoint: w.endpoint,
            authKey: w.authKey,
            hasSecret: await ctx.canSign(w.id),
          })),
        ),
      ),
  };
}
