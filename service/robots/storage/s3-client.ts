// One S3 client per step run, from a resolved target (s3-target.ts): bounded connect and idle times, and
// errors turned into sentences that name the bucket and what S3 answered.

import { S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import type { S3Target } from './s3-target';

const CONNECT_TIMEOUT_MS = 15_000;
/** No byte moving for this long ends the request (a stalled store fails instead of holding a job slot). */
const IDLE_TIMEOUT_MS = 120_000;

export function s3Client(target: S3Target): S3Client {
  // The SDK warns on Node 20 that its 2027 releases will need Node 22; the pinned version runs on 20 (the
  // browser host and the tests), and Electron carries 22. Said once in docs/libraries.md, not on every run.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  return new S3Client({
    region: target.region,
    ...(target.endpoint ? { endpoint: target.endpoint } : {}),
    forcePathStyle: target.pathStyle,
    credentials: { accessKeyId: target.accessKeyId, secretAccessKey: target.secretAccessKey, ...(target.sessionToken ? { sessionToken: target.sessionToken } : {}) },
    // The SDK's newer default adds CRC checksums to every PUT; S3-compatible stores (MinIO releases, R2,
    // s3rver) do not all take them. Integrity is asked for with check_integrity (Content-MD5) instead.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: new NodeHttpHandler({ connectionTimeout: CONNECT_TIMEOUT_MS, socketTimeout: IDLE_TIMEOUT_MS }),
  });
}

/** S3's own code ("NoSuchBucket", "AccessDenied", …) when it answered, else the network error's. */
export function s3ErrorCode(e: unknown): string {
  if (e instanceof S3ServiceException) return e.name;
  const err = e as { code?: string; name?: string };
  return err.code ?? err.name ?? 'Error';
}

/** "AccessDenied: Access Denied" or "connect ECONNREFUSED 127.0.0.1:9" — what happened, in one line. */
export function s3ErrorText(e: unknown): string {
  const code = s3ErrorCode(e);
  const message = (e as Error).message || code;
  return message.startsWith(code) ? message : `${code}: ${message}`;
}

/** Whether S3 refused the keys (so the step says "could not log in", not "could not write"). */
export const isAuthError = (e: unknown): boolean => /^(AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch|InvalidToken|ExpiredToken|Forbidden)$/.test(s3ErrorCode(e));
