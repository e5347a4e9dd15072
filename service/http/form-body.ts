import busboy from 'busboy';
import { randomBytes } from 'node:crypto';
import { receivePart } from '../files/part-receiver';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { IncomingMessage } from 'node:http';
import { ErrorCode } from '../../shared/api/codes';
import { apiError, type ApiError } from './api-error';
import type { FileDigests } from '../files/stream-hash';
import { SNIFF_BYTES } from '../robots/extract-meta';
import { BODY_LIMITS, discardRest, limitError, slowBodyError } from './body-limits';
import { partHeaderReader, UnreadablePartError } from './part-headers';

export interface ReceivedFile {
  fileId: string;
  field: string;
  name: string;
  localPath: string;
  size: number;
  mimeHint: string;
  /** md5 and sha256 of the stored bytes, computed while they were written (null: the hashing thread failed). */
  digests: FileDigests | null;
  /** The first SNIFF_BYTES bytes (all of a shorter file), for the mime type without opening the file again. */
  head: Buffer;
}

export type FormBody =
  | { kind: 'complete'; fields: Record<string, string>; files: ReceivedFile[] }
  /** The client went away before the body ended: what arrived so far (files fully written only). */
  | { kind: 'aborted'; fields: Record<string, string>; files: ReceivedFile[] }
  | { kind: 'invalid'; message: string }
  /** Not admitted, or over a limit: reading stopped; files written so far (if any) are the caller's to remove. */
  | { kind: 'refused'; error: ApiError };

export interface FormBodyOptions {
  /** Where file parts are written; created only when the first file part is accepted. */
  uploadDir: string;
  /**
   * Authenticates the request from the fields read so far. Called once: before the first file part is
   * accepted, or when a body without file parts ends (or aborts). An error refuses the request, so no
   * file part of an unauthenticated request ever reaches the disk.
   */
  admit(fields: Record<string, string>): ApiError | null;
  /** Refuse (408) a body not admitted this long after the request started (default BODY_LIMITS.unauthenticatedMs). */
  admitWithinMs?: number;
  /** File parts the body may carry before 413 (default BODY_LIMITS.files). */
  maxFileParts?: number;
  /** True (once) when this file's stored bytes get one byte flipped: the test-only fault (service/files/test-faults.ts). */
  corrupt?: (filename: string) => boolean;
}

/** Fields that decide admission; one arriving after it was decided (i.e. after a file part) is refused. */
const AUTH_FIELDS = new Set(['params', 'signature']);

export const newFileId = (): string => randomBytes(16).toString('hex');

const isFormType = (type: string): boolean => /multipart\/form-data|application\/x-www-form-urlencoded/i.test(type);

/** The boundary of a multipart/form-data body, or null (an urlencoded body, or none given: busboy refuses it). */
export function boundaryOf(contentType: string): string | null {
  if (!/^\s*multipart\/form-data/i.test(contentType)) return null;
  const m = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return m ? (m[1] ?? m[2] ?? null) : null;
}

/** A request a browser sent (every current browser sets Sec-Fetch-Mode on its requests; other clients do not). */
export const fromBrowser = (req: IncomingMessage): boolean => typeof req.headers['sec-fetch-mode'] === 'string';

/** The record's name of a file part: the client's name whole (a `\` is a legal character), cut only after a `/`. */
export const partFileName = (filename: string): string => filename.slice(filename.lastIndexOf('/') + 1);

/** A body that is not a form (e.g. only a query string) counts as no fields; its bytes are discarded, up to a cap. */
function readOtherBody(req: IncomingMessage, admit: FormBodyOptions['admit'], admitWithinMs: number): Promise<FormBody> {
  return new Promise((resolve) => {
    let seen = 0;
    let done = false;
    const finish = (v: FormBody): void => {
      if (!done) {
        done = true;
        clearTimeout(deadline);
        resolve(v);
      }
    };
    const deadline = setTimeout(() => {
      finish({ kind: 'refused', error: slowBodyError(admitWithinMs) });
      req.removeAllListeners('data');
      discardRest(req);
    }, admitWithinMs);
    deadline.unref();
    req.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > BODY_LIMITS.unauthenticatedBytes && !done) {
        finish({ kind: 'refused', error: limitError('unauthenticatedBytes') });
        req.removeAllListeners('data');
        discardRest(req);
      }
    });
    req.once('end', () => {
      const refusal = admit({});
      finish(refusal ? { kind: 'refused', error: refusal } : { kind: 'complete', fields: {}, files: [] });
    });
    req.once('close', () => {
      if (req.complete) return;
      const refusal = admit({});
      finish(refusal ? { kind: 'refused', error: refusal } : { kind: 'aborted', fields: {}, files: [] });
    });
    req.resume();
  });
}

/**
 * Multipart or urlencoded body. Fields are read first; file parts are accepted only once `admit` has
 * authenticated the request (clients send `params` and `signature` before any file), and then stream to
 * `uploadDir`, never buffered whole. What an unauthenticated body may cost is capped (BODY_LIMITS).
 */
