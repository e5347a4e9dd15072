import { describe, expect, it } from 'vitest';
import { buildParams, signParams } from './sign-params';

// service-facts.md §1 "Test vectors": NS test file, mocked expiry 2021-01-06T21:11:07.883Z.
const nsInputs: Array<[string, string]> = [
  ['foo_secret', '{"auth":{"key":"foo_key","expires":"2021-01-06T21:11:07.883Z"}}'],
  ['foo_secret', '{"foo":"bar","auth":{"key":"foo_key","expires":"2021-01-06T21:11:07.883Z"}}'],
  ['13123123123', '{"foo":"bar","auth":{"key":"foo_key","expires":"2021-01-06T21:11:07.883Z"}}'],
  ['13123123123', 'foo'],
  ['13123123123', 'akjdkadskjads'],
  ['90191902390123', 'foo'],
  ['90191902390123', 'akjdkadskjads'],
];
const sha384Expected = [
  'sha384:f146533532844d4f4e34221288be08e14a2779eeb802a35afa6a193762f58da95d2423a825aa4cb4c7420e25f75a5c90',
  'sha384:d3eed795abcac19191c9d06b4adf8a7cbd427846a842121e087e60059365bee5fc16f11ed580cb246cda694b3da10e88',
  'sha384:431542b924ecc9e7f062e37d1c83554f5bc19664ed7e6e1ef954c0b021b9be19c9412c2074f226784c5419b630e8b70a',
  'sha384:8b90663d4b7d14ac7d647c74cb53c529198dee4689d0f8faae44f0df1c2a157acce5cb8c55a375218bc331897cf92e9d',
  'sha384:3595c177fc09c9cc46672cef90685257838a0a4295056dcfd45b5d5c255e8f987e1c1ca8800b9c21ee03e4ada7485e9d',
  'sha384:b6f967f8bd659652c6c2093bc52045becbd6e8fbd96d8ef419e07bbc9fb411c56316e75f03dfc2a6613dbe896bbad20f',
  'sha384:fc75f6a4bbb06340653c0f7efff013e94eb8e402e0e45cf40ad4bc95f45a3ae3263032000727359c595a433364a84f96',
];
const sha1LegacyExpected = [
  '8aa4444c9688bb5f03fcf77b24336b7a3a14f627',
  'c84113bd21fe7b5eb5683ac8513995993240662b',
  'be7aec095815931e6cd6dc322ed886ca9746e5bf',
  '57ddad5dbba538590e60f0938f364c7179316eba',
  'b8110452b4ba46a9ecf438271bbd79f25d2a5400',
  'd393c38de2cbc993bea52f8ecdf56c7ede8b920d',
  '8fd625190e1955eb47a9984d3e8308e3afc9049e',
];

describe('signParams', () => {
  it.each(nsInputs.map((input, i) => [...input, sha384Expected[i]!]))(
    'matches the Node SDK sha384 vector for secret %s, params %s',
    (secret, params, expected) => {
      expect(signParams(params, secret)).toBe(expected);
    },
  );

  it.each(nsInputs.map((input, i) => [...input, sha1LegacyExpected[i]!]))(
    'matches the legacy sha1 vector for secret %s, params %s',
    (secret, params, expected) => {
      expect(signParams(params, secret, 'sha1')).toBe(`sha1:${expected}`);
    },
  );

  const phpSecret = 'd805593620e689465d7da6b8caf2ac7384fdb7e9';
  const phpParams =
    '{"auth":{"expires":"2010\\/10\\/19 09:01:20+00:00","key":"2b0c45611f6440dfb64611e872ec3211"},"steps":{"encode":{"robot":"\\/video\\/encode"}}}';

  it('matches the PHP SDK vectors (escaped slashes are signed as sent)', () => {
    expect(signParams(phpParams, phpSecret, 'sha384')).toBe(
      'sha384:69b74f954488cbb571cace210ae9039d18d84ec57edc784d19fd364f4295c99c93c14f0fed7f245b480d5856f12effc2',
    );
    expect(signParams(phpParams, phpSecret, 'sha1')).toBe('sha1:fec703ccbe36b942c90d17f64b71268ed4f5f512');
  });

  it('matches the Python SDK vector (json.dumps spacing)', () => {
    const params =
      '{"steps": {"import": {"url": "https://demos.transloadit.com/inputs/chameleon.jpg", "robot": "/http/import"}, "resize": {"use:": "import", "width": 70, "height": 70, "robot": "/image/resize"}}, "auth": {"key": "TRANSLOADIT_KEY", "expires": "2024/04/04 04:49:44+00:00"}}';
    expect(signParams(params, 'TRANSLOADIT_SECRET')).toBe(
      'sha384:46943b5542af95679940d94507865b20b36cb1808a7a9dc64c6255f26d1e921bd6574443b80b0dcd595769268f74273c',
    );
  });

  it('signs with sha256 when the key asks for it', () => {
    expect(signParams('foo', '13123123123', 'sha256')).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});

describe('buildParams', () => {
  it('sets auth.key, an ISO expiry from the injected clock and a nonce, keeping the rest', () => {
    const json = buildParams(
      { steps: { a: { robot: '/upload/handle' } }, auth: { max_size: 10 } },
      { authKey: 'k1', now: Date.parse('2026-01-01T00:00:00.000Z'), expiresInMinutes: 30, nonce: 'n1' },
    );
    expect(JSON.parse(json)).toEqual({
      auth: { max_size: 10, key: 'k1', expires: '2026-01-01T00:30:00.000Z', nonce: 'n1' },
      steps: { a: { robot: '/upload/handle' } },
    });
  });

  it('gives every request a different nonce', () => {
    const a = JSON.parse(buildParams({}, { authKey: 'k', now: 0 })).auth.nonce;
    const b = JSON.parse(buildParams({}, { authKey: 'k', now: 0 })).auth.nonce;
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(a).not.toBe(b);
  });
});
