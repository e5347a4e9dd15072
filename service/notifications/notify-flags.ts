import type { NotifierOptions } from './notifier';
import { checkHostRules, hostRulesProblemText } from '../../shared/local-service/host-rules';
import { NOTIFY_ENV, NOTIFY_HOST_RULES } from '../../shared/local-service/notify-options';

export interface NotifyFlagValues {
  'notify-retry-delays'?: string;
  'notify-timeout-ms'?: string;
  'notify-allow-hosts'?: string;
  'notify-signature'?: string;
  'notify-allow-private-networks'?: boolean;
}

const MAX_RETRIES = 20;
const MAX_DELAY_MS = 24 * 3600_000;

/** The rules of a list, or an error naming where it came from and each bad entry. */
function allowHostsFrom(source: string, text: string): string[] {
  const checked = checkHostRules(text, NOTIFY_HOST_RULES);
  if ('problems' in checked) throw new Error(`${source} ${hostRulesProblemText(checked.problems)}`);
  return checked.rules;
}

/**
 * The service's `--notify-*` flags as NotifierOptions; throws with the flag's name on a bad value. The allow
 * list falls back to ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS (`env`), checked the same way. Pure.
 */
export function notifyOptionsFromFlags(v: NotifyFlagValues, env: Readonly<Record<string, string | undefined>> = {}): NotifierOptions {
  const out: NotifierOptions = {};
  const envHosts = env[NOTIFY_ENV.allowHosts]?.trim();
  if (v['notify-allow-hosts'] === undefined && envHosts) out.allowedHosts = allowHostsFrom(NOTIFY_ENV.allowHosts, envHosts);
  if (v['notify-retry-delays'] !== undefined) {
    const text = v['notify-retry-delays'].trim();
    const delays = text === '' || text === 'none' ? [] : text.split(',').map((d) => Number(d.trim()));
    if (delays.length > MAX_RETRIES || delays.some((d) => !Number.isInteger(d) || d < 0 || d > MAX_DELAY_MS)) {
      throw new Error(`--notify-retry-delays must be up to ${MAX_RETRIES} comma-separated delays in ms (0..${MAX_DELAY_MS}), or "none"; got "${text}"`);
    }
    out.retryDelaysMs = delays;
  }
  if (v['notify-timeout-ms'] !== undefined) {
    const t = Number(v['notify-timeout-ms']);
    if (!Number.isInteger(t) || t < 100 || t > 600_000) throw new Error(`--notify-timeout-ms must be 100..600000, got "${v['notify-timeout-ms']}"`);
    out.timeoutMs = t;
  }
  if (v['notify-allow-hosts'] !== undefined) out.allowedHosts = allowHostsFrom('--notify-allow-hosts', v['notify-allow-hosts']);
  if (v['notify-signature'] !== undefined) {
    const a = v['notify-signature'];
    if (a !== 'sha1' && a !== 'sha256' && a !== 'sha384') throw new Error(`--notify-signature must be sha1, sha256 or sha384, got "${a}"`);
    out.signatureAlgo = a;
  }
  if (v['notify-allow-private-networks'] === true) out.allowPrivateNetworks = true;
  return out;
}
