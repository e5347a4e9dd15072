import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

/** A file part whose bytes are read from disk while the request is sent (never buffered whole). */
export interface StreamedPart {
  field: string;
  name: string;
  mime: string | null;
  /** A fresh stream of the file's bytes (each attempt of a request opens it again). */
  open(): Readable;
  /**
   * A small file's bytes whole, when its caller has them (read once before the request): sent without a
   * stream, several parts to a write. Each attempt of a request calls it again.
   */
  read?(): Buffer | Promise<Buffer>;
}

/** Small parts are gathered into writes of about this size: a socket write per 2 KB file cost more than the file. */
const COALESCE_BYTES = 64 * 1024;

/** RFC 5987 attr-char: what an ext-value carries unescaped. */
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;

/**
 * The value of `filename*` (RFC 5987 ext-value, after `UTF-8''`): every UTF-8 byte outside attr-char as
 * %XX. Not encodeURIComponent, which leaves `( ) ' * !` as they are: a strict reader (busboy) then
 * refuses the whole header and drops the file. Pure.
 */
export function extValue(name: string): string {
  let out = '';
  for (const byte of Buffer.from(name, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && ATTR_CHAR.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/**
 * A quoted-string of a form's name as RFC 7578 has it: the UTF-8 name itself, with `"`, CR and LF as
 * %22, %0D, %0A (what browsers write, which busboy and formidable read without error) and `\` as `\\`
 * (busboy reads a lone `\` before the closing quote as an escape and refuses the header). Other control
 * characters as %XX too: no reader takes them raw. Pure.
 */
export function quotedName(name: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${name.replace(/\\/g, '\\\\').replace(/[\x00-\x1f\x7f"]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)}"`;
}

/**
 * A quoted-string of a field's name: `\` and `"` as quoted-pairs (`\\`, `\"`), which busboy, Go and Python
 * read back exactly (a name has no `name*` to carry it otherwise); CR, LF and other controls as %XX. Pure.
 */
export function quotedField(name: string): string {
  // eslint-disable-next-line no-control-regex
  return `"${name.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\x00-\x1f\x7f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)}"`;
}

/**
 * A file part's Content-Disposition: the name in `filename` (RFC 7578) and, exactly, in `filename*`
 * (RFC 5987), which busboy-based servers (ours among them) prefer; a reader that knows only `filename`
 * still gets the name, with a `"` as %22 as from a browser. Pure.
 */
export function fileDisposition(field: string, name: string): string {
  return `form-data; name=${quotedField(field)}; filename=${quotedName(name)}; filename*=UTF-8''${extValue(name)}`;
}

/**
 * A multipart/form-data body as a stream: text fields first (params and signature before any file, as
 * the service authenticates them first), then the files one after another, each read as it is sent.
 */
export function multipartStream(fields: ReadonlyArray<readonly [string, string]>, parts: readonly StreamedPart[]): { body: ReadableStream<Uint8Array>; contentType: string } {
  const boundary = `----assemblyline${randomBytes(12).toString('hex')}`;
  const CRLF = Buffer.from('\r\n');
  async function* generate() {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const add = (b: Buffer) => {
      pending.push(b);
      pendingBytes += b.length;
    };
    const take = (): Buffer => {
      const out = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
      pending = [];
      pendingBytes = 0;
      return out;
    };
    for (const [name, value] of fields) add(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name=${quotedField(name)}\r\n\r\n${value}\r\n`));
    for (const part of parts) {
      add(Buffer.from(`--${boundary}\r\nContent-Disposition: ${fileDisposition(part.field, part.name)}\r\nContent-Type: ${part.mime ?? 'application/octet-stream'}\r\n\r\n`));
      if (part.read) add(await part.read());
      else {
        // A streamed file goes out as it is read, after what was gathered before it.
        yield take();
        for await (const chunk of part.open()) yield chunk as Buffer;
      }
      add(CRLF);
      if (pendingBytes >= COALESCE_BYTES) yield take();
    }
    add(Buffer.from(`--${boundary}--\r\n`));
    yield take();
  }
  return { body: Readable.toWeb(Readable.from(generate())) as ReadableStream<Uint8Array>, contentType: `multipart/form-data; boundary=${boundary}` };
}
