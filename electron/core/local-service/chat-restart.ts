import type { ChatStartOptions } from '../../../shared/local-service/chat-option';

export interface ChatRestartDeps {
  /** The options the next start would get (saved settings, key, environment). */
  options(): Promise<ChatStartOptions | undefined>;
  /** The options the running service has. */
  applied: ChatStartOptions | undefined;
  /** Assemblies executing in the service now (its admin channel); throws when it is not running. */
  executing(): Promise<number>;
  restart(chat: ChatStartOptions | undefined): Promise<unknown>;
  pollMs?: number;
  /** Longest wait for the new child to listen before `apply` answers anyway (the supervisor keeps trying). */
  readyTimeoutMs?: number;
  log?: (message: string) => void;
}

export interface ChatRestarter {
  /**
   * Brings the service to the saved settings: at once when no Assembly is executing (resolves once the new
   * child listens), else later, when they have ended (resolves at once with how many it waits for).
   */
  apply(): Promise<{ executing: number } | null>;
  /** The restart still waiting for executing Assemblies, or null. */
  pending(): { executing: number } | null;
  close(): void;
}

/**
 * New chat settings need a new service process (they are start options). A restart ends every executing
 * Assembly with ASSEMBLY_CRASHED, so the restart waits until none is executing; uploads and waiting
 * Assemblies survive a restart (tus resumes) and do not hold it up.
 */
export function createChatRestarter(deps: ChatRestartDeps): ChatRestarter {
  const pollMs = deps.pollMs ?? 1_000;
  const readyTimeoutMs = deps.readyTimeoutMs ?? 60_000;
  let applied = JSON.stringify(deps.applied ?? null);
  let waiting: { executing: number } | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let closed = false;

  const count = () => deps.executing().catch(() => 0);
  const restartNow = async (): Promise<void> => {
    const next = await deps.options();
    const wanted = JSON.stringify(next ?? null);
    if (wanted === applied) return;
    applied = wanted;
    let timeout: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      deps.restart(next).catch((cause: unknown) => deps.log?.(`restart with new chat settings: ${cause instanceof Error ? cause.message : String(cause)}`)),
      new Promise<void>((resolve) => (timeout = setTimeout(resolve, readyTimeoutMs))),
    ]);
    clearTimeout(timeout);
  };
  const poll = () => {
    timer = setTimeout(() => {
      timer = null;
      void (async () => {
        if (closed) return;
        const n = await count();
        if (n > 0) {
          waiting = { executing: n };
          return poll();
        }
        // Still "pending" until the new child listens: the section says so until then.
        await restartNow();
        waiting = null;
      })();
    }, pollMs);
    timer.unref?.();
  };

  return {
    async apply() {
      if (closed) return null;
      if (JSON.stringify((await deps.options()) ?? null) === applied) {
        // Saved back to what runs (or the environment decides): nothing to restart, nothing to wait for.
        if (timer) clearTimeout(timer);
        timer = null;
        waiting = null;
        return null;
      }
      const n = await count();
      if (n > 0) {
        waiting = { executing: n };
        if (!timer) poll();
        return waiting;
      }
      if (timer) clearTimeout(timer);
      timer = null;
      waiting = null;
      await restartNow();
      return null;
    },
    pending: () => waiting,
    close() {
      closed = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
  };
}
