import type { Handlers } from '../ipc/handlers';
import { ok } from '../../../shared/result';
import type { HandlerContext } from './context';

export function createRunHandlers(ctx: HandlerContext): Pick<Handlers, 'runs:start' | 'runs:list' | 'runs:get' | 'runs:cancel'> {
  return {
    'runs:start': (request) => ctx.runs.start(request),
    'runs:list': async () => ok(ctx.runs.list()),
    'runs:get': async ({ runId }) => ctx.runs.get(runId),
    'runs:cancel': ({ runId }) => ctx.runs.cancel(runId),
  };
}
