import { Readable } from 'node:stream';
import busboy from 'busboy';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fileName, whatwgReadable, whatwgSpelling } from '../testing/file-names';
import { readDisposition } from './content-disposition';
import { encodeExtValue, partHeaderReader, UnreadablePartError } from './part-headers';

/** A header value as its bytes arrive (UTF-8 bytes, one character per byte), as the reader gets it. */
const wire = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');
const fileOf = (value: string, browser = false): string | null => {
  const r = readDisposition(wire(value), { browser });
  if (!r.ok) throw new Error(r.reason);
  return r.disposition.filename;
};

describe("a file part's name, as each client spells it", () => {
  it("reads an RFC 5987 filename* with the characters encodeURIComponent leaves unescaped (the app's old spelling: the files that went missing)", () => {
    expect(fileOf(`form-data; name="file_1"; filename="holiday (1).jpg"; filename*=UTF-8''${encodeURIComponent('holiday (1).jpg')}`)).toBe('holiday (1).jpg');
    expect(fileOf(`form-data; name="f"; filename="it's *cool*!.txt"; filename*=UTF-8''${encodeURIComponent("it's *cool*!.txt")}`)).toBe("it's *cool*!.txt");
  });

  it('reads the vendor Node SDK\'s raw name (form-data escapes nothing), quotes and backslashes included', () => {
    expect(fileOf('form-data; name="file"; filename="O\'Brien "best" \\ shot.png"')).toBe('O\'Brien "best" \\ shot.png');
    expect(fileOf('form-data; name="file"; filename="ü €.txt"')).toBe('ü €.txt');
  });

  it("reads a browser's form: %22, %0D, %0A are its quote, CR and LF; a trailing backslash is the name's", () => {
    expect(fileOf('form-data; name="f"; filename="say %22hi%22.txt"', true)).toBe('say "hi".txt');
    expect(fileOf('form-data; name="f"; filename="ends with\\"', true)).toBe('ends with\\');
    expect(fileOf('form-data; name="f"; filename="a\\b.txt"', true)).toBe('a\\b.txt');
    // Every client writing WHATWG's spelling (fetch, form-data ≥ 4.0.4 — the vendor SDK's —, curl -F) is read so;
    // a client that writes a `"` raw escapes nothing, so beside one, %22 is three characters of the name.
    expect(fileOf('form-data; name="f"; filename="say %22hi%22 %0A.txt"')).toBe('say "hi" \n.txt');
    expect(fileOf('form-data; name="f"; filename="say "hi" 100%22.txt"')).toBe('say "hi" 100%22.txt');
    // Browsers write the escapes in upper case: a name's own lower-case `%0a` is the name's.
    expect(fileOf('form-data; name="f"; filename="50%0a off.txt"', true)).toBe('50%0a off.txt');
  });

  it("reads curl's --form-escape (quoted-pairs) and an unquoted token", () => {
    expect(fileOf('form-data; name="f"; filename="say \\"hi\\" \\\\ bye.txt"')).toBe('say "hi" \\ bye.txt');
    expect(fileOf('form-data; name=f; filename=plain.txt')).toBe('plain.txt');
  });

  it('takes filename* in ISO-8859-1, and falls back to filename when filename* is in a charset nobody knows', () => {
    expect(fileOf("form-data; name=f; filename*=iso-8859-1''%FCber.txt")).toBe('über.txt');
    expect(fileOf("form-data; name=f; filename=\"koi.txt\"; filename*=koi8-r''%C1")).toBe('koi.txt');
  });

  it('says why a part cannot be read', () => {
    expect(readDisposition(undefined)).toEqual({ ok: false, reason: 'it has no Content-Disposition header' });
    expect(readDisposition('attachment; filename="a.txt"')).toMatchObject({ ok: false, reason: expect.stringContaining('"attachment"') });
    expect(readDisposition("form-data; name=f; filename*=koi8-r''%C1")).toMatchObject({ ok: false, reason: expect.stringContaining('filename*') });
  });

  it('keeps NFC and NFD spellings apart, byte for byte', () => {
    expect(fileOf('form-data; name="f"; filename="caf\u00e9.txt"')).toBe('caf\u00e9.txt');
    expect(fileOf('form-data; name="f"; filename="cafe\u0301.txt"')).toBe('cafe\u0301.txt');
  });

  it('reads back every generated name from a strict RFC 5987 filename* and from the vendor SDK spelling', () => {
    fc.assert(
      fc.property(fileName, (name) => {
        expect(fileOf(`form-data; name="file_0"; filename*=UTF-8''${encodeExtValue(name)}`)).toBe(name);
        // WHATWG's spelling (browsers, fetch, form-data ≥ 4.0.4), from a browser or not, wherever it can carry the name.
        if (whatwgReadable(name)) for (const browser of [true, false]) expect(fileOf(`form-data; name="file_0"; filename="${whatwgSpelling(name)}"`, browser)).toBe(name);
        // Older `form-data`'s raw spelling (no escapes) is ambiguous only where the name holds what
        // looks like an escape (`\\`, `\"`) or spells the end of the value: those cannot be read back by anyone.
        // And a name holding `%22`, `%0D` or `%0A` but no `"`: the raw spelling then looks like WHATWG's.
        fc.pre(!/"[ \t]*(?:$|;[ \t]*(?:name|filename\*?)[ \t]*=)/i.test(name) && !/\\[\\"]/.test(name) && !name.endsWith('\\') && (name.includes('"') || !/%(?:22|0D|0A)/.test(name)));
        expect(fileOf(`form-data; name="file_0"; filename="${name}"`)).toBe(name);
      }),
      { numRuns: 300 },
    );
  });
});

