// fast-check generators for hostile input: JSON of every shape, names that try to climb out of folders,
// step graphs with cycles and long chains, LIKE patterns, tus header junk.
import fc from 'fast-check';
import { KNOWN_ROBOTS, reachesOtherServers } from '../instructions/known-robots';

/** Numbers a careless parser trips on. */
export const oddNumber = fc.constantFrom(0, -0, -1, 1e308, -1e308, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, 1.5, 0.0000001, 1e21, 25001, 4294967296);

export const oddString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('', ' ', '%', '%%%%%%%%%%%%%%%%%%%%', '_', '${file.name}', '${fields.x}', '\u0000', 'null', 'NaN', '[object Object]', '../../etc/passwd', '2099-01-01T00:00:00Z', '1970/01/01 00:00:00+00:00', '(a+)+$', '.*'),
);

/** Any JSON value, with odd numbers and strings mixed in. */
export const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.constantFrom(null, true, false),
    oddNumber,
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    oddString,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(oddString, fc.constantFrom('auth', 'steps', 'use', 'robot', '__proto__', 'constructor')), tie('v'), { maxKeys: 4 }),
  ),
})).v;

/** JSON text nested `depth` deep, built as text (no recursion on either side of the wire). */
export const deepJsonText = (depth: number, kind: 'array' | 'object'): string =>
  kind === 'array' ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);

/** Path pieces that try to leave a folder; at most 10 `..` in a name so any escape stays in the sandbox. */
const namePiece = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom('..', '.', '', '~', 'service.sqlite', 'etc', 'passwd', 'level6', 'canary.txt', 'a.jpg', 'CON', 'nul') },
  { weight: 3, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 8 }) },
  { weight: 1, arbitrary: fc.constantFrom(':', '?', '#', '%', '%2e%2e', '%00', '\u0000', '\\', '\r\n', '"', "'", '*', '|', '<>', '\u202e', '\u0301', '\ud83d\ude00') },
);

export const hostileName: fc.Arbitrary<string> = fc
  .oneof(
    { weight: 5, arbitrary: fc.array(namePiece, { minLength: 1, maxLength: 6 }).chain((pieces) => fc.constantFrom('/', '\\').map((sep) => pieces.join(sep))) },
    { weight: 1, arbitrary: fc.integer({ min: 200, max: 1200 }).map((n) => `${'n'.repeat(n)}.jpg`) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 10 }).map((n) => `${'../'.repeat(n)}service.sqlite`) },
    { weight: 1, arbitrary: fc.constantFrom('/etc/passwd', '/tmp/x.jpg', 'C:\\Windows\\x.jpg', '\\\\server\\share\\x.jpg', 'file:///etc/passwd') },
  )
  .filter((name) => name.split(/[/\\]/).filter((p) => p === '..').length <= 10);

/** Robots the fuzzer may name: every local robot except storage and imports (they would dial random hosts). */
const LOCAL_ROBOTS = KNOWN_ROBOTS.filter((r) => !reachesOtherServers(r));

const stepParam = fc.oneof(
  fc.record({ width: fc.oneof(fc.integer({ min: 1, max: 64 }), oddNumber, oddString) }, { requiredKeys: [] }),
  fc.record({ height: fc.oneof(fc.integer({ min: 1, max: 64 }), oddNumber, oddString) }, { requiredKeys: [] }),
  fc.record({ format: fc.oneof(fc.constantFrom('jpg', 'png', 'webp', 'gif', 'tar', 'zip', 'json', 'image', 'mp3'), oddString) }),
  fc.record({ resize_strategy: fc.oneof(fc.constantFrom('crop', 'fit', 'pad', 'fillcrop'), oddString) }),
  fc.record({ result: fc.oneof(fc.boolean(), anyJson) }),
  fc.record({ accepts: anyJson }),
  fc.record({ archive_name: hostileName }),
  fc.record({ algorithm: fc.oneof(fc.constantFrom('md5', 'sha256', 'b2'), oddString) }),
  fc.record({ count: fc.oneof(fc.integer({ min: 0, max: 4 }), oddNumber) }),
  fc.record({ ignore_errors: anyJson }),
  fc.dictionary(oddString, anyJson, { maxKeys: 2 }),
);

