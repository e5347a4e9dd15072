import { Transform, type TransformCallback } from 'node:stream';
import { readDisposition, type DispositionOptions } from './content-disposition';

// A multipart body passes through this on its way to busboy. Each part's Content-Disposition is read
// leniently (content-disposition.ts) and written again in the one spelling busboy reads exactly
// (`filename*=utf-8''` with every byte outside RFC 5987's attr-chars escaped); bodies pass through as they
// are. A part whose disposition cannot be read at all ends the stream with UnreadablePartError, so the
// request is refused with a code instead of completing without that part (busboy skips such a part
// silently). docs/local-service.md "File names in multipart bodies".

/** A part header block longer than this is left to busboy, which refuses it (its own limit is 16 KiB). */
const MAX_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

export class UnreadablePartError extends Error {
  constructor(
    /** 1-based, counting every part of the body (fields too). */
    readonly part: number,
    readonly reason: string,
  ) {
    super(`Part ${part} of the multipart body cannot be read: ${reason}.`);
  }
}

/** RFC 5987 attr-char: what an ext-value may carry unescaped. */
const ATTR_CHAR = /[A-Za-z0-9!#$&+\-.^_`|~]/;

/** An RFC 5987 ext-value's value part: the UTF-8 bytes of `s`, every byte outside attr-char as %XX. Pure. */
export function encodeExtValue(s: string): string {
  let out = '';
  for (const byte of Buffer.from(s, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += byte < 0x80 && ATTR_CHAR.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A quoted-string busboy reads back exactly: `\` and `"` escaped, controls (which it refuses) as %XX. Binary string. */
function quoteForBusboy(s: string): string {
  // eslint-disable-next-line no-control-regex
  const escaped = s.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\x00-\x08\x0a-\x1f\x7f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
  return `"${Buffer.from(escaped, 'utf8').toString('latin1')}"`;
}

/** A part's header block (binary string, without the final CRLFCRLF), its disposition rewritten; or why it cannot be read. */
export function rewritePartHeaders(block: string, o: DispositionOptions): { ok: true; block: string } | { ok: false; reason: string } {
  const lines: string[] = [];
  for (const line of block === '' ? [] : block.split('\r\n')) {
    // An obsolete folded line continues the previous header.
    if ((line.startsWith(' ') || line.startsWith('\t')) && lines.length > 0) lines[lines.length - 1] += ` ${line.trim()}`;
    else lines.push(line);
  }
  const at = lines.findIndex((l) => /^content-disposition[ \t]*:/i.test(l));
  const read = readDisposition(at === -1 ? undefined : lines[at]!.slice(lines[at]!.indexOf(':') + 1), o);
  if (!read.ok) return read;
  const d = read.disposition;
  let value = 'form-data';
  if (d.name !== null) value += `; name=${quoteForBusboy(d.name)}`;
  if (d.filename !== null) value += d.filename === '' ? '; filename=""' : `; filename*=utf-8''${encodeExtValue(d.filename)}`;
  lines[at] = `Content-Disposition: ${value}`;
  return { ok: true, block: lines.join('\r\n') };
}

type Mode = 'body' | 'post-boundary' | 'headers' | 'end';

/**
 * The Transform described above, for a body with `boundary`. Data between part headers is passed on
 * without copying where possible; only a few bytes (a possible boundary cut between chunks) are held back.
 */
export function partHeaderReader(boundary: string, o: DispositionOptions = {}): Transform {
  const needle = Buffer.from(`\r\n--${boundary}`);
  // As busboy does: a CRLF before the body, so a boundary on its first line matches too (it is not passed on).
  let held: Buffer = CRLF;
  let skipOut = CRLF.length;
  let mode: Mode = 'body';
  let part = 0;
  let header: Buffer = Buffer.alloc(0);

  return new Transform({
    transform(chunk: Buffer, _enc, cb: TransformCallback) {
      const push = (b: Buffer): void => {
        if (b.length === 0) return;
        if (skipOut > 0) {
          const n = Math.min(skipOut, b.length);
          skipOut -= n;
          b = b.subarray(n);
          if (b.length === 0) return;
        }
        this.push(b);
      };
      let buf = held.length > 0 ? Buffer.concat([held, chunk]) : chunk;
      held = Buffer.alloc(0);
      let pos = 0;
      while (pos < buf.length) {
        if (mode === 'end') {
          push(buf.subarray(pos));
          pos = buf.length;
        } else if (mode === 'body') {
          const at = buf.indexOf(needle, pos);
          if (at === -1) {
            // Keep back what could be the start of a boundary cut by the chunk's end.
            const keep = Math.min(needle.length - 1, buf.length - pos);
            push(buf.subarray(pos, buf.length - keep));
            held = Buffer.from(buf.subarray(buf.length - keep));
            pos = buf.length;
          } else {
            push(buf.subarray(pos, at + needle.length));
            pos = at + needle.length;
            mode = 'post-boundary';
          }
        } else if (mode === 'post-boundary') {
          if (buf.length - pos < 2) {
            held = Buffer.from(buf.subarray(pos));
            pos = buf.length;
          } else if (buf[pos] === 0x2d && buf[pos + 1] === 0x2d) {
            mode = 'end';
          } else if (buf[pos] === 0x0d && buf[pos + 1] === 0x0a) {
            push(buf.subarray(pos, pos + 2));
            pos += 2;
            mode = 'headers';
            part++;
            header = Buffer.alloc(0);
          } else {
            mode = 'body'; // not a boundary after all: busboy decides what it is
          }
        } else {
          const soFar = header.length === 0 ? buf.subarray(pos) : Buffer.concat([header, buf.subarray(pos)]);
          // A block of no headers at all is a bare CRLF.
          const bare = soFar.length >= 2 && soFar[0] === 0x0d && soFar[1] === 0x0a;
          const sepAt = bare ? 0 : soFar.indexOf(HEADER_END);
          if (sepAt === -1) {
            if (soFar.length > MAX_HEADER_BYTES) {
              push(soFar);
              header = Buffer.alloc(0);
              mode = 'body';
            } else {
              header = Buffer.from(soFar);
            }
            pos = buf.length;
            continue;
          }
          const rewritten = rewritePartHeaders(soFar.subarray(0, sepAt).toString('latin1'), o);
          if (!rewritten.ok) {
            cb(new UnreadablePartError(part, rewritten.reason));
            return;
          }
          push(Buffer.from(rewritten.block, 'latin1'));
          // The blank line after the headers goes on as it came.
          const bodyAt = sepAt + (bare ? 2 : 4);
          push(soFar.subarray(sepAt, bodyAt));
          buf = soFar;
          pos = bodyAt;
          header = Buffer.alloc(0);
          mode = 'body';
        }
      }
      cb();
    },
    flush(cb: TransformCallback) {
      if (held.length > 0) this.push(skipOut > 0 ? held.subarray(Math.min(skipOut, held.length)) : held);
      if (header.length > 0) this.push(header);
      cb();
    },
  });
}
