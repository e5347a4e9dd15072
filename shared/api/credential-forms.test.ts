import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CREDENTIAL_FORMS, credentialFieldProblem } from './credential-forms';

const field = (type: string, name: string) => CREDENTIAL_FORMS[type]!.fields.find((f) => f.name === name)!;

describe('credential fields checked where they are typed', () => {
  it('refuses the SFTP port 99999 and the host "not a host!!", each at its field', () => {
    expect(credentialFieldProblem(field('sftp', 'port'), '99999')).toBe('Port must be a whole number from 1 to 65535 (got "99999").');
    expect(credentialFieldProblem(field('sftp', 'host'), 'not a host!!')).toMatch(/^Host must be a host name or an IP address/);
    expect(credentialFieldProblem(field('http', 'url'), 'files.example.com')).toMatch(/^Base URL must be an http\(s\) URL/);
  });

  it('takes every port from 1 to 65535 and no other whole number', () => {
    fc.assert(fc.property(fc.integer({ min: -100_000, max: 200_000 }), (n) => {
      expect(credentialFieldProblem(field('sftp', 'port'), String(n)) === null).toBe(n >= 1 && n <= 65_535);
    }));
  });

  it('takes host names and IP addresses, and nothing with a space or a sign a host cannot hold', () => {
    const label = fc.stringMatching(/^[a-z0-9]([a-z0-9-]{0,20}[a-z0-9])?$/);
    fc.assert(fc.property(fc.array(label, { minLength: 1, maxLength: 4 }), (labels) => {
      expect(credentialFieldProblem(field('sftp', 'host'), labels.join('.'))).toBeNull();
    }));
    for (const ok of ['192.0.2.10', '::1', '[2001:db8::1]', 'localhost', 'SFTP.Example.COM']) expect(credentialFieldProblem(field('sftp', 'host'), ok)).toBeNull();
    fc.assert(fc.property(label, fc.constantFrom(' ', '!', '/', '@', '?', '#', '*', ','), (l, bad) => {
      expect(credentialFieldProblem(field('sftp', 'host'), `${l}${bad}${l}`)).not.toBeNull();
    }));
  });

  it('leaves an empty value to the required check, and a ${…} value to the service', () => {
    expect(credentialFieldProblem(field('sftp', 'port'), '')).toBeNull();
    expect(credentialFieldProblem(field('sftp', 'host'), '${fields.host}')).toBeNull();
  });
});