/** `use` in all its spellings, pointing at names that may or may not exist. */
const useOf = (names: readonly string[]): fc.Arbitrary<unknown> =>
  fc.oneof(
    fc.constantFrom(...names),
    fc.array(fc.constantFrom(...names), { maxLength: 3 }),
    fc.record({ steps: fc.array(fc.oneof(fc.constantFrom(...names), fc.record({ name: fc.constantFrom(...names), as: oddString })), { maxLength: 3 }), bundle_steps: fc.boolean() }, { requiredKeys: ['steps'] }),
    anyJson,
  );

const STEP_NAMES = [':original', 'a', 'b', 'c', 'd', 'missing'] as const;

/** A random step graph over a small set of names: unknown robots, bad `use`, cycles and self-loops included. */
export const randomSteps: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.dictionary(
      fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...STEP_NAMES.slice(0, 5)) }, { weight: 1, arbitrary: oddString }),
      fc.record(
        {
          robot: fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...LOCAL_ROBOTS) }, { weight: 1, arbitrary: anyJson }),
          use: useOf(STEP_NAMES),
          params: stepParam,
        },
        { requiredKeys: [] },
      ).map(({ params, ...rest }) => ({ ...rest, ...(params as object) })),
      { minKeys: 0, maxKeys: 5 },
    ),
  },
  { weight: 1, arbitrary: anyJson },
  // Long chains, optionally closed into a cycle.
  {
    weight: 2,
    arbitrary: fc.record({ length: fc.oneof(fc.integer({ min: 2, max: 300 }), fc.integer({ min: 300, max: 30_000 })), cycle: fc.boolean() }).map(({ length, cycle }) => {
      const steps: Record<string, unknown> = { ':original': { robot: '/upload/handle' } };
      for (let i = 0; i < length; i++) steps[`s${i}`] = { robot: '/file/hash', use: i === 0 ? (cycle ? `s${length - 1}` : ':original') : `s${i - 1}` };
      return steps;
    }),
  },
);

/** LIKE patterns and search words: `%` and `_` runs, escapes, regex syntax, unicode. */
export const likePattern: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: fc.constantFrom('%', '_', 'a', '\\', '.', '*', '(', '[', 'é'), maxLength: 60 }),
  fc.integer({ min: 1, max: 200 }).map((n) => '%'.repeat(n) + 'x'),
  fc.integer({ min: 1, max: 60 }).map((n) => '%a'.repeat(n) + '!'),
  oddString,
);

/** Values for a tus header: numbers of every size and sign, junk, and valid-looking ones. */
export const tusNumber = fc.oneof(
  fc.nat({ max: 4096 }).map(String),
  fc.constantFrom('-1', '0', '1e3', '0x10', ' 5', '5 ', '9007199254740993', '99999999999999999999999', '', 'abc', '1.5', '+1'),
);

export const tusMetadata = (assemblyUrl: string): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength: 80 }),
    fc
      .array(
        fc.tuple(
          fc.oneof(fc.constantFrom('assembly_url', 'filename', 'fieldname', 'name', 'filetype', 'relative_path'), fc.string({ maxLength: 10 })),
          fc.oneof(
            fc.constant(Buffer.from(assemblyUrl).toString('base64')),
            hostileName.map((n) => Buffer.from(n).toString('base64')),
            fc.string({ maxLength: 20 }),
            fc.constantFrom('', '====', '!!!', 'YQ', 'YQ=', '*'),
          ),
        ),
        { maxLength: 5 },
      )
      .map((pairs) => pairs.map(([k, v]) => (v === '' ? k : `${k} ${v}`)).join(',')),
  );
