// Which addresses a notification may connect to (notify-address.ts), attacked with generated addresses in
// every spelling: private, link-local and metadata ones are refused however they are written; loopback
// and public ones pass. Pure, plus the guarded lookup over a resolver of the test's choosing.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressKind, addressRefusal, embeddedIpv4, guardedLookup, type LookupFunction } from './notify-address';

const octet = fc.integer({ min: 0, max: 255 });
const v4 = (a: number, b: fc.Arbitrary<number> = octet) => fc.tuple(fc.constant(a), b, octet, octet).map((p) => p.join('.'));
const privateV4 = fc.oneof(v4(10), v4(172, fc.integer({ min: 16, max: 31 })), v4(192, fc.constant(168)), v4(100, fc.integer({ min: 64, max: 127 })));
const linkLocalV4 = v4(169, fc.constant(254)).filter((a) => a !== '169.254.169.254' && a !== '169.254.170.2');
const loopbackV4 = v4(127);
/** Public: first octets outside every refused or special range. */
const publicV4 = fc
  .tuple(fc.integer({ min: 1, max: 223 }), octet, octet, octet)
  .filter(([a, b, c]) => ![0, 10, 127].includes(a) && !(a === 100 && b >= 64 && b <= 127) && !(a === 169 && b === 254) && !(a === 172 && b >= 16 && b <= 31) && !(a === 192 && (b === 168 || (b === 0 && (c === 0 || c === 2)))) && !(a === 198 && (b === 18 || b === 19 || (b === 51 && c === 100))) && !(a === 203 && b === 0 && c === 113))
  .map((p) => p.join('.'));
const hex = (n: number): string => n.toString(16);
/** The spellings of one IPv4 address inside IPv6 that a resolver or a URL may give. */
const asIpv6 = (ip: string): fc.Arbitrary<string> => {
  const [a, b, c, d] = ip.split('.').map(Number) as [number, number, number, number];
  const hi = hex((a << 8) | b);
  const lo = hex((c << 8) | d);
  return fc.constantFrom(`::ffff:${ip}`, `::ffff:${hi}:${lo}`, `0:0:0:0:0:ffff:${hi}:${lo}`, `64:ff9b::${ip}`, `2002:${hi}:${lo}::1`, `[::ffff:${ip}]`);
};

describe('notify addresses', () => {
  it('refuses every private and link-local IPv4 address, in every IPv6 spelling too', () => {
    fc.assert(
      fc.property(fc.oneof(privateV4, linkLocalV4).chain((ip) => fc.tuple(fc.constant(ip), fc.oneof(fc.constant(ip), asIpv6(ip)))), ([ip, written]) => {
        expect(addressKind(written)).toMatch(/^(private|link-local)$/);
        expect(addressRefusal(written, 'hooks.example')).toContain('this service does not send notifications there');
        // The operator's opt-in opens them.
        expect(addressRefusal(written, 'hooks.example', { allowPrivateNetworks: true })).toBeNull();
        expect(embeddedIpv4(written) ?? ip).toBe(ip);
      }),
    );
  });

  it('refuses cloud metadata addresses even where private networks are allowed', () => {
    for (const ip of ['169.254.169.254', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']) {
      expect(addressKind(ip), ip).toBe('metadata');
      expect(addressRefusal(ip, ip, { allowPrivateNetworks: true }), ip).toContain('cloud metadata');
    }
  });

  it('refuses private IPv6 (fc00::/7), link-local (fe80::/10), unspecified and multicast addresses', () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map(hex);
    const tail = fc.array(group, { minLength: 3, maxLength: 3 }).map((g) => g.join(':'));
    fc.assert(
      fc.property(fc.integer({ min: 0xfc00, max: 0xfdff }), tail, (first, rest) => {
        expect(addressKind(`${hex(first)}::${rest}`)).toMatch(/^(private|metadata)$/);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0xfe80, max: 0xfebf }), tail, (first, rest) => {
        expect(addressKind(`${hex(first)}::${rest}`)).toBe('link-local');
      }),
    );
    for (const ip of ['0.0.0.0', '0.1.2.3', '::', '224.0.0.1', 'ff02::1', '255.255.255.255']) expect(addressKind(ip), ip).not.toBeNull();
  });

  it('lets loopback (the in-app webhook tester) and public addresses through, in any spelling', () => {
    fc.assert(
      fc.property(fc.oneof(loopbackV4, publicV4).chain((ip) => fc.oneof(fc.constant(ip), asIpv6(ip).filter((w) => !w.startsWith('2002:') || !ip.startsWith('127.')))), (written) => {
        expect(addressRefusal(written, 'hooks.example')).toBeNull();
      }),
    );
    expect(addressRefusal('::1', 'localhost')).toBeNull();
    expect(addressRefusal('2606:4700::1111', 'one.one')).toBeNull();
  });

  it('checks every address a name resolves to, at connect time, and names the one refused', async () => {
    const answers: string[][] = [['127.0.0.1'], ['203.0.114.9', '10.1.2.3'], ['::1']];
    const resolver: LookupFunction = (_host, _o, cb) => {
      const next = answers.shift() ?? [];
      cb(null, next.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
    };
    const lookup = guardedLookup({}, resolver);
    const ask = (all: boolean) =>
      new Promise<{ err: Error | null; address: unknown }>((resolve) => lookup('hooks.rebind.test', { all } as never, (err, address) => resolve({ err, address })));
    expect(await ask(false)).toEqual({ err: null, address: '127.0.0.1' });
    const second = await ask(true);
    expect(second.err?.message).toBe('"hooks.rebind.test" resolves to 10.1.2.3, a private-network address: this service does not send notifications there (an operator who means it starts the service with --notify-allow-private-networks).');
    expect((await ask(true)).address).toEqual([{ address: '::1', family: 6 }]);
  });
});
