import { createReadStream, type ReadStream } from 'node:fs';
import { Upload, type DetailedError } from 'tus-js-client';
import type { FileUploadState } from '../../../shared/ipc/models';
import { systemClock, type Clock } from './clock';

export interface UploadItem {
  fileId: string;
  path: string;
  name: string;
  size: number;
  /** `photos/sub/a.jpg` for a file from a dropped folder; sent as `relative_path` metadata. */
  relativePath: string;
  /** A tus upload URL from an earlier session: resume from the server's offset instead of starting over. */
  uploadUrl?: string | null;
}

export interface UploadEngineOptions {
  tusUrl: string;
  assemblyUrl: string;
  /** Files uploading at once. */
  concurrency?: number;
  /** Bytes per PATCH. A bounded chunk limits what a dropped connection costs on servers that keep no partial PATCH. */
  chunkSize?: number;
  /** tus-js-client's own backoff for failed requests. */
  retryDelays?: number[];
  /** No progress for this long → abort the request and resume from the server's offset. */
  stallTimeoutMs?: number;
  /** Stalls tolerated per file before it is marked failed. */
  maxStallRetries?: number;
  /**
   * How long a file keeps retrying while the server cannot be reached at all (refused, reset: the
   * embedded service restarting) after tus-js-client's own retries ran out; it resumes from the offset.
   */
  maxOfflineMs?: number;
  fieldname?: string;
  clock?: Clock;
  onProgress?: (fileId: string, bytesUploaded: number) => void;
  /** The tus upload URL of a file, as soon as the server created it (persist it to resume later). */
  onUploadUrl?: (fileId: string, uploadUrl: string) => void;
  onState?: (fileId: string, state: FileUploadState, error?: string) => void;
}

export interface UploadSummary {
  uploaded: number;
  failed: number;
  canceled: number;
}

export interface UploadBatch {
  /** Resolves when every file is uploaded, failed or canceled. Never rejects. */
  readonly done: Promise<UploadSummary>;
  /** Stops all uploads; queued files become canceled. */
  cancel(): void;
}

export const DEFAULT_CHUNK_SIZE = 64 * 1024 * 1024;

/**
 * Uploads files from disk by path with tus: a ReadStream with a `path` lets tus-js-client slice the file
 * into fresh streams per chunk, so nothing is buffered whole. Workers pull from the list one file at a
 * time, so a drop of 100 000 files opens at most `concurrency` files.
 */
