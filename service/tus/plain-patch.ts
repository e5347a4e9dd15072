// The tus PATCH that carries an upload's bytes, written straight from the Node request to disk.
// @tus/server 2 turns each PATCH body into a Web stream and back (srvx, Readable.fromWeb, a PassThrough,
// a limiter) and ran at about 0.3 of a plain write to disk; this path takes the plain PATCH every client
// sends (tus-js-client, Uppy, the SDKs) and leaves anything unusual (deferred length, other headers,
// method overrides) to the library, which still answers every other request. It shares the library's
// locker, so a PATCH here and a HEAD or DELETE there never overlap on one upload.

import { ERRORS, EXPOSED_HEADERS, type MemoryLocker, type Upload } from '@tus/server';
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { PassThrough } from 'node:stream';
import type { AssemblyRuntime } from '../assemblies/assembly-runtime';
import type { HashingFileStore } from './hashing-file-store';
import { tusErrorBody } from './tus-errors';
import { isPartialUploadId } from './tus-acceptance';

/**
 * Headers that send a PATCH to the library: it validates and handles them (deferred length, overrides).
 * `Upload-Concat: partial` is not one: tus-js-client sends it on every request of a partial upload.
 */
const LIBRARY_HEADERS = ['upload-length', 'upload-defer-length', 'upload-metadata', 'tus-version', 'x-forwarded-proto', 'x-http-method-override'];

/** Body bytes read ahead into a held body (holdBody) before the request is paused. */
const HOLD_BYTES = 1024 * 1024;

/** How often, at most, the Assembly's bytes_received follows a PATCH in progress. */
const PROGRESS_INTERVAL_MS = 500;

const isOffset = (v: string | undefined): boolean => v !== undefined && /^(0|[1-9]\d{0,15})$/.test(v) && Number.isSafeInteger(Number(v));

/** True for a PATCH this path takes: valid tus 1.0.0 headers and none the library must see. Pure. */
export function isPlainPatch(method: string | undefined, headers: IncomingHttpHeaders): boolean {
  return (
    method === 'PATCH' &&
    headers['tus-resumable'] === '1.0.0' &&
    headers['content-type'] === 'application/offset+octet-stream' &&
    isOffset(headers['upload-offset'] as string | undefined) &&
    LIBRARY_HEADERS.every((h) => headers[h] === undefined) &&
    (headers['upload-concat'] === undefined || headers['upload-concat'] === 'partial')
  );
}

export interface PlainPatchDeps {
  store: HashingFileStore;
  locker: MemoryLocker;
  runtime: AssemblyRuntime;
  /** The Assembly of an upload id, or null. */
  assemblyOf(uploadId: string): string | null;
  /** The upload got its last byte (before the answer: what the client is told must be recorded). */
  finished(assemblyId: string, upload: Upload, size: number): void;
}

interface TusError {
  status_code: number;
  body: string;
}

const isTusError = (e: unknown): e is TusError => typeof e === 'object' && e !== null && typeof (e as TusError).status_code === 'number';

/** Headers of every tus answer, as @tus/server sends them (CORS for browsers: Uppy reads Upload-Offset). */
export function baseHeaders(res: ServerResponse): void {
  res.setHeader('Access-Control-Allow-Origin', '*');
  res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
}

export function sendTusError(res: ServerResponse, e: TusError, close = false): void {
  if (res.headersSent || res.destroyed) return;
  baseHeaders(res);
  const body = tusErrorBody(e.status_code, e.body);
  res.writeHead(e.status_code, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    ...(close ? { Connection: 'close' } : {}),
  });
  res.end(body);
}

/** A request's body read from the moment it is held (holdBody). */
interface HeldBody {
  /** Every byte of the body that arrived; it ends, never fails, when the request ends or is cut. */
  body: PassThrough;
  /** Stops holding: the rest of the body is read and thrown away (or the request destroyed). */
  discard(destroy?: boolean): void;
}

/**
 * Reads `req`'s body from now on into a stream that ends, rather than fails, when the request is cut. A cut
 * request is destroyed with what it had buffered, and a file stream still opening when its pipeline is
 * destroyed drops what it was given: at load a PATCH cut after 30,000 bytes kept none of them. Held from
 * the start, every byte that arrived is written; the caller tells a cut from an end by req.complete.
 */
