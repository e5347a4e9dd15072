import { describe, expect, it } from 'vitest';
import { check, describeNetworkError, report, skipped } from './report';

describe('credential test reports', () => {
  it('is ok unless a check failed; warnings and skips do not fail it', () => {
    expect(report('t', [check('reach', 'ok', 'x'), check('read', 'warn', 'y'), ...skipped(['write'], 'because')]).ok).toBe(true);
    expect(report('t', [check('reach', 'ok', 'x'), check('authenticate', 'fail', 'no')]).ok).toBe(false);
    expect(skipped(['read', 'write'], 'the login failed')).toEqual([
      { id: 'read', label: 'Path readable', status: 'skipped', message: 'Not tried: the login failed.' },
      { id: 'write', label: 'Path writable', status: 'skipped', message: 'Not tried: the login failed.' },
    ]);
  });

  it('puts network errors in words a user can act on, keeping the code', () => {
    expect(describeNetworkError(Object.assign(new Error('getaddrinfo ENOTFOUND sftp.nowhere'), { code: 'ENOTFOUND' }), 'sftp.nowhere:22', 10_000)).toEqual({
      code: 'ENOTFOUND',
      message: 'the host name in sftp.nowhere:22 does not resolve: check it for typos.',
    });
    // fetch wraps the socket error in `cause`.
    expect(describeNetworkError(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }), 'https://s3.local', 10_000).code).toBe('ECONNREFUSED');
    expect(describeNetworkError(new Error('The operation was aborted due to timeout'), 'h:1', 8_000)).toEqual({ code: 'ETIMEDOUT', message: 'h:1 did not answer within 8 s: a firewall, or the wrong host or port.' });
    // Whatever else an error says is not repeated: it may quote the other side (a certificate's names).
    expect(describeNetworkError(new Error('something odd from the server'), 'h:1', 1000)).toEqual({ code: 'NETWORK_ERROR', message: 'cannot connect to h:1 (NETWORK_ERROR).' });
    expect(describeNetworkError(new TypeError('fetch failed', { cause: Object.assign(new Error("Host: h. is not in the cert's altnames: DNS:secret.internal"), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' }) }), 'https://h', 1000)).toEqual({
      code: 'ERR_TLS_CERT_ALTNAME_INVALID',
      message: 'https://h answered over TLS with a certificate this computer does not trust for that name (ERR_TLS_CERT_ALTNAME_INVALID).',
    });
  });
});
