// Where a notification may connect to, decided on the address the connection is about to use (not the
// name in the URL): a name that resolves into the LAN, or that resolves elsewhere at creation and into the
// LAN at delivery (DNS rebinding), is refused all the same. Loopback stays allowed: the app's webhook
// tester and a developer's own receiver listen there. Pure apart from the lookup it wraps.

import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOneOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

export type AddressKind = 'metadata' | 'private' | 'link-local' | 'unspecified' | 'multicast' | 'reserved';

/** Cloud metadata services (AWS/GCP/Azure/OpenStack, AWS ECS, Alibaba, AWS over IPv6): refused even where private networks are allowed. */
const METADATA = ['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254'];

function list(entries: [string, number, 'ipv4' | 'ipv6'][]): BlockList {
  const b = new BlockList();
  for (const [net, prefix, family] of entries) b.addSubnet(net, prefix, family);
  return b;
}

/** In order: the first that matches names the address. */
const KINDS: [AddressKind, BlockList][] = [
  [
    'metadata',
    (() => {
      const b = new BlockList();
      for (const a of METADATA) b.addAddress(a, isIP(a) === 6 ? 'ipv6' : 'ipv4');
      return b;
    })(),
  ],
  ['unspecified', list([['0.0.0.0', 8, 'ipv4'], ['::', 128, 'ipv6']])],
  [
    'private',
    list([
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      // Carrier-grade NAT: inside a provider's network, as private as the ranges above.
      ['100.64.0.0', 10, 'ipv4'],
      ['fc00::', 7, 'ipv6'],
    ]),
  ],
  ['link-local', list([['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']])],
  ['multicast', list([['224.0.0.0', 4, 'ipv4'], ['ff00::', 8, 'ipv6']])],
  [
    'reserved',
    list([
      ['240.0.0.0', 4, 'ipv4'],
      ['192.0.0.0', 24, 'ipv4'],
      ['192.0.2.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['198.51.100.0', 24, 'ipv4'],
      ['203.0.113.0', 24, 'ipv4'],
      ['2001:db8::', 32, 'ipv6'],
    ]),
  ],
];

/** Kinds an operator may open with `--notify-allow-private-networks`; metadata and the rest never. */
const OPENED_BY_PRIVATE: ReadonlySet<AddressKind> = new Set(['private', 'link-local']);

/** Eight 16-bit groups of an IPv6 address (any spelling, an IPv4 tail included), or null. */
function ipv6Groups(h: string): number[] | null {
  let canonical: string;
  try {
    // The URL parser writes every IPv6 spelling the same way: compressed hex, no IPv4 tail.
    canonical = new URL(`http://[${h}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head = '', rest] = canonical.split('::');
  const part = (s: string): number[] => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const a = part(head);
  const b = rest === undefined ? [] : part(rest);
  const fill = 8 - a.length - b.length;
  return fill < 0 ? null : [...a, ...new Array<number>(fill).fill(0), ...b];
}

/** The IPv4 address an IPv6 one carries (mapped ::ffff:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16), else null. */
export function embeddedIpv4(ip: string): string | null {
  const h = ip.toLowerCase().replace(/^\[|\]$/g, '');
  if (isIP(h) !== 6) return null;
  const g = ipv6Groups(h);
  if (!g) return null;
  const quad = (hi: number, lo: number): string => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number): boolean => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 5) && g[5] === 0xffff) return quad(g[6]!, g[7]!);
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) return quad(g[6]!, g[7]!);
  if (g[0] === 0x2002) return quad(g[1]!, g[2]!);
  return null;
}

/** What kind of address this is when notifications may not go there, else null (public, or loopback). */
export function addressKind(ip: string): AddressKind | null {
  const h = ip.toLowerCase().replace(/^\[|\]$/g, '');
  const family = isIP(h);
  if (family === 0) return null;
  const v4 = family === 6 ? embeddedIpv4(h) : null;
  if (v4 !== null) return addressKind(v4);
  for (const [kind, blocks] of KINDS) if (blocks.check(h, family === 4 ? 'ipv4' : 'ipv6')) return kind;
  return null;
}

const KIND_WORDS: Record<AddressKind, string> = {
  metadata: 'a cloud metadata address',
  private: 'a private-network address',
  'link-local': 'a link-local address',
  unspecified: 'an unspecified address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
};

export interface AddressPolicy {
  /** `--notify-allow-private-networks`: private and link-local addresses are allowed too (metadata never). */
  allowPrivateNetworks?: boolean;
}

/** Why a notification may not connect to `ip` (named `host`), or null when it may. Pure. */
export function addressRefusal(ip: string, host: string, policy: AddressPolicy = {}): string | null {
  const kind = addressKind(ip);
  if (kind === null || (policy.allowPrivateNetworks && OPENED_BY_PRIVATE.has(kind))) return null;
  const named = host.replace(/^\[|\]$/g, '') === ip ? `${ip} is` : `"${host}" resolves to ${ip},`;
  const hint = OPENED_BY_PRIVATE.has(kind) ? ' (an operator who means it starts the service with --notify-allow-private-networks)' : '';
  return `${named} ${KIND_WORDS[kind]}: this service does not send notifications there${hint}.`;
}

/** Raised by the guarded lookup: the connection is never opened. */
export class AddressRefused extends Error {
  readonly code = 'NOTIFY_ADDRESS_REFUSED';
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;
/** `dns.lookup`'s shape, as `net.connect` calls it (with `all: true` where it tries several addresses). */
export type LookupFunction = (hostname: string, options: LookupOneOptions | LookupAllOptions, callback: LookupCallback) => void;

/**
 * A `lookup` for `http.request` that resolves every address of the name at connect time and refuses the
 * connection when any of them may not be used: the name cannot answer a safe address to a check and an
 * internal one to the connection.
 */
export function guardedLookup(policy: AddressPolicy, base: LookupFunction = dnsLookup as unknown as LookupFunction): LookupFunction {
  return (hostname, options, callback) => {
    base(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, options.all ? [] : '');
      const all = (Array.isArray(addresses) ? addresses : [{ address: addresses, family: isIP(addresses) }]) as LookupAddress[];
      for (const a of all) {
        const why = addressRefusal(a.address, hostname, policy);
        if (why) return callback(new AddressRefused(why), options.all ? [] : '');
      }
      if (options.all) return callback(null, all);
      const first = all[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
      callback(null, first.address, first.family);
    });
  };
}
