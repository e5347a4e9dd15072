/**
 * The operator's host allow-lists (`--notify-allow-hosts`, `--tool-server-allow-hosts`, and the app's
 * "Tool servers may be on"): one rule per comma-separated entry — a host name (letters, digits, hyphens,
 * dots; IPv4; bracketed or bare IPv6), `*.` + a host name (its subdomains), `loopback`, or `*` (any host)
 * where the list takes it. A malformed entry never matches anything, so every entry is checked here and
 * named with why, instead of every request being refused later without a reason. Pure: shared/ has no URL.
 */

export interface HostRuleOptions {
  /** Whether `*` (any host) is a rule of this list (the tool-server list: yes; notify: unset means anywhere). */
  readonly allowAny: boolean;
}

export interface HostRuleProblem {
  /** The entry as typed (trimmed). */
  readonly entry: string;
  /** Why it is not a rule, with the fix where there is an obvious one. */
  readonly problem: string;
}

export type HostRulesResult = { readonly rules: string[] } | { readonly problems: HostRuleProblem[] };

const LABEL = /^[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?$/;
const MAX_NAME = 253;
const MAX_LABEL = 63;

const isIpv4 = (s: string): boolean => /^\d{1,3}(\.\d{1,3}){3}$/.test(s) && s.split('.').every((p) => Number(p) <= 255);
const looksIpv4 = (s: string): boolean => /^[\d.]+$/.test(s) && /\d/.test(s);

/** Eight groups of up to four hex digits, one `::` for a run of zero groups, optionally an IPv4 tail. */
function isIpv6(s: string): boolean {
  if (!/^[0-9a-f:.]+$/.test(s) || s.split('::').length > 2) return false;
  let text = s;
  let groups = 0;
  const v4 = /(?:^|:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
  if (v4?.[1]) {
    if (!isIpv4(v4[1])) return false;
    text = text.slice(0, -v4[1].length);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
    groups += 2;
  }
  const [head = '', tail] = text.split('::');
  const parts = (p: string) => (p === '' ? [] : p.split(':'));
  const all = [...parts(head), ...(tail === undefined ? [] : parts(tail))];
  if (!all.every((g) => /^[0-9a-f]{1,4}$/.test(g))) return false;
  groups += all.length;
  return tail === undefined ? groups === 8 : groups <= 7;
}

/** The host inside a URL-ish entry (`https://user@Hooks.example.com:8443/x`), for the "use …" hint. */
function hostOfUrl(entry: string): string {
  const authority = entry.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').split(/[/?#]/)[0] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  return (host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:\d*$/, '')).toLowerCase();
}

/** What is wrong with a host name (no wildcard), or null. */
function nameProblem(name: string): string | null {
  if (/[^\x20-\x7e]/.test(name)) return 'has non-ASCII letters: write the name\'s "xn--" (punycode) form';
  if (name.startsWith('.')) return 'starts with a dot: use "*.example.com" for the subdomains of example.com';
  if (name.includes('..')) return 'has an empty label (two dots in a row)';
  if (name.length > MAX_NAME) return `is longer than a host name may be (${MAX_NAME} characters)`;
  if (looksIpv4(name)) return isIpv4(name) ? null : 'is not an IPv4 address (four numbers 0–255 with dots)';
  const odd = /[^a-z0-9_.-]/.exec(name);
  if (odd) return `has "${odd[0]}", which a host name cannot hold (letters, digits, hyphens and dots only)`;
  for (const label of name.split('.')) {
    if (label.length > MAX_LABEL) return `has a label longer than ${MAX_LABEL} characters`;
    if (!LABEL.test(label)) return `has the label "${label}", which starts or ends with a hyphen`;
  }
  return null;
}

/** What is wrong with one entry (lower-cased, trimmed, not empty), or null when it is a rule. */
export function hostRuleProblem(entry: string, options: HostRuleOptions): string | null {
  const e = entry.toLowerCase();
  if (e === 'loopback') return null;
  if (e === '*') return options.allowAny ? null : 'is not a rule of this list ("*" for any host): leave the list unset to allow any host';
  if (/^[a-z][a-z0-9+.-]*:\/\//.test(e)) {
    const host = hostOfUrl(e);
    return host === '' ? 'is a URL, not a host' : `is a URL, not a host: use ${host}`;
  }
  if (/\s/.test(e)) return 'has a space inside (separate entries with commas)';
  if (/[/?#]/.test(e)) return `has a path: use ${e.split(/[/?#]/)[0]}`;
  if (e.includes('@')) return `has a user name: use ${e.slice(e.lastIndexOf('@') + 1)}`;
  const bracketed = /^\[([^\]]*)\](.*)$/.exec(e);
  if (bracketed) {
    if (bracketed[2] !== '') return /^:\d*$/.test(bracketed[2]!) ? `has a port: use [${bracketed[1]}] (any port is allowed)` : 'has text after the bracketed IPv6 address';
    return isIpv6(bracketed[1]!) ? null : 'is not an IPv6 address';
  }
  if (e.includes(':')) {
    if (isIpv6(e)) return null;
    const portless = /^([^:]+):\d*$/.exec(e);
    return portless ? `has a port: use ${portless[1]} (any port is allowed)` : 'is not an IPv6 address';
  }
  if (e.includes('*')) {
    if (!e.startsWith('*.') || e.slice(2).includes('*')) return 'may hold "*" only as a whole label at the start, as in *.example.com';
    const domain = e.slice(2).replace(/\.$/, '');
    if (domain === '') return 'names no domain after "*."';
    if (isIpv4(domain)) return `is an IP address with "*.": an address has no subdomains, use ${domain}`;
    return nameProblem(domain);
  }
  return nameProblem(e.replace(/\.$/, ''));
}

/** A rule as matched: lower case, no trailing dot (URL.hostname has none for these hosts). */
const normal = (entry: string): string => {
  const e = entry.toLowerCase();
  return e.startsWith('[') || e.includes(':') ? e : e.replace(/\.$/, '');
};

/**
 * Every entry of a comma-separated list (blank entries skipped): the rules when all are sound, else each bad
 * entry with why. An empty list is `{ rules: [] }` (what it means is the caller's: notify = anywhere).
 */
export function checkHostRules(text: string, options: HostRuleOptions): HostRulesResult {
  const entries = text
    .split(',')
    .map((h) => h.trim())
    .filter((h) => h !== '');
  return checkHostRuleList(entries, options);
}

/** The same for a list already split (a start message, the settings form's saved array). */
export function checkHostRuleList(entries: readonly string[], options: HostRuleOptions): HostRulesResult {
  const problems: HostRuleProblem[] = [];
  for (const entry of entries) {
    const problem = hostRuleProblem(entry.trim(), options);
    if (problem !== null) problems.push({ entry: entry.trim(), problem });
  }
  return problems.length > 0 ? { problems } : { rules: [...new Set(entries.map((e) => normal(e.trim())))] };
}

/** `"https://x/y" is a URL, not a host: use x; "a b" has a space inside` — for an error message. */
export function describeHostRuleProblems(problems: readonly HostRuleProblem[]): string {
  return problems.map((p) => `"${p.entry}" ${p.problem}`).join('; ');
}

/** `has a bad entry: "…" is a URL…` / `has bad entries: …`, to follow the list's name (flag or variable). */
export function hostRulesProblemText(problems: readonly HostRuleProblem[]): string {
  return `${problems.length === 1 ? 'has a bad entry' : 'has bad entries'}: ${describeHostRuleProblems(problems)}`;
}
