import { describe, expect, it } from 'vitest';
import { checkHostRules, describeHostRuleProblems, hostRuleProblem } from './host-rules';

const notify = { allowAny: false };
const tools = { allowAny: true };

describe('host allow-list rules', () => {
  it('takes host names, subdomain wildcards, loopback, IPv4 and IPv6, lower-cased, trailing dot dropped', () => {
    expect(checkHostRules(' Hooks.Example.com, *.Example.org., loopback,10.0.0.5,[::1], fe80::1, ::ffff:192.168.0.1, my_box ,', notify)).toEqual({
      rules: ['hooks.example.com', '*.example.org', 'loopback', '10.0.0.5', '[::1]', 'fe80::1', '::ffff:192.168.0.1', 'my_box'],
    });
    expect(checkHostRules('', notify)).toEqual({ rules: [] });
    expect(checkHostRules('a.example.com,A.example.com', notify)).toEqual({ rules: ['a.example.com'] });
  });

  it('takes "*" only where the list allows any host', () => {
    expect(checkHostRules('*', tools)).toEqual({ rules: ['*'] });
    expect(hostRuleProblem('*', notify)).toBe('is not a rule of this list ("*" for any host): leave the list unset to allow any host');
  });

  it('names each bad entry with why, and the fix where there is one', () => {
    const cases: [string, string][] = [
      ['https://hooks.example.com/x', 'is a URL, not a host: use hooks.example.com'],
      ['http://user@Tools.example.com:8443/mcp', 'is a URL, not a host: use tools.example.com'],
      ['http://[::1]:3000/', 'is a URL, not a host: use [::1]'],
      ['exa mple.com', 'has a space inside (separate entries with commas)'],
      ['*.*', 'may hold "*" only as a whole label at the start, as in *.example.com'],
      ['tools.*.com', 'may hold "*" only as a whole label at the start, as in *.example.com'],
      ['*example.com', 'may hold "*" only as a whole label at the start, as in *.example.com'],
      ['*.', 'names no domain after "*."'],
      ['*.10.0.0.1', 'is an IP address with "*.": an address has no subdomains, use 10.0.0.1'],
      ['hooks.example.com/notify', 'has a path: use hooks.example.com'],
      ['tools.example.com:8080', 'has a port: use tools.example.com (any port is allowed)'],
      ['[::1]:8080', 'has a port: use [::1] (any port is allowed)'],
      ['[::g]', 'is not an IPv6 address'],
      ['1::2::3', 'is not an IPv6 address'],
      ['999.1.1.1', 'is not an IPv4 address (four numbers 0–255 with dots)'],
      ['.example.com', 'starts with a dot: use "*.example.com" for the subdomains of example.com'],
      ['a..example.com', 'has an empty label (two dots in a row)'],
      ['-bad.example.com', 'has the label "-bad", which starts or ends with a hyphen'],
      ['hooks!.example.com', 'has "!", which a host name cannot hold (letters, digits, hyphens and dots only)'],
      ['bücher.example', 'has non-ASCII letters: write the name\'s "xn--" (punycode) form'],
      ['ops@hooks.example.com', 'has a user name: use hooks.example.com'],
      [`${'a'.repeat(64)}.example.com`, 'has a label longer than 63 characters'],
    ];
    for (const [entry, why] of cases) expect(hostRuleProblem(entry, tools), entry).toBe(why);
  });

  it('reports every bad entry of a list, not only the first', () => {
    const result = checkHostRules('loopback, https://hooks.example.com/x, exa mple.com', notify);
    expect(result).toEqual({
      problems: [
        { entry: 'https://hooks.example.com/x', problem: 'is a URL, not a host: use hooks.example.com' },
        { entry: 'exa mple.com', problem: 'has a space inside (separate entries with commas)' },
      ],
    });
    expect('problems' in result && describeHostRuleProblems(result.problems)).toBe(
      '"https://hooks.example.com/x" is a URL, not a host: use hooks.example.com; "exa mple.com" has a space inside (separate entries with commas)',
    );
  });
});
