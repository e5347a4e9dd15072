/**
 * The embedded service's notification options (its `--notify-*` flags), as core hands them to the child
 * in the start message. Hosts read them from the environment at their composition root
 * (`notifyOptionsFromEnv`); core modules never read the environment.
 */
import { checkHostRules, hostRulesProblemText } from './host-rules';

/** `--notify-allow-hosts`' rule options: no `*` (an unset list already means anywhere). */
export const NOTIFY_HOST_RULES = { allowAny: false } as const;

export type NotifySignatureAlgo = 'sha1' | 'sha256' | 'sha384';

export interface NotifyOptions {
  /** Waits between attempts; their number is the number of retries. */
  readonly retryDelaysMs?: readonly number[];
  readonly timeoutMs?: number;
  /** `--notify-allow-hosts` rules; empty or absent = anywhere. */
  readonly allowedHosts?: readonly string[];
  readonly signatureAlgo?: NotifySignatureAlgo;
}

/** The environment variables hosts read (docs/local-service.md "Embedded: notify options"). */
export const NOTIFY_ENV = {
  retryDelays: 'ASSEMBLYLINE_NOTIFY_RETRY_DELAYS',
  timeoutMs: 'ASSEMBLYLINE_NOTIFY_TIMEOUT_MS',
  allowHosts: 'ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS',
  signature: 'ASSEMBLYLINE_NOTIFY_SIGNATURE',
} as const;

const MAX_RETRIES = 20;
const MAX_DELAY_MS = 24 * 3600_000;
const isDelay = (d: unknown): d is number => Number.isInteger(d) && (d as number) >= 0 && (d as number) <= MAX_DELAY_MS;
const isTimeout = (t: unknown): t is number => Number.isInteger(t) && (t as number) >= 100 && (t as number) <= 600_000;
const isAlgo = (a: unknown): a is NotifySignatureAlgo => a === 'sha1' || a === 'sha256' || a === 'sha384';

/**
 * Options from the environment; throws naming the variable when one is malformed (the host then refuses
 * to start rather than run with a value the user did not mean). Unset variables are left out. Pure.
 */
export function notifyOptionsFromEnv(env: Readonly<Record<string, string | undefined>>): NotifyOptions {
  const out: { -readonly [K in keyof NotifyOptions]: NotifyOptions[K] } = {};
  const delays = env[NOTIFY_ENV.retryDelays]?.trim();
  if (delays !== undefined && delays !== '') {
    const list = delays === 'none' ? [] : delays.split(',').map((d) => Number(d.trim()));
    if (list.length > MAX_RETRIES || !list.every(isDelay)) {
      throw new Error(`${NOTIFY_ENV.retryDelays} must be up to ${MAX_RETRIES} comma-separated delays in ms (0..${MAX_DELAY_MS}) or "none"; got "${delays}".`);
    }
    out.retryDelaysMs = list;
  }
  const timeout = env[NOTIFY_ENV.timeoutMs]?.trim();
  if (timeout !== undefined && timeout !== '') {
    if (!isTimeout(Number(timeout))) throw new Error(`${NOTIFY_ENV.timeoutMs} must be a whole number of ms from 100 to 600000; got "${timeout}".`);
    out.timeoutMs = Number(timeout);
  }
  const hosts = env[NOTIFY_ENV.allowHosts]?.trim();
  if (hosts !== undefined && hosts !== '') {
    const checked = checkHostRules(hosts, NOTIFY_HOST_RULES);
    if ('problems' in checked) throw new Error(`${NOTIFY_ENV.allowHosts} ${hostRulesProblemText(checked.problems)}.`);
    out.allowedHosts = checked.rules;
  }
  const algo = env[NOTIFY_ENV.signature]?.trim();
  if (algo !== undefined && algo !== '') {
    if (!isAlgo(algo)) throw new Error(`${NOTIFY_ENV.signature} must be sha1, sha256 or sha384; got "${algo}".`);
    out.signatureAlgo = algo;
  }
  return out;
}

/** The options of a start message, or null when they are not well-formed (a bad value is dropped, not guessed). */
export function parseNotifyOptions(value: unknown): NotifyOptions | null {
  if (typeof value !== 'object' || value === null) return null;
  const v = value as Record<string, unknown>;
  const out: { -readonly [K in keyof NotifyOptions]: NotifyOptions[K] } = {};
  if (v.retryDelaysMs !== undefined) {
    if (!Array.isArray(v.retryDelaysMs) || v.retryDelaysMs.length > MAX_RETRIES || !v.retryDelaysMs.every(isDelay)) return null;
    out.retryDelaysMs = v.retryDelaysMs;
  }
  if (v.timeoutMs !== undefined) {
    if (!isTimeout(v.timeoutMs)) return null;
    out.timeoutMs = v.timeoutMs;
  }
  if (v.allowedHosts !== undefined) {
    // Rules are passed on as given: the service checks them and refuses to start with a bad one (the app shows why).
    if (!Array.isArray(v.allowedHosts) || !v.allowedHosts.every((h) => typeof h === 'string')) return null;
    out.allowedHosts = v.allowedHosts as string[];
  }
  if (v.signatureAlgo !== undefined) {
    if (!isAlgo(v.signatureAlgo)) return null;
    out.signatureAlgo = v.signatureAlgo;
  }
  return out;
}
