import { describe, expect, it } from 'vitest';
import { parseExpires, parseSignature, signParams, verifySignature } from './signature';

// service-facts.md §1 "Test vectors" (NS test file, mocked expiry 2021-01-06T21:11:07.883Z).
const P1 = '{"auth":{"key":"foo_key","expires":"2021-01-06T21:11:07.883Z"}}';
const P2 = '{"foo":"bar","auth":{"key":"foo_key","expires":"2021-01-06T21:11:07.883Z"}}';
const NS_VECTORS: [secret: string, message: string, sha384: string, sha1: string][] = [
  ['foo_secret', P1, 'f146533532844d4f4e34221288be08e14a2779eeb802a35afa6a193762f58da95d2423a825aa4cb4c7420e25f75a5c90', '8aa4444c9688bb5f03fcf77b24336b7a3a14f627'],
  ['foo_secret', P2, 'd3eed795abcac19191c9d06b4adf8a7cbd427846a842121e087e60059365bee5fc16f11ed580cb246cda694b3da10e88', 'c84113bd21fe7b5eb5683ac8513995993240662b'],
  ['13123123123', P2, '431542b924ecc9e7f062e37d1c83554f5bc19664ed7e6e1ef954c0b021b9be19c9412c2074f226784c5419b630e8b70a', 'be7aec095815931e6cd6dc322ed886ca9746e5bf'],
  ['13123123123', 'foo', '8b90663d4b7d14ac7d647c74cb53c529198dee4689d0f8faae44f0df1c2a157acce5cb8c55a375218bc331897cf92e9d', '57ddad5dbba538590e60f0938f364c7179316eba'],
  ['13123123123', 'akjdkadskjads', '3595c177fc09c9cc46672cef90685257838a0a4295056dcfd45b5d5c255e8f987e1c1ca8800b9c21ee03e4ada7485e9d', 'b8110452b4ba46a9ecf438271bbd79f25d2a5400'],
  ['90191902390123', 'foo', 'b6f967f8bd659652c6c2093bc52045becbd6e8fbd96d8ef419e07bbc9fb411c56316e75f03dfc2a6613dbe896bbad20f', 'd393c38de2cbc993bea52f8ecdf56c7ede8b920d'],
  ['90191902390123', 'akjdkadskjads', 'fc75f6a4bbb06340653c0f7efff013e94eb8e402e0e45cf40ad4bc95f45a3ae3263032000727359c595a433364a84f96', '8fd625190e1955eb47a9984d3e8308e3afc9049e'],
];

const PHP_SECRET = 'd805593620e689465d7da6b8caf2ac7384fdb7e9';
const PHP_PARAMS = '{"auth":{"expires":"2010\\/10\\/19 09:01:20+00:00","key":"2b0c45611f6440dfb64611e872ec3211"},"steps":{"encode":{"robot":"\\/video\\/encode"}}}';
const PY_PARAMS =
  '{"steps": {"import": {"url": "https://demos.transloadit.com/inputs/chameleon.jpg", "robot": "/http/import"}, "resize": {"use:": "import", "width": 70, "height": 70, "robot": "/image/resize"}}, "auth": {"key": "TRANSLOADIT_KEY", "expires": "2024/04/04 04:49:44+00:00"}}';

describe('signature verification (service-facts.md §1 vectors)', () => {
  it.each(NS_VECTORS)('sha384 vector: secret %s', (secret, message, hex) => {
    expect(signParams(message, secret, 'sha384')).toBe(`sha384:${hex}`);
    expect(verifySignature(message, `sha384:${hex}`, secret)).toBe(true);
  });

  it.each(NS_VECTORS)('legacy bare sha1 vector: secret %s', (secret, message, _sha384, sha1) => {
    expect(verifySignature(message, sha1, secret)).toBe(true);
    expect(verifySignature(message, `sha1:${sha1}`, secret)).toBe(true);
  });

  it('PHP vector (escaped slashes kept as sent) in sha384, sha1 and bare sha1', () => {
    expect(verifySignature(PHP_PARAMS, 'sha384:69b74f954488cbb571cace210ae9039d18d84ec57edc784d19fd364f4295c99c93c14f0fed7f245b480d5856f12effc2', PHP_SECRET)).toBe(true);
    expect(verifySignature(PHP_PARAMS, 'sha1:fec703ccbe36b942c90d17f64b71268ed4f5f512', PHP_SECRET)).toBe(true);
    expect(verifySignature(PHP_PARAMS, 'fec703ccbe36b942c90d17f64b71268ed4f5f512', PHP_SECRET)).toBe(true);
  });

  it('Python vector (spaces after separators) verifies against the raw string only', () => {
    const sig = 'sha384:46943b5542af95679940d94507865b20b36cb1808a7a9dc64c6255f26d1e921bd6574443b80b0dcd595769268f74273c';
    expect(verifySignature(PY_PARAMS, sig, 'TRANSLOADIT_SECRET')).toBe(true);
    // Re-serializing would change the bytes and must not verify.
    expect(verifySignature(JSON.stringify(JSON.parse(PY_PARAMS)), sig, 'TRANSLOADIT_SECRET')).toBe(false);
  });

  it('sha256 is accepted; wrong secret, tampered params, unknown algorithm and junk are rejected', () => {
    expect(verifySignature(P1, signParams(P1, 'foo_secret', 'sha256'), 'foo_secret')).toBe(true);
    const good = `sha384:${NS_VECTORS[0]![2]}`;
    expect(verifySignature(P1, good, 'other_secret')).toBe(false);
    expect(verifySignature(`${P1} `, good, 'foo_secret')).toBe(false);
    expect(verifySignature(P1, good.replace('sha384', 'md5'), 'foo_secret')).toBe(false);
    expect(verifySignature(P1, 'sha384:zz', 'foo_secret')).toBe(false);
    expect(verifySignature(P1, '', 'foo_secret')).toBe(false);
    expect(parseSignature('SHA384:ABCD')).toEqual({ algo: 'sha384', hex: 'abcd' });
  });
});

describe('auth.expires formats', () => {
  it('parses ISO-8601 and YYYY/MM/DD HH:MM:SS+00:00 to the same instant', () => {
    expect(parseExpires('2021-01-06T21:11:07.000Z')).toBe(Date.UTC(2021, 0, 6, 21, 11, 7));
    expect(parseExpires('2021/01/06 21:11:07+00:00')).toBe(Date.UTC(2021, 0, 6, 21, 11, 7));
  });

  it('is lenient with the TransloaditKit shape (unpadded seconds) and without a zone', () => {
    expect(parseExpires('2024/04/04 04:49:4+00:00')).toBe(Date.UTC(2024, 3, 4, 4, 49, 4));
    expect(parseExpires('2024/04/04 04:49:44')).toBe(Date.UTC(2024, 3, 4, 4, 49, 44));
  });

  it('rejects values that are not dates', () => {
    expect(parseExpires('tomorrow')).toBeNull();
    expect(parseExpires(12345)).toBeNull();
    expect(parseExpires('')).toBeNull();
  });
});
