import type { Handlers } from '../ipc/handlers';
import { ok } from '../../../shared/result';
import type { HandlerContext } from './context';

type TransferChannels = 'transfers:start' | 'transfers:overview' | 'transfers:rows' | 'transfers:control' | 'transfers:clearFinished' | 'transfers:settings' | 'transfers:saveSettings';

export function createTransferHandlers(ctx: HandlerContext): Pick<Handlers, TransferChannels> {
  return {
    // The draft (held in core) becomes a transfer; its walk may still be running and feeds the queue.
    'transfers:start': async ({ workspaceId, instructions, recipe }) => {
      // Checked before the draft is handed over: a refused Start leaves the Upload list as it was.
      const refused = await ctx.transfers.check({ ...(workspaceId ? { workspaceId } : {}), instructions });
      if (!refused.ok) return refused;
      const draft = ctx.drafts.take();
      if (!draft.ok) return draft;
      return ctx.transfers.start({ ...(workspaceId ? { workspaceId } : {}), instructions, ...(recipe ? { recipe } : {}), feed: draft.value });
    },
    'transfers:overview': async () => ok(ctx.transfers.overview()),
    'transfers:rows': async (query) => ok(ctx.transfers.rows(query)),
    'transfers:control': async ({ action, scope, resend }) => ok(ctx.transfers.control(action, scope, { resend: resend === true })),
    'transfers:clearFinished': async () => ok(ctx.transfers.clearFinished()),
    'transfers:settings': async () => ok(ctx.transfers.settings()),
    'transfers:saveSettings': async (change) => ctx.transfers.saveSettings(change),
  };
}
