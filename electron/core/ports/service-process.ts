import type { ChatStartOptions } from '../../../shared/local-service/chat-option';
import type { AdminAnswer, AdminOp } from '../../../shared/local-service/child-messages';
import type { NotifyOptions } from '../../../shared/local-service/notify-options';

/**
 * Runs the embedded local service in a process of its own, so a hung robot or a crash never freezes or
 * ends the app. Browser host: a forked Node process; Electron: utilityProcess. Core's supervisor
 * (electron/core/local-service/supervisor.ts) starts, health-checks and restarts it through this port.
 */
export interface ServiceProcessPort {
  /** `notifications`: the service's notify options (retry delays, …), and `jobSlots`, sent in the start message. */
  spawn(options: { dataDir: string; port: number; notifications?: NotifyOptions; jobSlots?: number; chat?: ChatStartOptions }): ServiceChild;
}

export interface ServiceReady {
  url: string;
  port: number;
  authKey: string;
  authSecret: string;
  /** Why that key is not an active full-access one; null when it is (service/auth-keys/own-key.ts). */
  accessProblem: string | null;
}

export interface ServiceExit {
  code: number | null;
  signal: string | null;
}

export interface ServiceChild {
  readonly pid: number | undefined;
  /** Resolves once the service listens; rejects when it failed to start or exited first. */
  readonly ready: Promise<ServiceReady>;
  /** Resolves once the process is gone (never rejects). */
  readonly exited: Promise<ServiceExit>;
  /** Ask it to close (database flushed), then kill it if it has not exited within `graceMs`. */
  stop(graceMs: number): Promise<ServiceExit>;
  /** Kill at once (SIGKILL): for a hung child that cannot answer a stop. */
  kill(): void;
  /** The app's admin requests over the IPC channel (the service's own keys, restoring full access). */
  admin(op: AdminOp): Promise<AdminAnswer>;
}
