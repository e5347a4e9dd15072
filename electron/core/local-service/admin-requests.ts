import type { AdminAnswer, AdminOp, ChildMessage, ParentMessage } from '../../../shared/local-service/child-messages';

/** Pairs core's admin requests to the service's child with their answers (by request id). */
export interface AdminRequests {
  request(op: AdminOp, timeoutMs?: number): Promise<AdminAnswer>;
  /** Feed every parsed child message here; the admin answers are taken. */
  onMessage(message: ChildMessage): void;
  /** The child is gone: every pending request fails. */
  fail(reason: string): void;
}

export function createAdminRequests(send: (message: ParentMessage) => boolean): AdminRequests {
  let nextId = 1;
  const pending = new Map<number, { resolve: (a: AdminAnswer) => void; reject: (e: Error) => void; timer: ReturnType<typeof setTimeout> }>();
  const settle = (id: number) => {
    const p = pending.get(id);
    if (p) {
      clearTimeout(p.timer);
      pending.delete(id);
    }
    return p;
  };
  return {
    request(op, timeoutMs = 10_000) {
      const requestId = nextId++;
      return new Promise<AdminAnswer>((resolve, reject) => {
        const timer = setTimeout(() => settle(requestId)?.reject(new Error(`the local service did not answer within ${timeoutMs} ms`)), timeoutMs);
        timer.unref?.();
        pending.set(requestId, { resolve, reject, timer });
        if (!send({ type: 'admin', requestId, ...op })) settle(requestId)?.reject(new Error('the local service is not running'));
      });
    },
    onMessage(message) {
      if (message.type === 'admin-result') settle(message.requestId)?.resolve(message.answer);
      else if (message.type === 'admin-failed') settle(message.requestId)?.reject(new Error(message.message));
    },
    fail(reason) {
      for (const id of [...pending.keys()]) settle(id)?.reject(new Error(reason));
    },
  };
}
