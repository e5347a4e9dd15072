import type { Handlers } from '../ipc/handlers';
import { FirstSeen, getJobSlots, getSlotStats } from '../queue/queue-api';
import { withApi, type HandlerContext } from './context';

type QueueChannels = 'queue:jobSlots' | 'queue:slotStats';

/** The Queue screen: job slots now (polled) and slot use over time, for any workspace. */
export function createQueueHandlers(ctx: HandlerContext): Pick<Handlers, QueueChannels> {
  // Per workspace: when each job was first seen, for services that do not say when it started.
  const firstSeen = new Map<string, FirstSeen>();
  const seenIn = (workspaceId: string): FirstSeen => {
    let s = firstSeen.get(workspaceId);
    if (!s) firstSeen.set(workspaceId, (s = new FirstSeen()));
    return s;
  };
  return {
    'queue:jobSlots': ({ workspaceId }) => withApi(ctx, workspaceId, (api, id) => getJobSlots(api, seenIn(id))),
    'queue:slotStats': ({ workspaceId, ...q }) => withApi(ctx, workspaceId, (api) => getSlotStats(api, q)),
  };
}
