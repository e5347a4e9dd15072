// One file as parallel tus parts, then the final upload that joins them (tus concatenation). Each part is
// an ordinary tus upload (tus-js-client, `Upload-Concat: partial`, naming the Assembly as every upload to
// it must) over its byte range, read from disk by path through the bandwidth limit; the queue keeps the
// parts' URLs in the file's `uploadUrl` (tus-parts.ts), so after a crash each part resumes from the server's
// offset, and once the final upload exists its URL replaces them (the Assembly's upload carries it).
// The file is cut into more pieces than lanes (connections), sent in order, the first ones growing so the
// lanes finish one after another (tus-parts.ts staggeredRanges): the service hashes the pieces in order as
// they arrive; the md5 here reads the file ahead of the lanes, so nothing is left to hash after the last byte.

import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { Upload } from 'tus-js-client';
import { digestOf, hashPrefix, newCursor, readRange, type HashCursor } from './hashing-reader';
import { classifyTusError, describeTusError } from './tus-failure';
import { decodeParts, encodeMetadata, encodeParts, isStaggered, partRanges, plannedPieces, staggeredRanges } from './tus-parts';
import { tusHttpStack, type TusJob, type TusOutcome, type TusRun } from './tus-worker';

/** The md5 ahead of the lanes reads this much between checks that the upload still runs. */
const HASH_STEP_BYTES = 8 * 1024 * 1024;

/** The file reader tus-js-client asks slices of: bytes [offset, offset + length) of the file. */
function rangeReader(job: TusJob, offset: number, length: number, cursor: HashCursor, catchUp: boolean, onFail: (error: Error) => void) {
  return {
    openFile: async () => ({
      size: length,
      slice: async (start: number, end: number) => {
        const stop = Math.min(end, length);
        await access(job.path, constants.R_OK);
        // Only the first part catches the md5 up (a resumed part); the others would serialise on it.
        if (catchUp && offset + start > cursor.upTo) await hashPrefix(job.path, cursor, offset + start);
        const stream = Object.assign(readRange(job.path, offset + start, offset + stop, cursor, job.bucket), { size: stop - start });
        stream.on('error', onFail);
        return { value: stream, done: stop >= length };
      },
      close: () => undefined,
    }),
  };
}

