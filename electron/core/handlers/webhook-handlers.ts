import { err, ok } from '../../../shared/result';
import type { Handlers } from '../ipc/handlers';
import type { HandlerContext } from './context';

type WebhookChannels = 'webhooks:start' | 'webhooks:list' | 'webhooks:clear';

/** The receiver could not listen on loopback (no free port, a sandbox refusing sockets). */
export const WEBHOOK_TESTER_UNAVAILABLE = 'WEBHOOK_TESTER_UNAVAILABLE';

/** The in-app webhook tester: started on demand, listed, cleared. Verification happens in core (webhooks/). */
export function createWebhookHandlers(ctx: HandlerContext): Pick<Handlers, WebhookChannels> {
  return {
    'webhooks:start': async () => {
      try {
        return ok(await ctx.webhooks.start());
      } catch (cause) {
        return err(WEBHOOK_TESTER_UNAVAILABLE, `The webhook tester could not listen on 127.0.0.1: ${cause instanceof Error ? cause.message : String(cause)}`);
      }
    },
    'webhooks:list': async () => ok(ctx.webhooks.state()),
    'webhooks:clear': async () => ok(ctx.webhooks.clear()),
  };
}
