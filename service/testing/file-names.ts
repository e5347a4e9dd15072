// fast-check generators of file names a user's disk may hold: every character Linux, macOS or Windows
// file systems allow in a name, control characters aside (quotes, brackets, % # + & ; , \, unicode in NFC
// and NFD, emoji, right-to-left text, zero-width characters, leading and trailing spaces and dots), 1–255
// UTF-8 bytes. Shared by the service's, the engine's and the vendor clients' property tests (issue 24).
import fc from 'fast-check';

export const MAX_NAME_BYTES = 255;

/** The names every OS gives to copies, and the ones that broke multipart uploads before (issue 24). */
export const COPIES_AND_APOSTROPHES = ['IMG_1234 (1).jpg', 'holiday (copy).JPG', 'scan(3).pdf', "it's mine.txt", "O'Brien headshot.png", 'bang!.txt'] as const;

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

/** ASCII a name may hold on Linux (all but `/` and NUL), controls left out; the punctuation weighted up. */
const punctuation = fc.constantFrom(...' !"#$%&\'()*+,-.:;<=>?@[\\]^_`{|}~'.split(''), '%22', '%0A', '%25', '%2F', "''", '\\"', '" ; filename=x', '*=UTF-8\'\'');
const letters = fc.constantFrom(...'abcXYZ019'.split(''));
const nfcNfd = fc.constantFrom('é', 'e\u0301', 'ü', 'u\u0308', 'Å', 'A\u030a', 'ñ', 'n\u0303', '가', '\u1100\u1161', 'ﬁ', 'Ω', 'Ω');
const emoji = fc.constantFrom('😀', '👍🏽', '👩‍👩‍👧', '🇺🇦', '❤️', '🧑‍💻');
const rtl = fc.constantFrom('שלום', 'مرحبا', '\u200f', '\u202e', '\u202b', 'ي', 'א');
const zeroWidth = fc.constantFrom('\u200b', '\u200c', '\u200d', '\ufeff', '\u2060', '\u00ad');
const spacesAndDots = fc.constantFrom(' ', '  ', '.', '..', '. .', '\u00a0', '\u3000', '\u2003');
const wide = fc.constantFrom('漢字', '日本語のファイル', 'Ελληνικά', 'кириллица', 'हिन्दी', 'ไทย', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢', '𠜎');
const anyUnicode = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 });

const piece = fc.oneof(
  { weight: 4, arbitrary: punctuation },
  { weight: 4, arbitrary: letters },
  { weight: 2, arbitrary: nfcNfd },
  { weight: 1, arbitrary: emoji },
  { weight: 1, arbitrary: rtl },
  { weight: 1, arbitrary: zeroWidth },
  { weight: 2, arbitrary: spacesAndDots },
  { weight: 1, arbitrary: wide },
  { weight: 2, arbitrary: anyUnicode },
);

// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f/]|[\ud800-\udfff]/gu;

/** The longest prefix of `s` (whole code points) within `max` UTF-8 bytes. */
export function cutToBytes(s: string, max: number): string {
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    const n = byteLength(ch);
    if (bytes + n > max) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/** A name made legal on Linux: no `/`, NUL or controls (nor lone surrogates), not `.`/`..`, 1–255 bytes. */
export function legalName(raw: string): string {
  // With the u flag the surrogate range matches only lone surrogates, which UTF-8 cannot carry.
  let s = raw.replace(FORBIDDEN, '');
  s = cutToBytes(s, MAX_NAME_BYTES);
  if (s === '' || s === '.' || s === '..') s = `x${s}`;
  return s;
}

/** One file name: short and ordinary to long and hostile, 1–255 bytes. */
export const fileName: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.array(piece, { minLength: 1, maxLength: 12 }).map((p) => legalName(p.join(''))) },
  { weight: 1, arbitrary: fc.constantFrom(...COPIES_AND_APOSTROPHES, 'plain.txt', 'holiday (1).jpg', "it's *cool*!.txt", 'ü €.txt') },
  // Near and at the 255-byte limit, ending in a multi-byte character or an extension.
  {
    weight: 1,
    arbitrary: fc.tuple(fc.array(piece, { minLength: 1, maxLength: 4 }), fc.integer({ min: 200, max: 300 }), fc.constantFrom('.jpg', 'é', '😀', ' ', '.')).map(([p, n, tail]) => {
      const head = legalName(p.join(''));
      return legalName(cutToBytes(head + 'n'.repeat(n), MAX_NAME_BYTES - byteLength(tail)) + tail);
    }),
  },
);

/** Control characters: Linux allows every one in a name (all but NUL); macOS and Windows refuse most. */
const controls = fc.constantFrom('\t', '\n', '\r', '\r\n', '\u0001', '\u001b', '\u007f', '\u0085', '\u009b');
// eslint-disable-next-line no-control-regex
const NOT_ON_LINUX = /[\u0000/]|[\ud800-\udfff]/gu;

/** A name made legal on Linux with its control characters kept: no `/` or NUL, not `.`/`..`, 1–255 bytes. */
export function linuxName(raw: string): string {
  let s = cutToBytes(raw.replace(NOT_ON_LINUX, ''), MAX_NAME_BYTES);
  if (s === '' || s === '.' || s === '..') s = `x${s}`;
  return s;
}

/** One name as Linux allows it: {@link fileName}, or one with control characters (a tab, CR, LF, ESC, DEL, C1). */
export const linuxFileName: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fileName },
  { weight: 1, arbitrary: fc.array(fc.oneof(controls, piece), { minLength: 1, maxLength: 10 }).map((p) => linuxName(p.join(''))) },
);

/**
 * A name as WHATWG's multipart spelling writes it (browsers, Node's fetch, `form-data` ≥ 4.0.4, curl -F):
 * raw UTF-8 with `"` CR LF as `%22 %0D %0A`, `\` raw. It cannot carry a name that already holds one of
 * those escapes (a `%` is not escaped) or `\\` (read as one backslash, as busboy reads it): no reader can
 * tell those apart, so a property over that spelling leaves them out.
 */
export const whatwgSpelling = (name: string): string => name.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
export const whatwgReadable = (name: string): boolean => !/%(?:22|0D|0A)/.test(name) && !name.includes('\\\\');

/** Names for one folder: distinct byte strings (NFC and NFD spellings of one name are two files on Linux). */
export const fileNames = (minLength: number, maxLength: number): fc.Arbitrary<string[]> => fc.uniqueArray(fileName, { minLength, maxLength, selector: (n) => n });
