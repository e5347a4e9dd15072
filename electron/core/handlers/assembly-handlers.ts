import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import type { CancelManyResult, ReplayManyResult } from '../../../shared/ipc/assembly-models';
import { isAssemblyBusy } from '../../../shared/api/codes';
import { ok, type Result } from '../../../shared/result';
import { getAssemblyStatus, getNotifications, listAssemblies, replayAssembly, replayNotification, statusUrlOf } from '../assemblies/assembly-api';
import { mergeRuns } from '../assemblies/merge-runs';
import type { Handlers } from '../ipc/handlers';
import type { ApiClient } from '../api/api-client';
import { withApi, type HandlerContext } from './context';

type AssemblyChannels = 'assemblies:list' | 'assemblies:get' | 'assemblies:cancel' | 'assemblies:cancelMany' | 'assemblies:follow' | 'assemblies:notifications' | 'assemblies:replayNotification' | 'assemblies:replay' | 'assemblies:replayMany';

/** Requests sent at once by a bulk replay or cancel (the service paces the rest with 413/429, which the client retries). */
const BULK_CONCURRENCY = 4;

/** `work` for each distinct id (lowercased), at most `limit` at once. */
async function eachAtOnce(ids: readonly string[], limit: number, work: (id: string) => Promise<void>): Promise<void> {
  const queue = [...new Set(ids.map((a) => a.toLowerCase()))];
  const worker = async () => {
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) await work(next);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

/** The last status records read per workspace and Assembly: results:thumbnail checks URLs against them. */
export interface StatusMemo {
  get(workspaceId: string, assemblyId: string): AssemblyStatus | undefined;
  set(workspaceId: string, assemblyId: string, status: AssemblyStatus): void;
}

export function createStatusMemo(limit = 200): StatusMemo {
  const memo = new Map<string, AssemblyStatus>();
  const key = (w: string, a: string) => `${w}\u0000${a.toLowerCase()}`;
  return {
    get: (w, a) => memo.get(key(w, a)),
    set: (w, a, status) => {
      const k = key(w, a);
      memo.delete(k);
      memo.set(k, status);
      if (memo.size > limit) memo.delete(memo.keys().next().value as string);
    },
  };
}

/** Replays the service lists for a parent: at most this many (newest first). */
const REPLAYS_LISTED = 100;

/**
 * Every replay of an Assembly the service lists: `GET /assemblies` with its id as the keyword, keeping the
 * items whose `parent_id` is that id (the local service matches keywords against parent_id; a service that
 * does not just lists none). A refusal (no `assemblies:read`) is not the detail's error: none listed.
 */
async function replaysListed(api: ApiClient, parentId: string): Promise<string[]> {
  const page = await listAssemblies(api, { state: 'all', keywords: [parentId], page: 1, pageSize: REPLAYS_LISTED });
  return page.ok ? page.value.items.filter((i) => i.id && i.parentId?.toLowerCase() === parentId).map((i) => i.id!.toLowerCase()) : [];
}

/** The listed replays (newest first), then the ones this app started that the list did not have. Pure. */
export const mergeReplays = (listed: readonly string[], started: readonly string[]): string[] => [...new Set([...listed, ...started.map((s) => s.toLowerCase())])];

/** Activity's Assembly browser and the detail of any Assembly: list, status, live follow, notifications, replay. */
export function createAssemblyHandlers(ctx: HandlerContext, statuses: StatusMemo): Pick<Handlers, AssemblyChannels> {
  // Replays this app started, by parent: the service's list cannot filter by parent_id.
  const replays = new Map<string, string[]>();
  const noteReplay = (parentId: string, childId: string) => replays.set(parentId, [...(replays.get(parentId) ?? []), childId]);

  const runsOf = (workspaceId: string) => ctx.runs.list().filter((run) => run.workspaceId === workspaceId);

  /**
   * Cancel one running Assembly; an ended one is left alone (DELETE would turn even a completed one into
   * ASSEMBLY_CANCELED) and its record is the answer. One of this app's runs is canceled through the run, so
   * its uploads stop instead of failing one by one.
   */
  async function cancelOne(api: ApiClient, workspaceId: string, assemblyId: string): Promise<Result<AssemblyStatus>> {
    const wanted = assemblyId.toLowerCase();
    const before = await getAssemblyStatus(api, wanted);
    if (!before.ok || !isAssemblyBusy(before.value)) return before;
    const run = runsOf(workspaceId).find((r) => r.assemblyId?.toLowerCase() === wanted);
    const remember = (status: Result<AssemblyStatus>) => {
      if (status.ok) statuses.set(workspaceId, wanted, status.value);
      return status;
    };
    if (!run) return remember(await api.cancelAssembly(statusUrlOf(api, wanted)));
    const canceled = await ctx.runs.cancel(run.runId);
    if (!canceled.ok) return canceled;
    // A run canceled before it had the service's record cancels the Assembly later: do it now instead.
    const after = await getAssemblyStatus(api, wanted);
    return remember(after.ok && isAssemblyBusy(after.value) ? await api.cancelAssembly(statusUrlOf(api, wanted)) : after);
  }

  return {
    'assemblies:list': ({ workspaceId, ...query }) =>
      withApi(ctx, workspaceId, async (api, id) => {
        const page = await listAssemblies(api, { workspaceId, ...query });
        if (!page.ok) return page;
        const merged = mergeRuns(page.value, runsOf(id), { workspaceId, ...query });
        return ok({ ...merged, page: query.page, pageSize: query.pageSize });
      }),

    'assemblies:get': ({ workspaceId, assemblyId }) =>
      withApi(ctx, workspaceId, async (api, id) => {
        const wanted = assemblyId.toLowerCase();
        // The status and the replays at once: the list's keywords match parent_id on the local service.
        const [status, listed] = await Promise.all([getAssemblyStatus(api, wanted), replaysListed(api, wanted)]);
        if (!status.ok) return status;
        statuses.set(id, assemblyId, status.value);
        const run = runsOf(id).find((r) => r.assemblyId?.toLowerCase() === wanted);
        return ok({ status: status.value, runId: run?.runId ?? null, replays: mergeReplays(listed, replays.get(wanted) ?? []) });
      }),

    'assemblies:cancel': ({ workspaceId, assemblyId }) => withApi(ctx, workspaceId, (api, id) => cancelOne(api, id, assemblyId)),

    'assemblies:cancelMany': ({ workspaceId, assemblyIds }) =>
      withApi(ctx, workspaceId, async (api, id) => {
        const result: CancelManyResult = { canceled: [], alreadyEnded: [], failed: [] };
        await eachAtOnce(assemblyIds, BULK_CONCURRENCY, async (assemblyId) => {
          const status = await cancelOne(api, id, assemblyId);
          if (!status.ok) result.failed.push({ assemblyId, code: status.error.code, message: status.error.message });
          else (status.value.ok === 'ASSEMBLY_CANCELED' ? result.canceled : result.alreadyEnded).push(assemblyId);
        });
        return ok(result);
      }),

    'assemblies:follow': ({ workspaceId, assemblyId }) =>
      withApi(ctx, workspaceId, async (api, id) => {
        const status = await getAssemblyStatus(api, assemblyId);
        if (!status.ok) return status;
        statuses.set(id, assemblyId, status.value);
        const following = ctx.assemblyFollower.follow(`${id}:${assemblyId.toLowerCase()}`, status.value, async (url, hooks) => {
          const next = await api.getAssembly(url, hooks);
          if (next.ok) statuses.set(id, assemblyId, next.value);
          return next;
        }, api.transport.fetch);
        return ok({ following });
      }),

    'assemblies:notifications': ({ workspaceId, assemblyId }) => withApi(ctx, workspaceId, (api) => getNotifications(api, assemblyId)),

    'assemblies:replayNotification': ({ workspaceId, assemblyId, notifyUrl, wait }) => withApi(ctx, workspaceId, (api) => replayNotification(api, assemblyId, { notifyUrl, wait })),

    'assemblies:replay': ({ workspaceId, assemblyId, ...options }) =>
      withApi(ctx, workspaceId, async (api) => {
        const started = await replayAssembly(api, assemblyId, options);
        if (started.ok) noteReplay(started.value.parentId, started.value.assemblyId);
        return started;
      }),

    'assemblies:replayMany': ({ workspaceId, assemblyIds, ...options }) =>
      withApi(ctx, workspaceId, async (api) => {
        const result: ReplayManyResult = { started: [], failed: [] };
        await eachAtOnce(assemblyIds, BULK_CONCURRENCY, async (next) => {
          const started = await replayAssembly(api, next, options);
          if (started.ok) {
            noteReplay(started.value.parentId, started.value.assemblyId);
            result.started.push(started.value);
          } else result.failed.push({ parentId: next, code: started.error.code, message: started.error.message });
        });
        return ok(result);
      }),
  };
}