/** The file in pieces sent over `lanes` connections side by side, then the final upload; same outcomes as one stream. */
export function uploadParts(job: TusJob, lanes: number): TusRun {
  const cursor = newCursor();
  const prior = decodeParts(job.uploadUrl);
  // A resume cuts the pieces it stored as they were cut (older queues: equal parts).
  const staggered = prior ? isStaggered(job.uploadUrl) : true;
  const pieces = prior ? prior.length : plannedPieces(job.size, lanes);
  const ranges = staggered ? staggeredRanges(job.size, pieces) : partRanges(job.size, pieces);
  const urls: (string | null)[] = ranges.map((_, i) => (prior && prior.length === ranges.length ? (prior[i] ?? null) : null));
  // The md5 here reads the file ahead of the lanes, in order, a step at a time (set going below), so next to
  // nothing is left to hash after the last byte. Nothing needs it to wait for the pieces sent: either way it is
  // of the bytes read here, and the service's md5 of what it received is compared with it.
  let hashing: Promise<void> = Promise.resolve();
  const accepted = ranges.map(() => 0);
  const uploads: Upload[] = [];
  let settle!: (o: TusOutcome) => void;
  const done = new Promise<TusOutcome>((resolve) => (settle = resolve));
  let settled = false;
  let stallTimer: unknown = null;
  const final = new AbortController();
  const stopAll = () => {
    for (const u of uploads) void u.abort(false);
    final.abort();
  };
  const finish = (o: TusOutcome) => {
    if (settled) return;
    settled = true;
    if (stallTimer !== null) job.clock.clearTimeout(stallTimer);
    if (o.kind !== 'uploaded') stopAll();
    settle(o);
  };
  const armStall = () => {
    if (stallTimer !== null) job.clock.clearTimeout(stallTimer);
    stallTimer = job.clock.setTimeout(() => finish({ kind: 'failed', error: `No upload progress for ${Math.round(job.stallMs / 1000)} s`, failure: 'transient' }), job.stallMs);
  };
  const readFailed = (cause: Error) => finish({ kind: 'failed', error: `Upload failed: ${cause.message}`, failure: 'fatal' });

  const sendPart = (i: number): Promise<void> =>
    new Promise((resolve, reject) => {
      const range = ranges[i]!;
      const length = range.end - range.start;
      const upload: Upload = new Upload({ path: job.path, size: length } as unknown as Blob, {
        endpoint: job.tusUrl,
        ...(urls[i] ? { uploadUrl: urls[i] } : {}),
        ...tusHttpStack(job.transport),
        uploadSize: length,
        chunkSize: job.chunkSize,
        retryDelays: [],
        headers: { 'Upload-Concat': 'partial' },
        // part_offset: where the part goes, so the service hashes the parts in order as they arrive.
        metadata: { assembly_url: job.assemblyUrl, part_offset: String(range.start) },
        fileReader: rangeReader(job, range.start, length, cursor, i === 0, readFailed),
        // A new piece's first chunk rides on its creating POST (creation-with-upload): a round trip less per
        // piece, and the lanes' first bytes leave at once. A lost answer leaves a partial upload no final
        // names (harmless, dropped with its Assembly): the piece is sent again, at most a chunk more.
        uploadDataDuringCreation: !urls[i],
        storeFingerprintForResuming: false,
        removeFingerprintOnSuccess: false,
        onUploadUrlAvailable: () => {
          urls[i] = upload.url;
          job.onUploadUrl(encodeParts(urls, staggered));
        },
        onProgress: () => armStall(),
        onChunkComplete: (_chunk, bytes) => {
          accepted[i] = bytes;
          job.onProgress(accepted.reduce((a, b) => a + b, 0));
        },
        onSuccess: () => {
          accepted[i] = length;
          resolve();
        },
        onError: reject,
      });
      uploads.push(upload);
      upload.start();
    });

  /** POST the final upload naming the parts in order; its URL. */
  const sendFinal = async (): Promise<string> => {
    const metadata: Record<string, string> = { assembly_url: job.assemblyUrl, fieldname: 'file', filename: job.name };
    if (job.relativePath.includes('/')) metadata.relative_path = job.relativePath;
    const res = await (job.transport?.fetch ?? fetch)(job.tusUrl, {
      method: 'POST',
      headers: { 'Tus-Resumable': '1.0.0', 'Upload-Concat': `final;${urls.join(' ')}`, 'Upload-Metadata': encodeMetadata(metadata) },
      signal: final.signal,
    });
    const location = res.headers.get('location');
    if (res.status !== 201 || !location) {
      const body = (await res.text()).slice(0, 200).trim();
      const failure = res.status === 429 || res.status >= 500 ? 'transient' : res.status === 404 ? 'transient' : 'fatal';
      // A part that is gone (joined by a final whose answer was lost, or removed) is sent again from scratch.
      if (res.status === 404) job.onUploadUrl(encodeParts(urls.map(() => null), staggered));
      throw Object.assign(new Error(`Upload failed: the server answered HTTP ${res.status}${body ? ` (${body})` : ''}.`), { failure });
    }
    return new URL(location, job.tusUrl).toString();
  };

  armStall();
  hashing = (async () => {
    while (!settled && cursor.upTo < job.size) await hashPrefix(job.path, cursor, Math.min(job.size, cursor.upTo + HASH_STEP_BYTES));
  })().catch(() => undefined);
  // Each lane takes the next piece in order.
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < ranges.length && !settled) await sendPart(next++);
  };
  void Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, ranges.length)) }, lane))
    .then(async () => {
      if (settled) return;
      armStall();
      const finalUrl = await sendFinal();
      job.onUploadUrl(finalUrl);
      job.onProgress(job.size);
      // What the md5 ahead has not reached yet (little or nothing): read once now, in order.
      await hashing;
      await hashPrefix(job.path, cursor, job.size).catch((cause: Error) => {
        throw Object.assign(new Error(`Could not read the file to check it: ${cause.message}`), { failure: 'fatal' });
      });
      const md5 = digestOf(cursor, job.size);
      if (md5) finish({ kind: 'uploaded', md5 });
      else finish({ kind: 'failed', error: 'The upload finished but not every byte went through the checksum.', failure: 'transient' });
    })
    .catch((error: Error & { failure?: 'transient' | 'fatal' }) => {
      if (settled) return;
      if (error.failure) finish({ kind: 'failed', error: error.message, failure: error.failure });
      else if (error.name === 'AbortError') finish({ kind: 'aborted' });
      else if ('originalRequest' in error || 'originalResponse' in error) finish(classifyTusError(error));
      else finish({ kind: 'failed', error: describeTusError(error), failure: 'transient' });
    });

  return {
    done,
    abort() {
      finish({ kind: 'aborted' });
    },
  };
}
