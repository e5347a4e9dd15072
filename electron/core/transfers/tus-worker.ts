import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { Upload, type DetailedError } from 'tus-js-client';
import type { Clock } from '../uploads/clock';
import { digestOf, hashPrefix, newCursor, readRange, type HashCursor } from './hashing-reader';
import type { FailureKind } from './transfer-model';
import type { TokenBucket } from './token-bucket';

export interface TusJob {
  path: string;
  name: string;
  size: number;
  relativePath: string;
  tusUrl: string;
  assemblyUrl: string;
  /** A tus upload of this file from before (a retry, a restart): continue from the server's offset. */
  uploadUrl: string | null;
  chunkSize: number;
  /** No progress for this long: abort, and the engine retries from the server's offset. */
  stallMs: number;
  bucket: TokenBucket | null;
  clock: Clock;
  onUploadUrl(url: string): void;
  onProgress(bytes: number): void;
}

export type TusOutcome =
  | { kind: 'uploaded'; md5: string }
  | { kind: 'failed'; error: string; failure: FailureKind; retryInMs?: number }
  | { kind: 'aborted' };

export interface TusRun {
  readonly done: Promise<TusOutcome>;
  /** Stops the request; the server keeps what it confirmed (pause), the engine may resume later. */
  abort(): void;
}

/**
 * One file by tus, read through a file reader of our own: the slices tus-js-client asks for stream from
 * disk, wait for the bandwidth limit, and feed the md5 in order (hashing-reader.ts). tus-js-client's own
 * retries are off: the engine's queue decides (backoff, pacing) and resumes from the stored upload URL.
 */
export function uploadTus(job: TusJob): TusRun {
  const cursor: HashCursor = newCursor();
  let settle!: (o: TusOutcome) => void;
  const done = new Promise<TusOutcome>((resolve) => (settle = resolve));
  let settled = false;
  let stallTimer: unknown = null;
  const finish = (o: TusOutcome) => {
    if (settled) return;
    settled = true;
    if (stallTimer !== null) job.clock.clearTimeout(stallTimer);
    settle(o);
  };
  const armStall = () => {
    if (stallTimer !== null) job.clock.clearTimeout(stallTimer);
    stallTimer = job.clock.setTimeout(() => {
      void upload.abort(false);
      finish({ kind: 'failed', error: `No upload progress for ${Math.round(job.stallMs / 1000)} s`, failure: 'transient' });
    }, job.stallMs);
  };

  const fileReader = {
    openFile: async () => ({
      size: job.size,
      slice: async (start: number, end: number) => {
        const stop = Math.min(end, job.size);
        // A file that went away or lost its permission fails here, as a read error tus reports (not a network one).
        await access(job.path, constants.R_OK);
        if (start > cursor.upTo) await hashPrefix(job.path, cursor, start);
        const stream = Object.assign(readRange(job.path, start, stop, cursor, job.bucket), { size: stop - start });
        stream.on('error', (cause: Error) => {
          void upload.abort(false);
          finish({ kind: 'failed', error: `Upload failed: ${cause.message}`, failure: 'fatal' });
        });
        return { value: stream, done: stop >= job.size };
      },
      close: () => undefined,
    }),
  };

  const metadata: Record<string, string> = { assembly_url: job.assemblyUrl, fieldname: 'file', filename: job.name };
  if (job.relativePath.includes('/')) metadata.relative_path = job.relativePath;

  const upload = new Upload({ path: job.path, size: job.size } as unknown as Blob, {
    endpoint: job.tusUrl,
    ...(job.uploadUrl ? { uploadUrl: job.uploadUrl } : {}),
    uploadSize: job.size,
    chunkSize: job.chunkSize,
    retryDelays: [],
    metadata,
    fileReader,
    // Not creation-with-upload: a lost answer to it would leave a whole upload the engine does not know
    // of, and the retry would deliver the file twice. An empty orphan is harmless; small files go by multipart.
    uploadDataDuringCreation: false,
    storeFingerprintForResuming: false,
    removeFingerprintOnSuccess: false,
    onUploadUrlAvailable: () => {
      if (upload.url) job.onUploadUrl(upload.url);
    },
    onProgress: () => armStall(),
    // Bytes written to a socket are not progress until the server confirms them.
    onChunkComplete: (_chunk, accepted) => job.onProgress(accepted),
    onSuccess: () => {
      // A resume that found the upload complete on the server read nothing: hash the file once now.
      void hashPrefix(job.path, cursor, job.size).then(
        () => {
          const md5 = digestOf(cursor, job.size);
          if (md5) finish({ kind: 'uploaded', md5 });
          else finish({ kind: 'failed', error: 'The upload finished but not every byte went through the checksum.', failure: 'transient' });
        },
        (cause: Error) => finish({ kind: 'failed', error: `Could not read the file to check it: ${cause.message}`, failure: 'fatal' }),
      );
    },
    onError: (error) => finish(classifyTusError(error)),
  });
  armStall();
  upload.start();
  return {
    done,
    abort() {
      void upload.abort(false);
      finish({ kind: 'aborted' });
    },
  };
}

/** 413 RATE_LIMIT_REACHED waits as asked; 429, 5xx and no answer back off; other refusals need the user. */
export function classifyTusError(error: Error | DetailedError): Extract<TusOutcome, { kind: 'failed' }> {
  const detailed = error as DetailedError;
  const res = detailed.originalResponse;
  const message = describeTusError(error);
  // A file system error (it carries the path) is the file's, not the network's: retrying will not help.
  const fsError = typeof (detailed.causingError as NodeJS.ErrnoException | undefined)?.path === 'string';
  if (!res) return { kind: 'failed', error: message, failure: isUnreachable(error) && !fsError ? 'transient' : 'fatal' };
  const status = res.getStatus();
  const body = (res.getBody() ?? '').toString();
  if (status === 413 && body.includes('RATE_LIMIT_REACHED')) {
    let retryIn: number | undefined;
    try {
      const n = (JSON.parse(body) as { info?: { retryIn?: unknown } }).info?.retryIn;
      if (typeof n === 'number') retryIn = n * 1000;
    } catch {
      // no JSON: wait the default
    }
    return { kind: 'failed', error: message, failure: 'rate-limit', ...(retryIn !== undefined ? { retryInMs: retryIn } : {}) };
  }
  if (status === 429 || status >= 500 || status === 409 || status === 423) return { kind: 'failed', error: message, failure: 'transient' };
  return { kind: 'failed', error: message, failure: 'fatal' };
}

/** A request was sent and no response came back at all (not a file read error, not an HTTP error). */
export function isUnreachable(error: Error | DetailedError): boolean {
  const detailed = error as DetailedError;
  return Boolean(detailed.originalRequest) && !detailed.originalResponse;
}

/** tus errors carry the HTTP exchange; keep what a user can act on (status and the server's body). */
export function describeTusError(error: Error | DetailedError): string {
  const detailed = error as DetailedError;
  const res = detailed.originalResponse;
  if (res) {
    const status = res.getStatus();
    const body = (res.getBody() ?? '').toString().slice(0, 200).trim();
    return `Upload failed: the server answered HTTP ${status}${body ? ` (${body})` : ''}.`;
  }
  const cause = detailed.causingError?.message;
  if (cause) return `Upload failed: ${cause}`;
  return `Upload failed: ${error.message}`;
}
