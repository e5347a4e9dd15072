import type { ServicePhase, ServiceStatus } from '../../../shared/ipc/service-models';

/**
 * The supervisor's state machine as pure transitions (the runner in supervisor.ts performs the effects):
 *
 *   starting ──ready──▶ running ──health fails──▶ unresponsive ──N fails──▶ (kill -9)
 *      ▲                  ▲  ◀──────health ok─────────┘                       │
 *      │                  └─────────────────────────────────────────┐         ▼
 *   restart-due ◀── restarting (backoff) ◀──────────── exited ◀── any running phase
 *
 * and `stop` from anywhere ends in `stopped`, which ignores everything after.
 */

export interface SupervisorPolicy {
  /** Consecutive failed health checks before a child is declared hung and killed. */
  maxHealthFailures: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

export interface SupervisorState {
  phase: ServicePhase;
  /** 0 = an ephemeral port, until the first start; then that port, kept across restarts. */
  port: number;
  url: string | null;
  /** Failed starts in a row (drives the backoff); reset once a child answers a health check. */
  attempt: number;
  healthFailures: number;
  restarts: number;
  retryInMs: number | null;
  message: string | null;
}

export type SupervisorEvent =
  | { type: 'ready'; url: string; port: number }
  | { type: 'exited'; reason: string }
  | { type: 'health-ok' }
  | { type: 'health-failed'; reason: string }
  | { type: 'restart-due' }
  /** The app asks for a new child (new settings): stop this one cleanly, then start at once, no backoff. */
  | { type: 'replace'; reason: string }
  | { type: 'stop' };

export type SupervisorEffect =
  | { type: 'spawn'; port: number }
  | { type: 'kill' }
  | { type: 'schedule-restart'; delayMs: number }
  /** Stop the running child (its exit is not a crash), then `restart-due`. */
  | { type: 'replace-child' }
  | { type: 'stop-child' };

export const initialState = (port: number): SupervisorState => ({
  phase: 'starting',
  port,
  url: null,
  attempt: 0,
  healthFailures: 0,
  restarts: 0,
  retryInMs: null,
  message: null,
});

/** base, 2·base, 4·base, ... capped: a crash loop does not spin the CPU, a single crash restarts at once. */
export function backoffMs(attempt: number, policy: SupervisorPolicy): number {
  return Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
}

const alive = (phase: ServicePhase) => phase === 'starting' || phase === 'running' || phase === 'unresponsive';

export function transition(
  state: SupervisorState,
  event: SupervisorEvent,
  policy: SupervisorPolicy,
): { state: SupervisorState; effects: SupervisorEffect[] } {
  const same = { state, effects: [] };
  if (state.phase === 'stopped') return same;
  switch (event.type) {
    case 'stop':
      return { state: { ...state, phase: 'stopped', retryInMs: null, message: null }, effects: [{ type: 'stop-child' }] };
    case 'ready':
      if (state.phase !== 'starting') return same;
      return {
        state: { ...state, phase: 'running', url: event.url, port: event.port, healthFailures: 0, retryInMs: null, message: null },
        effects: [],
      };
    case 'health-ok':
      if (state.phase !== 'running' && state.phase !== 'unresponsive') return same;
      return { state: { ...state, phase: 'running', attempt: 0, healthFailures: 0, message: null }, effects: [] };
    case 'health-failed': {
      if (state.phase !== 'running' && state.phase !== 'unresponsive') return same;
      const healthFailures = state.healthFailures + 1;
      const next = { ...state, phase: 'unresponsive' as const, healthFailures, message: `The local service is not responding (${event.reason}).` };
      return { state: next, effects: healthFailures >= policy.maxHealthFailures ? [{ type: 'kill' }] : [] };
    }
    case 'exited': {
      if (!alive(state.phase)) return same;
      const attempt = state.attempt + 1;
      const delayMs = backoffMs(attempt, policy);
      return {
        state: { ...state, phase: 'restarting', attempt, healthFailures: 0, retryInMs: delayMs, message: event.reason },
        effects: [{ type: 'schedule-restart', delayMs }],
      };
    }
    case 'replace':
      if (!alive(state.phase)) return same;
      return {
        state: { ...state, phase: 'restarting', attempt: 0, healthFailures: 0, retryInMs: 0, message: event.reason },
        effects: [{ type: 'replace-child' }],
      };
    case 'restart-due':
      if (state.phase !== 'restarting') return same;
      return { state: { ...state, phase: 'starting', restarts: state.restarts + 1, retryInMs: null }, effects: [{ type: 'spawn', port: state.port }] };
  }
}

/** What the renderer sees. */
export const statusOf = (state: SupervisorState): ServiceStatus => ({
  phase: state.phase,
  url: state.url,
  restarts: state.restarts,
  retryInMs: state.retryInMs,
  message: state.message,
});
