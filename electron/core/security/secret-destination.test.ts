import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeDestination, hostDestination, mayReuseSecret, urlDestination } from './secret-destination';

// The invariant: a stored secret saved for one URL is offered to another only when both are the same
// place. Generated URLs are rewritten in ways the URL standard says change nothing (which must keep the
// secret usable) and in ways that send the request elsewhere (which must never get it).

const label = fc.stringMatching(/^[a-z0-9]{1,8}$/);
const domain = fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('com', 'net', 'example', 'internal')).map(([ls, tld]) => [...ls, tld].join('.'));
const ipv4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
const ipv6 = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 });
type Host = { kind: 'domain'; name: string } | { kind: 'v4'; bytes: number[] } | { kind: 'v6'; groups: number[] };
const host: fc.Arbitrary<Host> = fc.oneof(
  domain.map((name) => ({ kind: 'domain' as const, name })),
  ipv4.map((bytes) => ({ kind: 'v4' as const, bytes })),
  ipv6.map((groups) => ({ kind: 'v6' as const, groups })),
);
const hostText = (h: Host): string => (h.kind === 'domain' ? h.name : h.kind === 'v4' ? h.bytes.join('.') : `[${h.groups.map((g) => g.toString(16)).join(':')}]`);
/** The same host, written differently: upper case, one 32-bit number, zero-padded IPv6 groups. */
const sameHostOtherSpelling = (h: Host, pick: number): string => {
  if (h.kind === 'domain') return pick % 2 ? h.name.toUpperCase() : h.name.replace(/^./, (c) => c.toUpperCase());
  if (h.kind === 'v4') return pick % 2 ? String(h.bytes.reduce((n, b) => n * 256 + b, 0)) : `0x${h.bytes.map((b) => b.toString(16).padStart(2, '0')).join('')}`;
  return `[${h.groups.map((g) => g.toString(16).padStart(4, '0').toUpperCase()).join(':')}]`;
};

const base = fc.record({
  scheme: fc.constantFrom('http', 'https'),
  host,
  port: fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }),
  path: fc.array(fc.stringMatching(/^[a-z0-9_-]{1,6}$/), { maxLength: 3 }).map((s) => (s.length ? `/${s.join('/')}` : '')),
});
type Base = typeof base extends fc.Arbitrary<infer T> ? T : never;
const defaultPort = (scheme: string) => (scheme === 'https' ? 443 : 80);
const urlOf = (b: Base, over: Partial<{ scheme: string; host: string; port: number | undefined; path: string; user: string }> = {}): string => {
  const scheme = over.scheme ?? b.scheme;
  const port = 'port' in over ? over.port : b.port;
  return `${scheme}://${over.user ?? ''}${over.host ?? hostText(b.host)}${port !== undefined ? `:${port}` : ''}${over.path ?? b.path}`;
};
const effectivePort = (b: Base) => b.port ?? defaultPort(b.scheme);

/** Rewrites of `b` that name the same place. */
const sameRewrites = (b: Base, pick: number): string[] => [
  urlOf(b),
  urlOf(b, { scheme: b.scheme.toUpperCase() }),
  urlOf(b, { host: sameHostOtherSpelling(b.host, pick) }),
  urlOf(b, { port: effectivePort(b) === defaultPort(b.scheme) ? (b.port === undefined ? defaultPort(b.scheme) : undefined) : b.port }),
  `${urlOf(b)}/`,
  `  ${urlOf(b)}  `,
  `${urlOf(b)}#section`,
];

