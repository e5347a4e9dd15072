import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { DefaultHttpStack, Upload, type HttpStack } from 'tus-js-client';
import type { Transport } from '../net/transport';
import type { Clock } from '../uploads/clock';
import { digestOf, hashPrefix, newCursor, readRange, type HashCursor } from './hashing-reader';
import type { TokenBucket } from './token-bucket';
import { classifyTusError, type TusFailure } from './tus-failure';
import { decodeParts, DEFAULT_PARALLEL, plannedParts, type ParallelPolicy } from './tus-parts';
import { uploadParts } from './tus-parallel';

export { classifyTusError, describeTusError, isUnreachable } from './tus-failure';

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
  /**
   * Large files in parallel parts where the deployment offers tus concatenation (tus-parts.ts); absent or
   * null: one stream. A stored parts value in `uploadUrl` resumes its parts either way.
   */
  parallel?: { policy: ParallelPolicy; supportsConcatenation(tusUrl: string): Promise<boolean> } | null;
  /** The workspace's trust (its CA file): the tus host is another host of the same deployment. */
  transport?: Transport;
}

const stacks = new WeakMap<Transport, HttpStack>();

/** tus-js-client's Node stack with the workspace's CA list (one per transport), or its default. */
export function tusHttpStack(transport: Transport | undefined): { httpStack?: HttpStack } {
  if (!transport?.ca) return {};
  let stack = stacks.get(transport);
  if (!stack) stacks.set(transport, (stack = new DefaultHttpStack({ ca: transport.ca })));
  return { httpStack: stack };
}

export type TusOutcome = { kind: 'uploaded'; md5: string } | TusFailure | { kind: 'aborted' };

export interface TusRun {
  readonly done: Promise<TusOutcome>;
  /** Stops the request; the server keeps what it confirmed (pause), the engine may resume later. */
  abort(): void;
}

/**
 * One file by tus: in parallel parts when the queue kept parts for it (a resume), or when it is large and
 * the deployment offers concatenation (asked once per endpoint); else as one stream.
 */
export function uploadTus(job: TusJob): TusRun {
  const prior = decodeParts(job.uploadUrl);
  // A resume sends the stored pieces over as many lanes as the policy says (every piece was a lane before pieces).
  if (prior) return uploadParts(job, Math.min(prior.length, job.parallel?.policy.parts ?? DEFAULT_PARALLEL.parts));
  const parallel = job.parallel;
  const parts = parallel && !job.uploadUrl ? plannedParts(job.size, job.tusUrl, parallel.policy) : 1;
  if (!parallel || parts <= 1) return uploadSingle(job);
  let inner: TusRun | null = null;
  let aborted = false;
  const done = parallel.supportsConcatenation(job.tusUrl).then((offered) => {
    if (aborted) return { kind: 'aborted' } as const;
    inner = offered ? uploadParts(job, parts) : uploadSingle(job);
    return inner.done;
  });
  return {
    done,
    abort() {
      aborted = true;
      inner?.abort();
    },
  };
}

/**
 * One file by tus as one stream, read through a file reader of our own: the slices tus-js-client asks for stream from
 * disk, wait for the bandwidth limit, and feed the md5 in order (hashing-reader.ts). tus-js-client's own
 * retries are off: the engine's queue decides (backoff, pacing) and resumes from the stored upload URL.
 */
function uploadSingle(job: TusJob): TusRun {
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
    ...tusHttpStack(job.transport),
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