export function startUploads(items: readonly UploadItem[], options: UploadEngineOptions): UploadBatch {
  const clock = options.clock ?? systemClock;
  const concurrency = Math.max(1, options.concurrency ?? 4);
  const stallTimeoutMs = options.stallTimeoutMs ?? 30_000;
  const maxStallRetries = options.maxStallRetries ?? 3;
  const maxOfflineMs = options.maxOfflineMs ?? 120_000;
  const summary: UploadSummary = { uploaded: 0, failed: 0, canceled: 0 };
  const active = new Map<string, ActiveUpload>();
  let next = 0;
  let canceled = false;

  const setState = (fileId: string, state: FileUploadState, error?: string) => options.onState?.(fileId, state, error);

  function uploadOne(item: UploadItem): Promise<void> {
    return new Promise<void>((resolve) => {
      let stream: ReadStream | null = null;
      let stallTimer: unknown = null;
      let stalls = 0;
      let settled = false;
      let offlineSince: number | null = null;

      const finish = (state: 'uploaded' | 'failed' | 'canceled', error?: string) => {
        if (settled) return;
        settled = true;
        if (stallTimer !== null) clock.clearTimeout(stallTimer);
        stream?.destroy();
        active.delete(item.fileId);
        if (state === 'uploaded') summary.uploaded++;
        else if (state === 'failed') summary.failed++;
        else summary.canceled++;
        setState(item.fileId, state, error);
        resolve();
      };

      const armStallTimer = () => {
        if (stallTimer !== null) clock.clearTimeout(stallTimer);
        stallTimer = clock.setTimeout(onStall, stallTimeoutMs);
      };

      // A request that hangs sends no error; abort it and resume from the offset the server confirms.
      // The resume uses a fresh Upload: a late error from the aborted request would otherwise make
      // tus-js-client retry on its own and race the resume with a second PATCH.
      const onStall = () => {
        stallTimer = null;
        if (settled) return;
        stalls++;
        const stalled = upload;
        void stalled.abort(false);
        if (stalls > maxStallRetries) {
          finish('failed', `No upload progress for ${formatSeconds(stallTimeoutMs)}, ${stalls} times in a row.`);
          return;
        }
        resumeFresh(stalled.url);
      };

      const resumeFresh = (url: string | null) => {
        upload = makeUpload(url ?? undefined);
        armStallTimer();
        upload.start();
      };

      // The server is not there (connection refused or reset): wait and resume from its offset, for up to
      // `maxOfflineMs`, so a restart of the service does not fail the run.
      const onError = (error: Error | DetailedError) => {
        if (settled) return;
        if (!isUnreachable(error)) return finish('failed', describeTusError(error));
        offlineSince ??= clock.now();
        const offlineMs = clock.now() - offlineSince;
        if (offlineMs >= maxOfflineMs) return finish('failed', describeTusError(error));
        if (stallTimer !== null) clock.clearTimeout(stallTimer);
        const failed = upload;
        stallTimer = clock.setTimeout(() => {
          stallTimer = null;
          if (!settled) resumeFresh(failed.url);
        }, Math.min(2_000, maxOfflineMs - offlineMs));
      };

      // Zero-byte files have nothing to slice; a ReadStream range would be invalid.
      const source = item.size === 0 ? Buffer.alloc(0) : (stream = createReadStream(item.path));
      stream?.on('error', () => undefined); // Errors surface through tus (it reopens by path per chunk).

      const metadata: Record<string, string> = {
        assembly_url: options.assemblyUrl,
        fieldname: options.fieldname ?? 'file',
        filename: item.name,
      };
      if (item.relativePath.includes('/')) metadata.relative_path = item.relativePath;

      const makeUpload = (uploadUrl?: string): Upload =>
        new Upload(source, {
          endpoint: options.tusUrl,
          ...(uploadUrl ? { uploadUrl } : {}),
          uploadSize: item.size,
          chunkSize: options.chunkSize ?? DEFAULT_CHUNK_SIZE,
          retryDelays: options.retryDelays ?? [0, 1000, 3000, 5000, 10000],
          metadata,
          storeFingerprintForResuming: false,
          removeFingerprintOnSuccess: true,
          onUploadUrlAvailable: () => {
            if (upload.url) options.onUploadUrl?.(item.fileId, upload.url);
          },
          onProgress: (bytesSent) => {
            armStallTimer();
            options.onProgress?.(item.fileId, bytesSent);
          },
          // Bytes written to a socket are not progress until the server confirms them.
          onChunkComplete: () => {
            stalls = 0;
            offlineSince = null;
          },
          onSuccess: () => {
            options.onProgress?.(item.fileId, item.size);
            finish('uploaded');
          },
          onError,
        });
      let upload = makeUpload(item.uploadUrl ?? undefined);

      active.set(item.fileId, { abort: () => upload.abort(false), finish });
      setState(item.fileId, 'uploading');
      armStallTimer();
      upload.start();
    });
  }

  async function worker(): Promise<void> {
    while (!canceled && next < items.length) {
      const item = items[next++]!;
      await uploadOne(item);
    }
  }

  const done = Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker)).then(() => {
    // Files no worker reached before the cancel.
    for (; next < items.length; next++) {
      summary.canceled++;
      setState(items[next]!.fileId, 'canceled');
    }
    return summary;
  });

  return {
    done,
    cancel() {
      if (canceled) return;
      canceled = true;
      for (const upload of [...active.values()]) {
        void upload.abort();
        upload.finish('canceled');
      }
    },
  };
}

interface ActiveUpload {
  abort(): Promise<void>;
  finish(state: 'canceled'): void;
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

const formatSeconds = (ms: number): string => `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
