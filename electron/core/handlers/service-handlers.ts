import type { Handlers } from '../ipc/handlers';
import { ok } from '../../../shared/result';
import type { HandlerContext } from './context';
import { listChatModels } from '../local-service/chat-models';

/** Answered by core alone: it must stay fast while the service is busy, hung or restarting. */
export function createServiceHandlers(ctx: HandlerContext): Pick<Handlers, 'service:status' | 'service:chatSettings' | 'service:saveChatSettings' | 'service:chatModels'> {
  const view = async () => ({ ...(await ctx.chatSettings.view()), pendingRestart: ctx.chatRestart.pending() });
  return {
    'service:status': async () => ok(ctx.serviceStatus()),
    'service:chatSettings': async () => ok(await view()),
    'service:saveChatSettings': async (input) => {
      const saved = await ctx.chatSettings.save(input);
      if (!saved.ok) return saved;
      await ctx.chatRestart.apply();
      return ok(await view());
    },
    // The typed key, else the stored one of that same endpoint (it never leaves core otherwise).
    'service:chatModels': async ({ endpoint, apiKey, timeoutMs }) =>
      listChatModels({ endpoint, apiKey: apiKey ?? (await ctx.chatSettings.storedKeyFor(endpoint)), ...(timeoutMs !== undefined ? { timeoutMs } : {}) }),
  };
}