/** Rewrites of `b` that send the request somewhere else, plain and tricky. */
const otherRewrites = (b: Base): string[] => {
  const h = hostText(b.host);
  const scheme = b.scheme;
  return [
    urlOf(b, { host: b.host.kind === 'domain' ? `x${h}` : b.host.kind === 'v4' ? [...b.host.bytes.slice(0, 3), (b.host.bytes[3]! + 1) % 256].join('.') : `[${[...b.host.groups.slice(0, 7), (b.host.groups[7]! + 1) % 0x10000].map((g) => g.toString(16)).join(':')}]` }),
    ...(b.host.kind === 'domain' ? [urlOf(b, { host: `${h}.` }), urlOf(b, { host: `${h}.evil.example` })] : []),
    ...(b.host.kind === 'v4' ? [urlOf(b, { host: `[::ffff:${h}]` })] : []),
    urlOf(b, { port: (effectivePort(b) % 65535) + 1 }),
    urlOf(b, { scheme: scheme === 'http' ? 'https' : 'http', port: effectivePort(b) }),
    urlOf(b, { user: 'someone@' }),
    urlOf(b, { user: 'someone:pw@' }),
    urlOf(b, { path: `${b.path}/other` }),
    urlOf(b, { path: `${b.path}?x=1` }),
    ...(b.path ? [urlOf(b, { path: b.path.toUpperCase() === b.path ? `${b.path}x` : b.path.toUpperCase() }), urlOf(b, { path: '' })] : [urlOf(b, { path: '/v1' })]),
    `${scheme}://evil.example/${h}${b.path}`,
    `${scheme}://${h}@evil.example${b.path}`,
    `${scheme}://evil.example#@${h}${b.path}`,
    `${scheme}://evil.example?@${h}`,
    `${scheme}://evil.example\\@${h}${b.path}`,
    `${scheme}://evil.example%2f@${h}`,
  ];
};

describe('a stored secret goes only where it was given (the rule, over generated URLs)', () => {
  it('a rewrite that names the same place still gets the secret', () => {
    fc.assert(
      fc.property(base, fc.nat(), (b, pick) => {
        const saved = urlDestination(urlOf(b));
        expect(saved, urlOf(b)).not.toBeNull();
        for (const same of sameRewrites(b, pick)) expect(mayReuseSecret(saved, urlDestination(same)), `${urlOf(b)} → ${same}`).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('a rewrite that goes anywhere else never gets it', () => {
    fc.assert(
      fc.property(base, (b) => {
        const saved = urlDestination(urlOf(b));
        for (const other of otherRewrites(b)) expect(mayReuseSecret(saved, urlDestination(other)), `${urlOf(b)} → ${other}`).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('hosts and ports of SFTP/FTP credentials follow the same rule', () => {
    fc.assert(
      fc.property(host, fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }), fc.nat(), (h, port, pick) => {
        const text = hostText(h).replace(/^\[(.*)\]$/, '$1');
        const saved = hostDestination('sftp', text, port, 22);
        expect(saved).not.toBeNull();
        // Same: another spelling, the default port written out, a port typed as text with spaces.
        expect(mayReuseSecret(saved, hostDestination('sftp', sameHostOtherSpelling(h, pick), port, 22))).toBe(true);
        expect(mayReuseSecret(saved, hostDestination('sftp', ` ${text} `, port === undefined ? '22' : ` ${port} `, 22))).toBe(true);
        // Elsewhere: another port, another protocol, a host carrying a port, a path or user info.
        expect(mayReuseSecret(saved, hostDestination('sftp', text, ((port ?? 22) % 65535) + 1, 22))).toBe(false);
        expect(mayReuseSecret(saved, hostDestination('ftp', text, port ?? 22, 21))).toBe(false);
        for (const trick of [`${hostText(h)}:2222`, `${text}/x`, `u@${text}`, `evil.example@${text}`, `${text}#x`, `${text}\\x`]) {
          expect(mayReuseSecret(saved, hostDestination('sftp', trick, port, 22)), trick).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('no destination (unclear text, another scheme) matches anything, itself included', () => {
    for (const t of ['', '   ', 'not a url', 'ftp://files.example.com/', 'javascript:alert(1)', 'http://a .com/', 'http://exa\u0000mple.com/']) {
      expect(urlDestination(t), t).toBeNull();
      expect(mayReuseSecret(urlDestination(t), urlDestination(t))).toBe(false);
    }
    expect(hostDestination('sftp', 'h.example', 70_000, 22)).toBeNull();
  });

  it('names a destination without the user info a URL may carry', () => {
    expect(describeDestination(urlDestination('https://me:pw@Files.Example.com/a/'))).toBe('https://files.example.com:443/a');
    expect(describeDestination(hostDestination('sftp', 'SFTP.example.com', '', 22))).toBe('sftp.example.com:22');
  });
});
