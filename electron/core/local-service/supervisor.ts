import type { ChatStartOptions } from '../../../shared/local-service/chat-option';
import { request } from 'node:http';
import type { AdminAnswer, AdminOp } from '../../../shared/local-service/child-messages';
import type { NotifyOptions } from '../../../shared/local-service/notify-options';
import type { ServiceStatus } from '../../../shared/ipc/service-models';
import type { ServiceChild, ServiceExit, ServiceProcessPort, ServiceReady } from '../ports/service-process';
import { initialState, statusOf, transition, type SupervisorEffect, type SupervisorEvent, type SupervisorPolicy } from './supervisor-state';

export interface SupervisorOptions {
  process: ServiceProcessPort;
  dataDir: string;
  /** 0 (default): an ephemeral port for the first start, then the same one on every restart. */
  port?: number;
  /** The service's notify options (the host read them from its environment), sent at every start. */
  notifications?: NotifyOptions;
  /** Robot jobs at once (ASSEMBLYLINE_JOB_SLOTS, read by the host); absent: the service's default. */
  jobSlots?: number;
  /** /ai/chat's endpoint (ASSEMBLYLINE_CHAT_*, read by the host); absent: chat steps say it is not configured. */
  chat?: ChatStartOptions;
  healthIntervalMs?: number;
  healthTimeoutMs?: number;
  maxHealthFailures?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** How long a stopping child may take to close its database before it is killed. */
  stopGraceMs?: number;
  /** A child that has not listened within this long is killed (and restarted). */
  startTimeoutMs?: number;
  onStatus?: (status: ServiceStatus) => void;
  /** Every time a child listens (first start and each restart). */
  onReady?: (ready: ServiceReady) => void;
  log?: (message: string) => void;
}

export interface ServiceSupervisor {
  /** Resolves when the first child listens; rejects when it could not (the supervisor keeps retrying). */
  readonly firstStart: Promise<ServiceReady>;
  status(): ServiceStatus;
  /** The account and URL of the last child that listened (unchanged by restarts, same port and data). */
  current(): ServiceReady | null;
  /** The running child's process id (tests signal it). */
  pid(): number | undefined;
  /** An admin request to the running child (its own keys, restoring full access); rejects while none runs. */
  admin(op: AdminOp): Promise<AdminAnswer>;
  /**
   * Start a new child with these chat options (the running one is stopped cleanly first, its exit is no
   * crash); resolves when the new child listens. Callers wait for no executing Assembly first.
   */
  restartWith(change: { chat: ChatStartOptions | undefined }): Promise<ServiceReady>;
  close(): Promise<void>;
}

/**
 * Starts the embedded service in its own process and keeps it alive: a health check (GET / with a short
 * timeout) every few seconds, kill -9 of a child that stops answering, restart with exponential backoff on
 * the same port after any exit. Status changes go to `onStatus` (the header's "Local service restarting…").
 */
