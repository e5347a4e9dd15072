/**
 * Messages between core and the embedded service's own process (a forked Node process or Electron's
 * utilityProcess). Configuration and the Auth Secret travel over this IPC channel only: never argv or
 * the environment, which other local users can read (`ps`, /proc/<pid>/environ).
 */

/** Core → child: start listening (once), or close cleanly and exit. */
export type ParentMessage =
  | { readonly type: 'start'; readonly dataDir: string; readonly port: number }
  | { readonly type: 'stop' };

/** Child → core: listening (with the account core signs with), or could not start. */
export type ChildMessage =
  | { readonly type: 'ready'; readonly url: string; readonly port: number; readonly authKey: string; readonly authSecret: string }
  | { readonly type: 'failed'; readonly message: string; readonly code: string | null };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isPort = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65_535;

/** A message from the child, or null when it is not one (a child must not crash core with garbage). */
export function parseChildMessage(value: unknown): ChildMessage | null {
  if (!isRecord(value)) return null;
  if (value.type === 'ready') {
    const { url, port, authKey, authSecret } = value;
    if (typeof url !== 'string' || !isPort(port) || typeof authKey !== 'string' || typeof authSecret !== 'string') return null;
    return { type: 'ready', url, port, authKey, authSecret };
  }
  if (value.type === 'failed') {
    return { type: 'failed', message: String(value.message ?? 'unknown error'), code: typeof value.code === 'string' ? value.code : null };
  }
  return null;
}

/** A message from core, or null. */
export function parseParentMessage(value: unknown): ParentMessage | null {
  if (!isRecord(value)) return null;
  if (value.type === 'stop') return { type: 'stop' };
  if (value.type === 'start' && typeof value.dataDir === 'string' && value.dataDir.length > 0 && isPort(value.port)) {
    return { type: 'start', dataDir: value.dataDir, port: value.port };
  }
  return null;
}
