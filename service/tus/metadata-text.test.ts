// Invariant: a tus upload's metadata is recorded as sent or refused, never changed. Whatever bytes a
// client base64-encodes, the service either refuses the value (keyNotText names its key) or the text the
// tus library decodes is those bytes exactly.
import { Metadata } from '@tus/server';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { uploadMetadata } from '../testing/tus-test-data';
import { keyNotText, notTextMessage } from './metadata-text';

const header = (values: Record<string, Uint8Array>): string =>
  Object.entries(values)
    .map(([k, v]) => `${k} ${Buffer.from(v).toString('base64')}`)
    .join(',');

describe('Upload-Metadata values that are not UTF-8 text', () => {
  it('names the first value that is not, and passes UTF-8 text of any kind', () => {
    const latin1Name = Uint8Array.from(Buffer.from('café.jpg', 'latin1'));
    expect(keyNotText(header({ assembly_url: Buffer.from('http://x/assemblies/a'), filename: latin1Name }))).toBe('filename');
    expect(keyNotText(header({ filename: Buffer.from('ok.jpg'), caption: Uint8Array.of(0xff) }))).toBe('caption');
    // A lone surrogate's bytes (CESU) and an overlong slash are not UTF-8 either.
    expect(keyNotText(header({ filename: Uint8Array.of(0xed, 0xa0, 0x80) }))).toBe('filename');
    expect(keyNotText(header({ filename: Uint8Array.of(0xc0, 0xaf) }))).toBe('filename');
    expect(keyNotText(uploadMetadata({ filename: 'café 🙂 \uFFFD.jpg', fieldname: 'file' }))).toBeNull();
    expect(keyNotText(uploadMetadata({ filename: '\uFEFFbom.txt' }))).toBeNull();
    // Absent, empty, a key without a value, or malformed (the library's own refusal): not this check's.
    for (const h of [undefined, '', 'is_public', 'a b c', 'x !!!!']) expect(keyNotText(h)).toBeNull();
    expect(notTextMessage('filename')).toMatch(/filename is not UTF-8 text/);
  });

  it('refuses exactly the values the tus library would not decode to the bytes sent (fast-check)', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.stringMatching(/^[a-z_]{1,12}$/), fc.uint8Array({ maxLength: 24 }), { minKeys: 1, maxKeys: 4 }), (values) => {
        // The library refuses a key that names an Object.prototype member ("constructor") as malformed.
        fc.pre(Object.keys(values).every((k) => !(k in {})));
        const h = header(values);
        const refused = keyNotText(h);
        const decoded = Metadata.parse(h);
        const exact = (k: string) => Buffer.from(decoded[k] ?? '', 'utf8').equals(Buffer.from(values[k]!));
        const lossy = Object.keys(values).filter((k) => !exact(k));
        // Refused ⇔ something would be recorded other than sent; and the key named is the first such one.
        expect(refused).toBe(lossy[0] ?? null);
      }),
      { numRuns: 500 },
    );
  });
});