/** The parts busboy sees in `body` after the reader, cut into chunks at `cuts`. */
async function partsThrough(body: Buffer, boundary: string, cuts: number[]): Promise<Array<{ field: string; filename?: string; data: string }>> {
  const chunks: Buffer[] = [];
  let at = 0;
  for (const cut of [...cuts].sort((a, b) => a - b)) {
    chunks.push(body.subarray(at, cut));
    at = cut;
  }
  chunks.push(body.subarray(at));
  const out: Array<{ field: string; filename?: string; data: string }> = [];
  const bb = busboy({ headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, preservePath: true, defParamCharset: 'utf8' });
  bb.on('field', (field, data) => out.push({ field, data }));
  bb.on('file', (field, stream, info) => {
    const got: Buffer[] = [];
    const entry = { field, filename: info.filename, data: '' };
    out.push(entry);
    stream.on('data', (c: Buffer) => got.push(c));
    stream.on('end', () => (entry.data = Buffer.concat(got).toString('latin1')));
  });
  await new Promise<void>((resolve, reject) => {
    const reader = partHeaderReader(boundary);
    reader.on('error', reject);
    bb.on('close', resolve);
    bb.on('error', reject);
    Readable.from(chunks.filter((c) => c.length > 0)).pipe(reader).pipe(bb);
  });
  return out;
}

describe('the part header reader in front of busboy', () => {
  const boundary = 'XyZ--b0undary';
  const part = (disposition: string, data: string) => `--${boundary}\r\nContent-Disposition: ${disposition}\r\nContent-Type: application/octet-stream\r\n\r\n${data}\r\n`;

  it('gives busboy every part, whatever the chunks, with its name and its bytes intact', async () => {
    const names = ['holiday (1).jpg', "it's *cool*!.txt", 'a "quoted" \\ name', 'ü €.txt'];
    const body = Buffer.from(
      `preamble\r\n--${boundary}\r\nContent-Disposition: form-data; name="params"\r\n\r\n{"a":1}\r\n` +
        part(`form-data; name="file_0"; filename="${names[0]}"; filename*=UTF-8''${encodeURIComponent(names[0]!)}`, `--${boundary.slice(0, 5)} not a boundary\r\n-`) +
        part(`form-data; name="file_1"; filename="${names[1]}"`, '') +
        part(`form-data; name="file_2"; filename="${names[2]}"`, 'x'.repeat(300)) +
        part(`form-data; name="file_3"; filename="${names[3]}"`, '\r\n\r\n') +
        `--${boundary}--\r\nepilogue`,
      'utf8',
    );
    const want = [
      { field: 'params', data: '{"a":1}' },
      { field: 'file_0', filename: names[0], data: `--${boundary.slice(0, 5)} not a boundary\r\n-` },
      { field: 'file_1', filename: names[1], data: '' },
      { field: 'file_2', filename: names[2], data: 'x'.repeat(300) },
      { field: 'file_3', filename: names[3], data: '\r\n\r\n' },
    ];
    expect(await partsThrough(body, boundary, [])).toEqual(want);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: body.length - 1 }), { maxLength: 12 }), async (cuts) => {
        expect(await partsThrough(body, boundary, cuts)).toEqual(want);
      }),
      { numRuns: 100 },
    );
  });

  it('ends with UnreadablePartError for a part it cannot read, naming the part', async () => {
    const body = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="params"\r\n\r\n{}\r\n--${boundary}\r\nContent-Type: image/png\r\n\r\nPNG\r\n--${boundary}--\r\n`);
    const error = await partsThrough(body, boundary, [40]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnreadablePartError);
    expect((error as UnreadablePartError).message).toBe('Part 2 of the multipart body cannot be read: it has no Content-Disposition header.');
  });
});
