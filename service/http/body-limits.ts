import type { IncomingMessage } from 'node:http';
import { ErrorCode } from '../../shared/api/codes';
import { apiError, type ApiError } from './api-error';

/**
 * What a request body may cost before it is authenticated (docs/local-service.md "Request limits").
 * Only fields are read before authentication; file parts are accepted only after it.
 */
export const BODY_LIMITS = {
  /** One form field (params, signature, an extra field). */
  fieldBytes: 1024 * 1024,
  /** Number of non-file fields in one body. */
  fields: 1000,
  /**
   * Number of file parts in one (authenticated) multipart body. Clients send folders of small files as one
   * form (one request is far cheaper per file than one tus upload each); each part streams to disk as it
   * arrives, so the count costs files, not memory.
   */
  files: 10_000,
  /** Raw body bytes read before the request is authenticated (all fields together, with framing). */
  unauthenticatedBytes: 4 * 1024 * 1024,
  /** Bytes still read and discarded after a refusal, so the client can read the answer; then the socket is cut. */
  drainBytes: 8 * 1024 * 1024,
  /**
   * Time from the request's start until its params can be authenticated. The idle timeout alone would let
   * a body that trickles one byte a minute hold a connection forever without ever authenticating.
   */
  unauthenticatedMs: 60_000,
} as const;

export type BodyLimit = 'fieldBytes' | 'fields' | 'files' | 'unauthenticatedBytes';

/** The answer to a body whose params did not arrive in time: 408 INVALID_FORM_DATA. */
export const slowBodyError = (ms: number): ApiError =>
  apiError(ErrorCode.invalidFormData, `The request did not bring its params (and signature) within ${ms} ms of its start.`, 408, { limit: 'unauthenticatedMs' });

/** The answer to a body over one of the limits: 413 INVALID_FORM_DATA naming the limit. */
export function limitError(limit: BodyLimit, detail = '', maxFileParts: number = BODY_LIMITS.files): ApiError {
  const what: Record<BodyLimit, string> = {
    fieldBytes: `A form field is larger than ${BODY_LIMITS.fieldBytes} bytes`,
    fields: `The body has more than ${BODY_LIMITS.fields} form fields`,
    files: `The body has more than ${maxFileParts} file parts`,
    unauthenticatedBytes: `The body sent more than ${BODY_LIMITS.unauthenticatedBytes} bytes before its params could be authenticated`,
  };
  return apiError(ErrorCode.invalidFormData, `${what[limit]}${detail ? ` (${detail})` : ''}.`, 413, { limit });
}

/**
 * Stops using a body that was refused: the rest is read and thrown away (never stored) so the client
 * gets to read the answer, up to `drainBytes`; past that the connection is cut.
 */
export function discardRest(req: IncomingMessage, maxBytes: number = BODY_LIMITS.drainBytes): void {
  let seen = 0;
  req.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > maxBytes) req.socket.destroy();
  });
  req.resume();
}
