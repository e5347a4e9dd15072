import { describe, expect, it } from 'vitest';
import { backoffMs, initialState, transition, type SupervisorEvent, type SupervisorPolicy, type SupervisorState } from './supervisor-state';

const policy: SupervisorPolicy = { maxHealthFailures: 2, backoffBaseMs: 100, backoffMaxMs: 1_000 };

function run(events: SupervisorEvent[], state: SupervisorState = initialState(0)) {
  const effects: unknown[] = [];
  for (const event of events) {
    const next = transition(state, event, policy);
    state = next.state;
    effects.push(...next.effects);
  }
  return { state, effects };
}

describe('supervisor transitions', () => {
  it('restarts a crashed service on the port it first listened on, with growing backoff', () => {
    const crashTwice = run([
      { type: 'ready', url: 'http://127.0.0.1:4321', port: 4321 },
      { type: 'exited', reason: 'killed' },
      { type: 'restart-due' },
      { type: 'exited', reason: 'killed again' },
      { type: 'restart-due' },
    ]);
    expect(crashTwice.effects).toEqual([
      { type: 'schedule-restart', delayMs: 100 },
      { type: 'spawn', port: 4321 },
      { type: 'schedule-restart', delayMs: 200 },
      { type: 'spawn', port: 4321 },
    ]);
    expect(crashTwice.state).toMatchObject({ phase: 'starting', restarts: 2, url: 'http://127.0.0.1:4321' });
    // A healthy child resets the backoff.
    const healthy = run([{ type: 'ready', url: 'http://127.0.0.1:4321', port: 4321 }, { type: 'health-ok' }, { type: 'exited', reason: 'x' }], crashTwice.state);
    expect(healthy.effects).toEqual([{ type: 'schedule-restart', delayMs: 100 }]);
    expect(backoffMs(20, policy)).toBe(1_000);
  });

  it('says "not responding" at the first missed health check and kills only after several in a row', () => {
    const ready = run([{ type: 'ready', url: 'u', port: 1 }]).state;
    const once = run([{ type: 'health-failed', reason: 'timeout' }], ready);
    expect(once.state.phase).toBe('unresponsive');
    expect(once.effects).toEqual([]);
    const recovered = run([{ type: 'health-ok' }], once.state);
    expect(recovered.state).toMatchObject({ phase: 'running', healthFailures: 0, message: null });
    const hung = run([{ type: 'health-failed', reason: 'timeout' }, { type: 'health-failed', reason: 'timeout' }], ready);
    expect(hung.effects).toEqual([{ type: 'kill' }]);
    const restarting = run([{ type: 'exited', reason: 'SIGKILL' }], hung.state);
    expect(restarting.state).toMatchObject({ phase: 'restarting', retryInMs: 100 });
  });

  it('stops for good: nothing restarts a service the app is closing', () => {
    const stopped = run([{ type: 'ready', url: 'u', port: 1 }, { type: 'stop' }, { type: 'exited', reason: 'stopped' }, { type: 'restart-due' }]);
    expect(stopped.state.phase).toBe('stopped');
    expect(stopped.effects).toEqual([{ type: 'stop-child' }]);
  });
});
