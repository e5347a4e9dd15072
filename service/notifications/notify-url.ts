import { isIP } from 'node:net';
import { addressRefusal, type AddressPolicy } from './notify-address';

/** Ours, in the real enum (service-facts.md §9). */
export const INVALID_NOTIFY_URL = 'ASSEMBLY_INVALID_NOTIFY_URL';

const MAX_URL_CHARS = 2048;

/**
 * Where an operator lets notifications go (`--notify-allow-hosts`): exact host names (`hooks.example.com`),
 * `*.example.com` for subdomains, `loopback` for 127.0.0.0/8, ::1 and localhost. Empty = anywhere. Checked
 * entry by entry when the service starts (shared/local-service/host-rules.ts).
 */
export type AllowedHosts = readonly string[];

export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (isIP(h) === 4) return h.startsWith('127.');
  return h === '::1';
}

/** Whether `hostname` (URL.hostname) matches one of the allowed patterns. Pure. */
export function hostAllowed(hostname: string, allowed: AllowedHosts): boolean {
  if (allowed.length === 0) return true;
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return allowed.some((rule) => (rule === 'loopback' ? isLoopbackHost(h) : rule.startsWith('*.') ? h.endsWith(rule.slice(1)) : h === rule.replace(/^\[|\]$/g, '')));
}

/**
 * A notify_url from params, a Template or a replay: null when none is set, else the URL, else the problem.
 * Only http(s) URLs; loopback receivers are fine (a developer's own machine is the main use); private,
 * link-local and metadata addresses are not (notify-address.ts). Pure.
 */
export function checkNotifyUrl(v: unknown, allowed: AllowedHosts, policy: AddressPolicy = {}): { url: string | null } | { problem: string } {
  if (v === undefined || v === null || v === '') return { url: null };
  if (typeof v !== 'string') return { problem: `The notify_url must be a string (got ${JSON.stringify(v)}).` };
  if (v.length > MAX_URL_CHARS) return { problem: `The notify_url may hold at most ${MAX_URL_CHARS} characters.` };
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    return { problem: `The notify_url "${v}" is not a URL.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: `The notify_url must be an http or https URL (got ${url.protocol.replace(/:$/, '')}).` };
  if (!hostAllowed(url.hostname, allowed)) {
    return { problem: `This service sends notifications only to ${allowed.join(', ')} (--notify-allow-hosts); "${url.hostname}" is not one of them.` };
  }
  // An address written in the URL is refused here; a name is checked on the addresses it resolves to when
  // each notification connects (notifier.ts), since they can change in between.
  const literal = url.hostname.replace(/^\[|\]$/g, '');
  const refused = isIP(literal) ? addressRefusal(literal, url.hostname, policy) : null;
  if (refused) return { problem: `The notify_url ${refused}` };
  return { url: v };
}
