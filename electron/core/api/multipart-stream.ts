import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

/** A file part whose bytes are read from disk while the request is sent (never buffered whole). */
export interface StreamedPart {
  field: string;
  name: string;
  mime: string | null;
  /** A fresh stream of the file's bytes (each attempt of a request opens it again). */
  open(): Readable;
}

const quote = (s: string) => s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r|\n/g, ' ');

/**
 * A multipart/form-data body as a stream: text fields first (params and signature before any file, as
 * the service authenticates them first), then the files one after another, each read as it is sent.
 */
export function multipartStream(fields: ReadonlyArray<readonly [string, string]>, parts: readonly StreamedPart[]): { body: ReadableStream<Uint8Array>; contentType: string } {
  const boundary = `----assemblyline${randomBytes(12).toString('hex')}`;
  async function* generate() {
    for (const [name, value] of fields) {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"\r\n\r\n${value}\r\n`);
    }
    for (const part of parts) {
      // filename* carries any name the file system allows (":", "?", "#", "%", non-ASCII) exactly.
      const header =
        `--${boundary}\r\nContent-Disposition: form-data; name="${quote(part.field)}"; filename="${quote(part.name)}"; filename*=UTF-8''${encodeURIComponent(part.name)}\r\n` +
        `Content-Type: ${part.mime ?? 'application/octet-stream'}\r\n\r\n`;
      yield Buffer.from(header);
      for await (const chunk of part.open()) yield chunk as Buffer;
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return { body: Readable.toWeb(Readable.from(generate())) as ReadableStream<Uint8Array>, contentType: `multipart/form-data; boundary=${boundary}` };
}