export async function readFormBody(req: IncomingMessage, o: FormBodyOptions): Promise<FormBody> {
  const admitWithinMs = o.admitWithinMs ?? BODY_LIMITS.unauthenticatedMs;
  const maxFileParts = o.maxFileParts ?? BODY_LIMITS.files;
  if (!isFormType(req.headers['content-type'] ?? '')) return readOtherBody(req, o.admit, admitWithinMs);
  return new Promise<FormBody>((resolve) => {
    const fields: Record<string, string> = {};
    // One slot per file part, in the body's order: parts finish hashing out of order (a small one first),
    // and the Assembly lists its uploads in the order the client sent them. Cut or refused parts stay empty.
    const parts: (ReceivedFile | undefined)[] = [];
    const received = (): ReceivedFile[] => parts.filter((f): f is ReceivedFile => f !== undefined);
    const writes: Promise<void>[] = [];
    const fileStreams: Readable[] = [];
    let dirReady: Promise<unknown> | null = null;
    let admission: 'pending' | 'admitted' = 'pending';
    let preAuthBytes = 0;
    let settled = false;
    const settle = (v: FormBody): void => {
      if (!settled) {
        settled = true;
        resolve(v);
      }
    };
    // Multipart part headers are read leniently first (part-headers.ts): no part is skipped without a word.
    const boundary = boundaryOf(req.headers['content-type'] ?? '');
    const reader = boundary ? partHeaderReader(boundary, { browser: fromBrowser(req) }) : null;
    const source: Readable = reader ?? req;
    let bb: busboy.Busboy;
    try {
      bb = busboy({
        headers: req.headers,
        limits: { fieldSize: BODY_LIMITS.fieldBytes, fields: BODY_LIMITS.fields, files: maxFileParts },
        defParamCharset: 'utf8',
        // The name is kept whole here (busboy would cut it at a `\`); partFileName cuts at `/`.
        preservePath: true,
      });
    } catch (e) {
      settle({ kind: 'invalid', message: `The request body could not be parsed: ${(e as Error).message}` });
      discardRest(req);
      return;
    }
    /**
     * Stops reading: the part being written (if any) is cut, and the answer waits until every file is
     * closed, so the caller can remove the folder without a write landing after it.
     */
    const stop = (result: () => FormBody): void => {
      if (settled) return;
      settled = true;
      if (reader) req.unpipe(reader);
      source.unpipe(bb);
      bb.destroy();
      for (const s of fileStreams) s.destroy();
      discardRest(req);
      void Promise.allSettled(writes).then(() => resolve(result()));
    };
    const refuse = (error: ApiError): void => stop(() => ({ kind: 'refused', error }));
    /** True when the request may go on. */
    const decide = (): boolean => {
      if (admission === 'admitted') return true;
      const refusal = o.admit({ ...fields });
      if (refusal) {
        refuse(refusal);
        return false;
      }
      admission = 'admitted';
      return true;
    };
    const deadline = setTimeout(() => {
      if (admission === 'pending') refuse(slowBodyError(admitWithinMs));
    }, admitWithinMs);
    deadline.unref();
    req.once('close', () => clearTimeout(deadline));
    const countPreAuth = (chunk: Buffer): void => {
      if (admission !== 'pending') return;
      preAuthBytes += chunk.length;
      if (preAuthBytes > BODY_LIMITS.unauthenticatedBytes) refuse(limitError('unauthenticatedBytes'));
    };
    req.on('data', countPreAuth);

    bb.on('field', (name, value, info) => {
      if (settled) return;
      if (info.valueTruncated) return refuse(limitError('fieldBytes', `field "${name}"`));
      if (admission === 'admitted' && AUTH_FIELDS.has(name)) {
        return refuse(apiError(ErrorCode.invalidFormData, `The "${name}" field came after a file part: send params and signature before any file.`, 400));
      }
      fields[name] = value;
    });
    bb.on('file', (field, stream, info) => {
      // A refusal destroys the part with an error; the pipeline below reports it, this keeps it handled.
      stream.on('error', () => undefined);
      if (settled || !decide()) {
        stream.resume();
        return;
      }
      fileStreams.push(stream);
      const slot = parts.push(undefined) - 1;
      const fileId = newFileId();
      const localPath = join(o.uploadDir, fileId);
      const name = partFileName(info.filename ?? '') || field;
      const corrupt = o.corrupt?.(name) ?? false;
      dirReady ??= mkdir(o.uploadDir, { recursive: true });
      const write = async (): Promise<void> => {
        await dirReady;
        // Refused (or cut) while the folder was being made: open nothing, the caller removes the folder.
        if (stream.destroyed) return;
        const got = await receivePart(stream, localPath, { corrupt, headBytes: SNIFF_BYTES });
        if ((stream as unknown as { truncated?: boolean }).truncated) return;
        parts[slot] = { fileId, field, name, localPath, size: got.bytes, mimeHint: info.mimeType, digests: got.digests, head: got.head };
      };
      writes.push(write().catch(() => undefined));
    });
    bb.on('fieldsLimit', () => refuse(limitError('fields')));
    bb.on('filesLimit', () => refuse(limitError('files', '', maxFileParts)));
    bb.on('error', (e: Error) => stop(() => ({ kind: 'invalid', message: `The multipart body could not be parsed: ${e.message}` })));
    bb.on('close', () => {
      if (settled || !decide()) return;
      void Promise.all(writes).then(() => settle({ kind: 'complete', fields, files: received() }));
    });
    const onAbort = (): void => {
      if (settled) return;
      // A half-written part can never finish: report only the parts fully written so far.
      if (!decide()) return;
      stop(() => ({ kind: 'aborted', fields, files: received() }));
    };
    req.on('aborted', onAbort);
    req.on('close', () => {
      if (!req.complete) onAbort();
    });
    source.on('error', (e: Error) =>
      stop(() => (e instanceof UnreadablePartError ? { kind: 'refused', error: apiError(ErrorCode.invalidFormData, `${e.message} Nothing of this request was kept.`, 400) } : { kind: 'invalid', message: `The multipart body could not be parsed: ${e.message}` })),
    );
    if (reader) req.pipe(reader);
    source.pipe(bb);
  });
}
