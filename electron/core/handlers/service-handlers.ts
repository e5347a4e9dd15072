import type { Handlers } from '../ipc/handlers';
import { ok } from '../../../shared/result';
import type { HandlerContext } from './context';

/** Answered by core alone: it must stay fast while the service is busy, hung or restarting. */
export function createServiceHandlers(ctx: HandlerContext): Pick<Handlers, 'service:status'> {
  return {
    'service:status': async () => ok(ctx.serviceStatus()),
  };
}