function holdBody(req: IncomingMessage): HeldBody {
  const body = new PassThrough({ highWaterMark: HOLD_BYTES });
  let ended = false;
  const end = (): void => {
    if (ended) return;
    ended = true;
    body.end();
  };
  const onData = (chunk: Buffer): void => {
    if (!body.write(chunk)) req.pause();
  };
  const onDrain = (): void => void req.resume();
  req.on('data', onData);
  body.on('drain', onDrain);
  req.once('end', end);
  req.once('close', end);
  req.on('error', end);
  return {
    body,
    discard(destroy = false) {
      req.off('data', onData);
      body.off('drain', onDrain);
      ended = true;
      body.destroy();
      if (destroy) req.destroy();
      else req.resume();
    },
  };
}

/**
 * Handles a plain PATCH (isPlainPatch) of `uploadId`. Resolves false, before reading a byte of the body,
 * when the library must take it after all (a deferred-length upload); true when it was answered (or the
 * client went away).
 */
export async function plainPatch(d: PlainPatchDeps, req: IncomingMessage, res: ServerResponse, uploadId: string): Promise<boolean> {
  const assemblyId = d.assemblyOf(uploadId);
  if (!assemblyId) return false;
  const why = d.runtime.tusUploadRejection(assemblyId, uploadId, 'PATCH');
  if (why) {
    sendTusError(res, { status_code: why.status, body: JSON.stringify({ error: why.code, message: why.message, http_code: why.status }) });
    return true;
  }
  const offset = Number(req.headers['upload-offset']);
  // The body is held from here when the upload's length is known at once (else the library may take it).
  let held: HeldBody | null = d.store.knownLength(uploadId) !== undefined ? holdBody(req) : null;
  const refuse = (e: TusError, close = false): true => {
    held?.discard();
    sendTusError(res, e, close);
    return true;
  };
  const stop = new AbortController();
  const lock = d.locker.newLock(uploadId);
  try {
    // Another request wanting this upload (a client retrying after a lost connection) ends this one.
    await lock.lock(stop.signal, () => {
      stop.abort();
      req.destroy();
    });
  } catch (e) {
    return refuse(isTusError(e) ? e : ERRORS.UNKNOWN_ERROR);
  }
  let upload: Upload;
  let newOffset: number;
  try {
    try {
      upload = await d.store.getUpload(uploadId);
    } catch (e) {
      return refuse(isTusError(e) ? e : ERRORS.FILE_NOT_FOUND);
    }
    if (upload.size === undefined) {
      // Only an upload whose length was deferred (then the body was not held).
      held?.discard(true);
      return held === null ? false : true;
    }
    if (upload.offset !== offset) return refuse(ERRORS.INVALID_OFFSET);
    const length = req.headers['content-length'];
    if (length !== undefined && offset + Number(length) > upload.size) return refuse(ERRORS.ERR_SIZE_EXCEEDED, true);
    held ??= holdBody(req);
    let lastProgress = Date.now();
    try {
      const write = isPartialUploadId(uploadId) ? d.store.writeUnhashed.bind(d.store) : d.store.writeHashed.bind(d.store);
      newOffset = await write(held.body, uploadId, offset, {
        maxBytes: upload.size - offset,
        onBytes: (at) => {
          const now = Date.now();
          if (now - lastProgress < PROGRESS_INTERVAL_MS) return;
          lastProgress = now;
          d.runtime.tusProgress(assemblyId, uploadId, at);
        },
      });
    } catch {
      // Too many bytes, or the disk failed: the request goes (as it did when the pipeline destroyed it); the
      // bytes that reached the disk stay (HEAD reports them).
      held.discard(true);
      res.destroy();
      return true;
    }
    if (stop.signal.aborted || !req.complete) {
      // Cut: what arrived is on disk and hashed; the client hears nothing and asks HEAD. Cut after its last
      // byte, the file is whole and its Assembly need not wait for that HEAD.
      res.destroy();
      if (newOffset === upload.size) {
        d.runtime.tusProgress(assemblyId, uploadId, newOffset);
        if (!isPartialUploadId(uploadId)) d.finished(assemblyId, upload, newOffset);
      }
      return true;
    }
  } finally {
    await lock.unlock();
  }
  d.runtime.tusProgress(assemblyId, uploadId, newOffset);
  if (newOffset === upload.size) d.finished(assemblyId, upload, newOffset);
  baseHeaders(res);
  res.writeHead(204, { 'Upload-Offset': String(newOffset) });
  res.end();
  return true;
}
