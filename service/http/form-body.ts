import busboy from 'busboy';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { IncomingMessage } from 'node:http';

export interface ReceivedFile {
  fileId: string;
  field: string;
  name: string;
  localPath: string;
  size: number;
  mimeHint: string;
}

export type FormBody =
  | { kind: 'complete'; fields: Record<string, string>; files: ReceivedFile[] }
  /** The client went away before the body ended: what arrived so far (files fully written only). */
  | { kind: 'aborted'; fields: Record<string, string>; files: ReceivedFile[] }
  | { kind: 'invalid'; message: string };

const MAX_FIELD_BYTES = 16 * 1024 * 1024;

export const newFileId = (): string => randomBytes(16).toString('hex');

/** Multipart or urlencoded body. File parts stream to `uploadDir`, never buffered whole. */
export async function readFormBody(req: IncomingMessage, uploadDir: string): Promise<FormBody> {
  const type = req.headers['content-type'] ?? '';
  if (!/multipart\/form-data|application\/x-www-form-urlencoded/i.test(type)) {
    // A bodiless POST (e.g. only a query string) is a valid empty form.
    req.resume();
    await new Promise((r) => req.once('end', r).once('close', r));
    return { kind: 'complete', fields: {}, files: [] };
  }
  await mkdir(uploadDir, { recursive: true });
  return new Promise<FormBody>((resolve) => {
    const fields: Record<string, string> = {};
    const files: ReceivedFile[] = [];
    const writes: Promise<void>[] = [];
    let settled = false;
    const settle = (v: FormBody): void => {
      if (!settled) {
        settled = true;
        resolve(v);
      }
    };
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { fieldSize: MAX_FIELD_BYTES }, defParamCharset: 'utf8' });
    } catch (e) {
      settle({ kind: 'invalid', message: `The request body could not be parsed: ${(e as Error).message}` });
      req.resume();
      return;
    }
    bb.on('field', (name, value) => {
      fields[name] = value;
    });
    bb.on('file', (field, stream, info) => {
      const fileId = newFileId();
      const localPath = join(uploadDir, fileId);
      let size = 0;
      const tap = new Transform({
        transform(chunk: Buffer, _enc, cb) {
          size += chunk.length;
          cb(null, chunk);
        },
      });
      writes.push(
        pipeline(stream, tap, createWriteStream(localPath)).then(
          () => {
            if ((stream as unknown as { truncated?: boolean }).truncated) return;
            files.push({ fileId, field, name: info.filename || field, localPath, size, mimeHint: info.mimeType });
          },
          () => undefined,
        ),
      );
    });
    bb.on('error', (e: Error) => {
      settle({ kind: 'invalid', message: `The multipart body could not be parsed: ${e.message}` });
      req.unpipe(bb);
      req.resume();
    });
    bb.on('close', () => {
      void Promise.all(writes).then(() => settle({ kind: 'complete', fields, files }));
    });
    const onAbort = (): void => {
      // A half-written part can never finish: report only the parts fully written so far.
      settle({ kind: 'aborted', fields, files: [...files] });
      bb.destroy();
    };
    req.on('aborted', onAbort);
    req.on('close', () => {
      if (!req.complete) onAbort();
    });
    req.pipe(bb);
  });
}
