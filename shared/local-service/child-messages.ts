/**
 * Messages between core and the embedded service's own process (a forked Node process or Electron's
 * utilityProcess). Configuration and the Auth Secret travel over this IPC channel only: never argv or
 * the environment, which other local users can read (`ps`, /proc/<pid>/environ).
 */

import { parseChatOptions, type ChatStartOptions } from './chat-option';
import { parseNotifyOptions, type NotifyOptions } from './notify-options';
import { parseJobSlots } from './job-slots-option';

/**
 * Core's admin requests: the app owns the embedded service, so it may read its keys and restore full
 * access here, beside the API and never through it (the HTTP auth stays as strict as the spec's).
 */
export type AdminOp = { readonly op: 'keys' } | { readonly op: 'restore-full-access'; readonly prefer: string | null } | { readonly op: 'executing' };

/** A key as the service's owner sees it (secret included): travels over this IPC channel only. */
export interface OwnedKeyMessage {
  readonly id: string;
  readonly authKey: string;
  readonly authSecret: string;
  readonly description: string;
  readonly isActive: boolean;
  readonly scopes: readonly string[] | null;
  readonly fullScope: boolean;
}

export type AdminAnswer =
  | { readonly op: 'keys'; readonly keys: readonly OwnedKeyMessage[] }
  | { readonly op: 'restore-full-access'; readonly key: OwnedKeyMessage; readonly action: 'unchanged' | 'reactivated' | 'created' }
  /** How many Assemblies are executing (core restarts the service for new settings only at 0). */
  | { readonly op: 'executing'; readonly count: number };

/** Core → child: start listening (once), close cleanly and exit, or an admin request. */
export type ParentMessage =
  | { readonly type: 'start'; readonly dataDir: string; readonly port: number; readonly notifications?: NotifyOptions; readonly jobSlots?: number; readonly chat?: ChatStartOptions }
  | { readonly type: 'stop' }
  | ({ readonly type: 'admin'; readonly requestId: number } & AdminOp);

/** Child → core: listening (with the account core signs with), could not start, or an admin answer. */
export type ChildMessage =
  | {
      readonly type: 'ready';
      readonly url: string;
      readonly port: number;
      readonly authKey: string;
      readonly authSecret: string;
      /** Why that key is not an active full-access one (the app says so and offers to restore); null when it is. */
      readonly accessProblem: string | null;
    }
  | { readonly type: 'failed'; readonly message: string; readonly code: string | null }
  | { readonly type: 'admin-result'; readonly requestId: number; readonly answer: AdminAnswer }
  | { readonly type: 'admin-failed'; readonly requestId: number; readonly message: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isPort = (value: unknown): value is number => Number.isInteger(value) && (value as number) >= 0 && (value as number) <= 65_535;

/** A message from the child, or null when it is not one (a child must not crash core with garbage). */
export function parseChildMessage(value: unknown): ChildMessage | null {
  if (!isRecord(value)) return null;
  if (value.type === 'ready') {
    const { url, port, authKey, authSecret } = value;
    if (typeof url !== 'string' || !isPort(port) || typeof authKey !== 'string' || typeof authSecret !== 'string') return null;
    const accessProblem = typeof value.accessProblem === 'string' ? value.accessProblem : null;
    return { type: 'ready', url, port, authKey, authSecret, accessProblem };
  }
  if ((value.type === 'admin-result' || value.type === 'admin-failed') && Number.isInteger(value.requestId)) {
    const requestId = value.requestId as number;
    if (value.type === 'admin-failed') return { type: 'admin-failed', requestId, message: String(value.message ?? 'unknown error') };
    const answer = parseAdminAnswer(value.answer);
    return answer ? { type: 'admin-result', requestId, answer } : { type: 'admin-failed', requestId, message: 'The local service sent an unreadable answer.' };
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
  if (value.type === 'admin' && Number.isInteger(value.requestId)) {
    const requestId = value.requestId as number;
    if (value.op === 'keys') return { type: 'admin', requestId, op: 'keys' };
    if (value.op === 'executing') return { type: 'admin', requestId, op: 'executing' };
    if (value.op === 'restore-full-access') return { type: 'admin', requestId, op: 'restore-full-access', prefer: typeof value.prefer === 'string' ? value.prefer : null };
    return null;
  }
  if (value.type === 'start' && typeof value.dataDir === 'string' && value.dataDir.length > 0 && isPort(value.port)) {
    // Malformed notify options are dropped (the service then runs with its defaults), never guessed.
    const notifications = value.notifications === undefined ? null : parseNotifyOptions(value.notifications);
    const jobSlots = parseJobSlots(value.jobSlots);
    const chat = parseChatOptions(value.chat);
    return { type: 'start', dataDir: value.dataDir, port: value.port, ...(notifications ? { notifications } : {}), ...(jobSlots !== undefined ? { jobSlots } : {}), ...(chat ? { chat } : {}) };
  }
  return null;
}

const isOwnedKey = (k: unknown): k is OwnedKeyMessage =>
  isRecord(k) &&
  typeof k.id === 'string' &&
  typeof k.authKey === 'string' &&
  typeof k.authSecret === 'string' &&
  typeof k.description === 'string' &&
  typeof k.isActive === 'boolean' &&
  typeof k.fullScope === 'boolean' &&
  (k.scopes === null || (Array.isArray(k.scopes) && k.scopes.every((s) => typeof s === 'string')));

function parseAdminAnswer(value: unknown): AdminAnswer | null {
  if (!isRecord(value)) return null;
  if (value.op === 'keys' && Array.isArray(value.keys) && value.keys.every(isOwnedKey)) return { op: 'keys', keys: value.keys };
  if (value.op === 'executing' && Number.isInteger(value.count) && (value.count as number) >= 0) return { op: 'executing', count: value.count as number };
  if (value.op === 'restore-full-access' && isOwnedKey(value.key) && ['unchanged', 'reactivated', 'created'].includes(value.action as string)) {
    return { op: 'restore-full-access', key: value.key, action: value.action as 'unchanged' | 'reactivated' | 'created' };
  }
  return null;
}
