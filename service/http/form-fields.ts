import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';

export type FormFields = { ok: true; fields: Record<string, string> } | { ok: false; message: string };

const MAX_FIELD_BYTES = 16 * 1024 * 1024;

/**
 * The fields of a multipart or urlencoded body, for endpoints that take no files (Templates,
 * credentials): file parts are skipped, not stored. A body of another type counts as no fields.
 */
export function readFormFields(req: IncomingMessage): Promise<FormFields> {
  const type = req.headers['content-type'] ?? '';
  if (!/multipart\/form-data|application\/x-www-form-urlencoded/i.test(type)) {
    req.resume();
    return new Promise((resolve) => {
      const done = (): void => resolve({ ok: true, fields: {} });
      req.once('end', done).once('close', done);
    });
  }
  return new Promise<FormFields>((resolve) => {
    const fields: Record<string, string> = {};
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { fieldSize: MAX_FIELD_BYTES }, defParamCharset: 'utf8' });
    } catch (e) {
      req.resume();
      resolve({ ok: false, message: `The request body could not be parsed: ${(e as Error).message}` });
      return;
    }
    bb.on('field', (name, value) => (fields[name] = value));
    bb.on('file', (_field, stream) => stream.resume());
    bb.on('error', (e: Error) => {
      req.unpipe(bb);
      req.resume();
      resolve({ ok: false, message: `The request body could not be parsed: ${e.message}` });
    });
    bb.on('close', () => resolve({ ok: true, fields }));
    req.pipe(bb);
  });
}