export function superviseLocalService(options: SupervisorOptions): ServiceSupervisor {
  const policy: SupervisorPolicy = {
    // A busy service (hundreds of uploads being described) may hold its event loop for seconds: declare it
    // hung only after several long misses in a row (about half a minute), but show "not responding" at once.
    maxHealthFailures: options.maxHealthFailures ?? 4,
    backoffBaseMs: options.backoffBaseMs ?? 250,
    backoffMaxMs: options.backoffMaxMs ?? 30_000,
  };
  const healthIntervalMs = options.healthIntervalMs ?? 2_000;
  const healthTimeoutMs = options.healthTimeoutMs ?? 5_000;
  const startTimeoutMs = options.startTimeoutMs ?? 60_000;
  const log = options.log ?? ((message: string) => console.error(`local service: ${message}`));
  let state = initialState(options.port ?? 0);
  let chat = options.chat;
  /** restartWith callers, told when the next child listens (or could not start). */
  let waiters: { resolve: (ready: ServiceReady) => void; reject: (cause: Error) => void }[] = [];
  let child: ServiceChild | null = null;
  let generation = 0;
  let current: ServiceReady | null = null;
  let restartTimer: ReturnType<typeof setTimeout> | null = null;
  let healthTimer: ReturnType<typeof setTimeout> | null = null;
  let stopping: Promise<unknown> = Promise.resolve();
  let resolveFirst!: (ready: ServiceReady) => void;
  let rejectFirst!: (cause: Error) => void;
  let firstSettled = false;
  const firstStart = new Promise<ServiceReady>((resolve, reject) => {
    resolveFirst = resolve;
    rejectFirst = reject;
  });
  firstStart.catch(() => undefined);

  function dispatch(event: SupervisorEvent): void {
    const before = state;
    const next = transition(state, event, policy);
    state = next.state;
    for (const effect of next.effects) perform(effect);
    if (before.phase !== state.phase || before.message !== state.message || before.restarts !== state.restarts) {
      if (state.message && state.message !== before.message) log(`${state.phase}: ${state.message}`);
      options.onStatus?.(statusOf(state));
    }
    if (state.phase === 'running' || state.phase === 'unresponsive') scheduleHealthCheck();
  }

  function perform(effect: SupervisorEffect): void {
    switch (effect.type) {
      case 'spawn':
        return spawn(effect.port);
      case 'kill':
        return child?.kill();
      case 'schedule-restart':
        restartTimer = setTimeout(() => {
          restartTimer = null;
          dispatch({ type: 'restart-due' });
        }, effect.delayMs);
        return;
      case 'replace-child': {
        // A new generation first: the old child's exit and health answers no longer count.
        generation += 1;
        if (healthTimer) clearTimeout(healthTimer);
        healthTimer = null;
        const old = child;
        stopping = (old ? old.stop(options.stopGraceMs ?? 5_000) : Promise.resolve()).then(() => dispatch({ type: 'restart-due' }));
        return;
      }
      case 'stop-child':
        if (restartTimer) clearTimeout(restartTimer);
        if (healthTimer) clearTimeout(healthTimer);
        restartTimer = healthTimer = null;
        stopping = child ? child.stop(options.stopGraceMs ?? 5_000) : Promise.resolve();
        return;
    }
  }

  function spawn(port: number): void {
    const gen = ++generation;
    let startError: string | null = null;
    let started: ServiceChild;
    try {
      started = options.process.spawn({ dataDir: options.dataDir, port, ...(options.notifications ? { notifications: options.notifications } : {}), ...(options.jobSlots !== undefined ? { jobSlots: options.jobSlots } : {}), ...(chat ? { chat } : {}) });
    } catch (cause) {
      // Could not even create the process: the same backoff as a crash.
      return void queueMicrotask(() => dispatch({ type: 'exited', reason: `could not start: ${describe(cause)}` }));
    }
    child = started;
    const startTimer = setTimeout(() => {
      if (gen !== generation || state.phase !== 'starting') return;
      log(`did not listen within ${startTimeoutMs} ms; killing it`);
      started.kill();
    }, startTimeoutMs);
    startTimer.unref?.();
    void started.exited.then(() => clearTimeout(startTimer));
    started.ready.then(
      (ready) => {
        if (gen !== generation) return;
        current = ready;
        options.onReady?.(ready);
        const told = waiters;
        waiters = [];
        queueMicrotask(() => told.forEach((w) => w.resolve(ready)));
        dispatch({ type: 'ready', url: ready.url, port: ready.port });
        if (!firstSettled) {
          firstSettled = true;
          resolveFirst(ready);
        }
      },
      (cause: unknown) => {
        if (gen !== generation) return;
        startError = describe(cause);
        log(`could not start: ${startError}`);
        if (!firstSettled) {
          firstSettled = true;
          rejectFirst(cause instanceof Error ? cause : new Error(String(cause)));
        }
        started.kill();
      },
    );
    void started.exited.then((exit) => {
      // A child that never listened says why (port taken, database unreadable), not just its exit code.
      if (gen === generation) dispatch({ type: 'exited', reason: startError ? `the local service could not start: ${startError}` : describeExit(exit) });
    });
  }

  function scheduleHealthCheck(): void {
    if (healthTimer) return;
    healthTimer = setTimeout(() => {
      const gen = generation;
      const url = state.url;
      void (url ? checkHealth(url, healthTimeoutMs) : Promise.resolve('no URL')).then((failure) => {
        healthTimer = null;
        if (gen !== generation) return scheduleHealthCheck();
        dispatch(failure === null ? { type: 'health-ok' } : { type: 'health-failed', reason: failure });
      });
    }, healthIntervalMs);
    healthTimer.unref?.();
  }

  spawn(state.port);

  return {
    firstStart,
    status: () => statusOf(state),
    current: () => current,
    pid: () => child?.pid,
    admin: (op) =>
      child && (state.phase === 'running' || state.phase === 'unresponsive')
        ? child.admin(op)
        : Promise.reject(new Error(`the local service is ${state.phase === 'stopped' ? 'stopped' : 'restarting'}`)),
    restartWith(change) {
      if (state.phase === 'stopped') return Promise.reject(new Error('the local service is stopped'));
      chat = change.chat;
      const next = new Promise<ServiceReady>((resolve, reject) => waiters.push({ resolve, reject }));
      // In a crash's backoff the next child gets the new options anyway; any other child is replaced.
      if (state.phase !== 'restarting') dispatch({ type: 'replace', reason: 'Restarting with new settings.' });
      return next;
    },
    async close() {
      const told = waiters;
      waiters = [];
      told.forEach((w) => w.reject(new Error('The app closed before the local service restarted.')));
      dispatch({ type: 'stop' });
      if (!firstSettled) {
        firstSettled = true;
        rejectFirst(new Error('The app closed before the local service started.'));
      }
      await stopping;
    },
  };
}

/** null when `GET /` answered 200 within the timeout, else why not. */
export function checkHealth(baseUrl: string, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const req = request(new URL('/', baseUrl), { method: 'GET', agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(res.statusCode === 200 ? null : `HTTP ${res.statusCode}`);
    });
    // `timeout` is socket idle time; a hard deadline also covers a child that accepts but never answers.
    const deadline = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (error) => resolve(error.message));
    req.on('close', () => clearTimeout(deadline));
    req.end();
  });
}

const describe = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));

function describeExit(exit: ServiceExit): string {
  if (exit.signal) return `the local service was ended by ${exit.signal}`;
  return `the local service exited with code ${exit.code ?? 'unknown'}`;
}
