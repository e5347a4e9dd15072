import { describe, expect, it } from 'vitest';
import { readSignature, verifyWebhookSignature } from './verify-signature';

const foo = [{ workspaceId: 'w1', name: 'Test', secret: 'foo_secret' }];
const body = '{"ok":"ASSEMBLY_COMPLETED"}';

describe('webhook signature verification (service-facts §3)', () => {
  it('accepts the §3 vector in every form the service and SDKs send', () => {
    // The vendor relay's sha384 vector, and the same input in sha256, prefixed sha1 and bare sha1 hex.
    for (const signature of [
      'sha384:bf26800c5256b38bbf9375c76894d5b649751903973f99d0f036c8e52f6cda287bed711b73c21dbde4d4df6c8fc540a1',
      'sha256:a7fed5f29dc073713ea923e2b8e563c516fc38083565fa7bdd06215573e4a4d9',
      'sha1:9c31e806b2f3ac4d7cf69d7c29ccf6806b9ee073',
      '9c31e806b2f3ac4d7cf69d7c29ccf6806b9ee073',
      'SHA256:A7FED5F29DC073713EA923E2B8E563C516FC38083565FA7BDD06215573E4A4D9',
    ]) {
      const result = verifyWebhookSignature(body, signature, foo);
      expect(result, signature).toMatchObject({ verified: true, reason: 'ok', workspaceId: 'w1' });
    }
    expect(verifyWebhookSignature(body, '9c31e806b2f3ac4d7cf69d7c29ccf6806b9ee073', foo).algorithm).toBe('sha1');
  });

  it('verifies the legacy bare sha1 request-signing vectors of §1 (same HMAC rule)', () => {
    const params = '{"auth":{"key":"foo_key","expires":"2021-01-06T21:11:07.883Z"}}';
    expect(verifyWebhookSignature(params, '8aa4444c9688bb5f03fcf77b24336b7a3a14f627', foo).verified).toBe(true);
    const other = [{ workspaceId: 'w2', name: 'Other', secret: '90191902390123' }];
    expect(verifyWebhookSignature('foo', 'sha384:b6f967f8bd659652c6c2093bc52045becbd6e8fbd96d8ef419e07bbc9fb411c56316e75f03dfc2a6613dbe896bbad20f', other).verified).toBe(true);
    expect(verifyWebhookSignature('akjdkadskjads', '8fd625190e1955eb47a9984d3e8308e3afc9049e', other).verified).toBe(true);
  });

  it('says which workspace key verified it, trying every candidate', () => {
    const two = [{ workspaceId: 'a', name: 'Acme', secret: 'nope' }, ...foo];
    expect(verifyWebhookSignature(body, '9c31e806b2f3ac4d7cf69d7c29ccf6806b9ee073', two)).toMatchObject({ verified: true, workspaceId: 'w1', message: expect.stringContaining('Test') });
  });

  it('refuses a changed body or a wrong secret as a wrong signature', () => {
    expect(verifyWebhookSignature('{"ok":"ASSEMBLY_CANCELED"}', '9c31e806b2f3ac4d7cf69d7c29ccf6806b9ee073', foo)).toMatchObject({ verified: false, reason: 'mismatch', algorithm: 'sha1' });
    expect(verifyWebhookSignature(body, 'sha1:9c31e806b2f3ac4d7cf69d7c29ccf6806b9ee073', [{ workspaceId: 'x', name: 'X', secret: 'bar' }]).message).toMatch(/^Wrong signature/);
  });

  it('says why it cannot verify: no signature, unknown prefix, malformed hex, no secret', () => {
    expect(verifyWebhookSignature(body, undefined, foo)).toMatchObject({ verified: false, reason: 'missing' });
    expect(verifyWebhookSignature(body, '  ', foo)).toMatchObject({ reason: 'missing' });
    expect(verifyWebhookSignature(body, 'md5:0123', foo)).toMatchObject({ reason: 'unknown-algorithm', algorithm: 'md5', message: expect.stringContaining('"md5"') });
    expect(verifyWebhookSignature(body, 'sha256:9c31e806b2f3ac4d7cf69d7c29ccf6806b9ee073', foo)).toMatchObject({ reason: 'malformed', algorithm: 'sha256' });
    expect(verifyWebhookSignature(body, 'zz31e806b2f3ac4d7cf69d7c29ccf6806b9ee073', foo)).toMatchObject({ reason: 'malformed', algorithm: 'sha1' });
    expect(verifyWebhookSignature(body, '9c31e806b2f3ac4d7cf69d7c29ccf6806b9ee073', [])).toMatchObject({ verified: false, reason: 'no-secret' });
    expect(readSignature('sha384:' + 'a'.repeat(96))).toMatchObject({ ok: true, algo: 'sha384' });
  });
});
