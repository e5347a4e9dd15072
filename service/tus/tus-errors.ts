// @tus/server answers protocol errors with plain text ("Tus-Resumable Required"). Every error of the
// service is `{error, message, http_code}` with a code a client can act on; this maps tus' texts. Pure.

/** Codes for the tus library's own refusals, by the start of its message. */
const TEXT_CODES: [prefix: string, code: string][] = [
  ['Tus-Resumable Required', 'TUS_RESUMABLE_REQUIRED'],
  ['Invalid tus-resumable', 'TUS_VERSION_UNSUPPORTED'],
  ['Invalid upload-metadata', 'TUS_INVALID_METADATA'],
  ['Invalid ', 'TUS_INVALID_HEADER'],
  ['Upload-Offset header required', 'TUS_OFFSET_REQUIRED'],
  ['Upload-Offset conflict', 'TUS_OFFSET_CONFLICT'],
  ['Content-Type header required', 'TUS_INVALID_CONTENT_TYPE'],
  ['The file for this url was not found', 'TUS_UPLOAD_NOT_FOUND'],
  ['The file for this url no longer exists', 'TUS_UPLOAD_NOT_FOUND'],
  ["upload's size exceeded", 'MAX_SIZE_EXCEEDED'],
  ['Maximum size exceeded', 'MAX_SIZE_EXCEEDED'],
  ['Upload-Length or Upload-Defer-Length header required', 'TUS_INVALID_LENGTH'],
  ['Upload-Metadata is invalid', 'TUS_INVALID_METADATA'],
  ['Cannot terminate an already completed upload', 'TUS_UPLOAD_FINISHED'],
  ['Request aborted due to lock acquired', 'TUS_UPLOAD_BUSY'],
  ['failed to acquire lock before timeout', 'TUS_UPLOAD_BUSY'],
  ['Concatenation extension is not', 'TUS_CONCATENATION_UNSUPPORTED'],
  ['creation-defer-length extension is not', 'TUS_DEFER_LENGTH_UNSUPPORTED'],
  ['Not found', 'SERVER_404'],
];

/** True when `body` already is an error of ours (from a hook's refusal). */
function isApiErrorBody(body: string): boolean {
  if (!body.startsWith('{')) return false;
  try {
    return typeof (JSON.parse(body) as { error?: unknown }).error === 'string';
  } catch {
    return false;
  }
}

/**
 * The status for a tus error answer: the library's 501 for Upload-Concat (an extension this service does
 * not offer: it is not in Tus-Extension) is a request this service refuses, not a server fault.
 */
export const tusErrorStatus = (status: number, body = ''): number => (status === 501 ? 400 : status === 400 && isVersionRefusal(body) ? 412 : status);

/**
 * The library's answer to a Tus-Resumable it does not speak (`Invalid tus-resumable`, 400): tus 1.0.0 says
 * 412 Precondition Failed with Tus-Version, so a client can tell a version mismatch from a bad request.
 */
export const isVersionRefusal = (body: string): boolean => /^Invalid tus-resumable\s*$/.test(body);

/** The JSON error body for a tus error answer; an error body that already is ours is kept as it is. */
export function tusErrorBody(status: number, body: string): string {
  if (isApiErrorBody(body)) return body;
  const message = body.trim() || `The upload request failed (HTTP ${status}).`;
  const code = TEXT_CODES.find(([prefix]) => message.startsWith(prefix))?.[1] ?? (status >= 500 ? 'TUS_SERVER_ERROR' : 'TUS_REQUEST_INVALID');
  return JSON.stringify({ error: code, message, http_code: status });
}
