import { z } from 'zod';

/**
 * The embedded local service, as the header shows it: `running`; `starting`; `unresponsive` (health
 * checks time out: a hung robot, it is about to be restarted); `restarting` (it crashed or was killed, a
 * new one starts in `retryInMs`); `stopped` (the app is closing, or there is no local service).
 */
export const servicePhaseSchema = z.enum(['starting', 'running', 'unresponsive', 'restarting', 'stopped']);
export type ServicePhase = z.infer<typeof servicePhaseSchema>;

export const serviceStatusSchema = z.object({
  phase: servicePhaseSchema,
  /** Stays the same across restarts (same port), so upload URLs stay valid. */
  url: z.string().nullable(),
  /** Restarts since the app started. */
  restarts: z.number().int().nonnegative(),
  retryInMs: z.number().int().nonnegative().nullable(),
  /** Why it is not running, in words (exit code, signal, health-check timeout). */
  message: z.string().nullable(),
});
export type ServiceStatus = z.infer<typeof serviceStatusSchema>;

/** Something went wrong in the host that no request was waiting for; logged, shown, and the app goes on. */
export const appErrorEventSchema = z.object({
  code: z.string(),
  message: z.string(),
  at: z.string(),
});
export type AppErrorEvent = z.infer<typeof appErrorEventSchema>;
