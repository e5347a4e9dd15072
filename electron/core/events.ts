import type { EventName, EventPayload } from '../../shared/ipc/contract';

export type CoreEventListener = <E extends EventName>(name: E, payload: EventPayload<E>) => void;

export interface CoreEvents {
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
  on(listener: CoreEventListener): () => void;
}

/** Events from core to every connected page. A throwing listener never stops the others. */
export function createCoreEvents(): CoreEvents {
  const listeners = new Set<CoreEventListener>();
  return {
    emit(name, payload) {
      for (const listener of [...listeners]) {
        try {
          listener(name, payload);
        } catch {
          // One broken transport must not break progress for the others.
        }
      }
    },
    on(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
