import busboy from 'busboy';
import type { IncomingMessage } from 'node:http';
import { BODY_LIMITS, discardRest, limitError, slowBodyError, type BodyLimit } from './body-limits';

export type FormFields =
  | { ok: true; fields: Record<string, string> }
  /** `httpCode` 413 for a body over a limit (BODY_LIMITS), 400 for one that cannot be parsed. */
  | { ok: false; message: string; httpCode: number };

const overLimit = (limit: BodyLimit, detail?: string): FormFields => {
  const e = limitError(limit, detail);
  return { ok: false, message: e.message, httpCode: e.httpCode };
};

/**
 * The fields of a multipart or urlencoded body, for endpoints that take no files (Templates,
 * credentials, tokens): file parts are skipped, not stored. A body of another type counts as no fields.
 * These bodies are read before authentication, so the whole body is capped in bytes and in time (BODY_LIMITS).
 */
export function readFormFields(req: IncomingMessage, withinMs: number = BODY_LIMITS.unauthenticatedMs): Promise<FormFields> {
  const type = req.headers['content-type'] ?? '';
  return new Promise<FormFields>((resolve) => {
    let settled = false;
    const settle = (v: FormFields): void => {
      if (!settled) {
        settled = true;
        clearTimeout(deadline);
        resolve(v);
      }
    };
    let bytes = 0;
    let stop = (): void => discardRest(req);
    // However steadily it trickles, a body that is read before authentication must end in time.
    const deadline = setTimeout(() => {
      const e = slowBodyError(withinMs);
      settle({ ok: false, message: e.message, httpCode: e.httpCode });
      stop();
    }, withinMs);
    deadline.unref();
    req.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > BODY_LIMITS.unauthenticatedBytes && !settled) {
        settle(overLimit('unauthenticatedBytes'));
        stop();
      }
    });
    if (!/multipart\/form-data|application\/x-www-form-urlencoded/i.test(type)) {
      const done = (): void => settle({ ok: true, fields: {} });
      req.once('end', done).once('close', done);
      req.resume();
      return;
    }
    const fields: Record<string, string> = {};
    let bb: busboy.Busboy;
    try {
      bb = busboy({ headers: req.headers, limits: { fieldSize: BODY_LIMITS.fieldBytes, fields: BODY_LIMITS.fields }, defParamCharset: 'utf8' });
    } catch (e) {
      discardRest(req);
      settle({ ok: false, message: `The request body could not be parsed: ${(e as Error).message}`, httpCode: 400 });
      return;
    }
    stop = (): void => {
      req.unpipe(bb);
      bb.destroy();
      discardRest(req);
    };
    bb.on('field', (name, value, info) => {
      if (settled) return;
      if (info.valueTruncated) {
        settle(overLimit('fieldBytes', `field "${name}"`));
        stop();
        return;
      }
      fields[name] = value;
    });
    bb.on('file', (_field, stream) => stream.resume());
    bb.on('fieldsLimit', () => {
      settle(overLimit('fields'));
      stop();
    });
    bb.on('error', (e: Error) => {
      if (settled) return;
      req.unpipe(bb);
      discardRest(req);
      settle({ ok: false, message: `The request body could not be parsed: ${e.message}`, httpCode: 400 });
    });
    bb.on('close', () => settle({ ok: true, fields }));
    // A client that goes away mid-body sent no complete request: act on none of it.
    req.once('close', () => {
      if (!req.complete) settle({ ok: false, message: 'The connection closed before the request body ended.', httpCode: 400 });
    });
    req.pipe(bb);
  });
}
