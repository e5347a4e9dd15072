// tus concatenation (the spec's Tus-Extension lists it): a client sends a file as several partial uploads
// side by side (tus-js-client's parallelUploads) and then a final upload naming them in order; the final one
// is the Assembly's file, with the md5 and sha256 of the joined bytes. @tus/server 2 has no concatenation
// (and @tus/file-store none), so both kinds of POST are answered here; PATCH, HEAD and DELETE of a partial go
// the usual ways (plain-patch.ts, the library), with tus-acceptance.ts' partial rules.
//
// A partial names its Assembly in its metadata (tus-js-client: `metadataForPartialUploads`), like every
// upload of this service: bytes are taken only for an Assembly that waits for them, never from anyone who
// merely reaches the port. The parts are hashed, and written to the file that becomes the final upload's,
// as they arrive, in the order they will likely be joined (part-chain.ts); the final upload finishes that
// (or does it again from disk where the order differs), takes the file, and the parts are removed.

import { Metadata, Upload, type MemoryLocker } from '@tus/server';
import { randomBytes } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AssemblyRuntime } from '../assemblies/assembly-runtime';
import { resolveInside } from '../files/inside-dir';
import { TooManyBytes } from '../files/stream-hash';
import { SNIFF_BYTES } from '../robots/extract-meta';
import type { HashingFileStore, UploadDigest } from './hashing-file-store';
import { baseHeaders, sendTusError } from './plain-patch';
import { isPartialUploadId } from './tus-acceptance';

/** Ours: an Upload-Concat the service cannot act on (a malformed header, a part of another Assembly, a part that is not complete). */
export const TusConcatCode = {
  invalid: 'TUS_CONCATENATION_INVALID',
  partUnfinished: 'TUS_PARTIAL_UPLOAD_UNFINISHED',
  urlMissing: 'ASSEMBLY_URL_MISSING',
} as const;

export type UploadConcat = { kind: 'partial' } | { kind: 'final'; ids: string[] };

/** Parts one final upload may join. */
export const MAX_PARTS = 256;

/** The upload id at the end of a partial upload's URL (absolute or relative), or null. */
export function uploadIdOfUrl(url: string): string | null {
  let path: string;
  try {
    path = new URL(url, 'http://local').pathname;
  } catch {
    return null;
  }
  const id = path.slice(path.lastIndexOf('/') + 1);
  return isPartialUploadId(id) ? id : null;
}

/** `partial`, or `final;<url> <url> …` naming partial uploads of this service (tus 1.0.0 Concatenation), else the problem. Pure. */
export function parseUploadConcat(header: string): UploadConcat | { problem: string } {
  const h = header.trim();
  if (h === 'partial') return { kind: 'partial' };
  if (!h.startsWith('final;')) return { problem: `Upload-Concat must be "partial" or "final;" followed by the partial uploads' URLs (got "${h.slice(0, 80)}").` };
  const urls = h.slice('final;'.length).trim().split(/\s+/).filter(Boolean);
  if (urls.length === 0) return { problem: 'Upload-Concat "final;" names no partial upload.' };
  if (urls.length > MAX_PARTS) return { problem: `A final upload may join at most ${MAX_PARTS} partial uploads (got ${urls.length}).` };
  const ids: string[] = [];
  for (const u of urls) {
    const id = uploadIdOfUrl(u);
    if (!id) return { problem: `"${u.slice(0, 200)}" is not the URL of a partial upload of this service.` };
    if (ids.includes(id)) return { problem: `The partial upload ${id} is named twice.` };
    ids.push(id);
  }
  return { kind: 'final', ids };
}

export interface ConcatDeps {
  store: HashingFileStore;
  locker: MemoryLocker;
  runtime: AssemblyRuntime;
  directory: string;
  tusUrl(): string;
  /** The Assembly of a metadata record (assembly_url / assembly_ssl_url), or null. */
  assemblyOf(metadata: Record<string, string | null> | undefined): string | null;
  /** The Assembly of an upload id, or null. */
  assemblyOfUpload(uploadId: string): string | null;
  /** The final upload is complete on disk: attach it to its Assembly as a finished tus upload. */
  attach(assemblyId: string, upload: Upload, digest: UploadDigest): void;
}

interface TusError {
  status_code: number;
  body: string;
}

const refuse = (status: number, code: string, message: string): TusError => ({ status_code: status, body: JSON.stringify({ error: code, message, http_code: status }) });
const isTusError = (e: unknown): e is TusError => typeof e === 'object' && e !== null && typeof (e as TusError).status_code === 'number';

function metadataOf(req: IncomingMessage): Record<string, string | null> | undefined | TusError {
  const raw = req.headers['upload-metadata'];
  if (raw === undefined || raw === '') return undefined;
  try {
    return Metadata.parse(String(raw));
  } catch {
    return refuse(400, 'TUS_INVALID_METADATA', 'Upload-Metadata is invalid: comma-separated "key base64value" pairs.');
  }
}

/**
 * Answers a POST that carries Upload-Concat. Resolves once answered (or the client went away). Every
 * refusal is the service's JSON error with a code.
 */
export async function concatPost(d: ConcatDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    if (req.headers['tus-resumable'] !== '1.0.0') {
      res.setHeader('Tus-Version', '1.0.0');
      throw refuse(412, 'TUS_RESUMABLE_REQUIRED', 'Tus-Resumable: 1.0.0 is required.');
    }
    const concat = parseUploadConcat(String(req.headers['upload-concat']));
    if ('problem' in concat) throw refuse(400, TusConcatCode.invalid, concat.problem);
    const metadata = metadataOf(req);
    if (isTusError(metadata)) throw metadata;
    const assemblyId = d.assemblyOf(metadata);
    if (!assemblyId) {
      const hint = concat.kind === 'partial' ? ' (tus-js-client: metadataForPartialUploads: { assembly_url })' : '';
      throw refuse(400, TusConcatCode.urlMissing, `Upload-Metadata must carry assembly_url (or assembly_ssl_url) of the Assembly this upload belongs to${hint}.`);
    }
    if (concat.kind === 'partial') await createPartial(d, req, res, assemblyId, metadata);
    else await createFinal(d, req, res, assemblyId, metadata, concat.ids);
  } catch (e) {
    req.resume();
    sendTusError(res, isTusError(e) ? e : refuse(500, 'TUS_SERVER_ERROR', `The upload could not be created: ${(e as Error).message}`));
  }
}

async function createPartial(d: ConcatDeps, req: IncomingMessage, res: ServerResponse, assemblyId: string, metadata: Record<string, string | null> | undefined): Promise<void> {
  const lengthHeader = req.headers['upload-length'];
  if (typeof lengthHeader !== 'string' || !/^\d{1,16}$/.test(lengthHeader) || !Number.isSafeInteger(Number(lengthHeader))) {
    throw refuse(400, 'TUS_INVALID_LENGTH', 'A partial upload needs Upload-Length (its own bytes); deferred lengths are not taken for parts.');
  }
  const size = Number(lengthHeader);
  // A body longer than the part, said by its Content-Length: refused before a byte is kept (as a PATCH is).
  const bodyLength = req.headers['content-type'] === 'application/offset+octet-stream' ? Number(req.headers['content-length'] ?? '0') : 0;
  if (bodyLength > size) throw refuse(413, 'MAX_SIZE_EXCEEDED', `This partial upload is created with Upload-Length ${size}; the request carries ${bodyLength} bytes.`);
  const why = d.runtime.tusPartialRejection(assemblyId, size);
  if (why) throw refuse(why.status, why.code, why.message);
  const id = `${assemblyId}_part_${randomBytes(16).toString('hex')}`;
  const upload = new Upload({ id, size, offset: 0, metadata: metadata ?? {} });
  await d.store.create(upload);
  d.store.parts.created(assemblyId, id, size, metadata);
  let offset = 0;
  // creation-with-upload: the first bytes may come with the POST.
  const withBody = req.headers['content-type'] === 'application/offset+octet-stream' && Number(req.headers['content-length'] ?? '1') > 0;
  if (withBody) {
    try {
      offset = await d.store.writeUnhashed(req, id, 0, { maxBytes: size });
    } catch (e) {
      if (req.destroyed || req.readableAborted) return void res.destroy();
      throw e instanceof TooManyBytes ? refuse(413, 'MAX_SIZE_EXCEEDED', `This partial upload was created with Upload-Length ${size}; the request carried more.`) : e;
    }
  } else {
    req.resume();
  }
  baseHeaders(res);
  res.writeHead(201, { Location: `${d.tusUrl()}${id}`, 'Upload-Offset': String(offset), 'Upload-Concat': 'partial' });
  res.end();
}

async function createFinal(d: ConcatDeps, req: IncomingMessage, res: ServerResponse, assemblyId: string, metadata: Record<string, string | null> | undefined, ids: string[]): Promise<void> {
  req.resume();
  const foreign = ids.find((id) => d.assemblyOfUpload(id) !== assemblyId);
  if (foreign) throw refuse(400, TusConcatCode.invalid, `The partial upload ${foreign} belongs to another Assembly than ${assemblyId}.`);
  // Every part is held while it is joined: a PATCH or a second final of the same parts waits, then finds them gone.
  const stop = new AbortController();
  const locks = ids.map((id) => d.locker.newLock(id));
  const held: typeof locks = [];
  try {
    for (const lock of locks) {
      await lock.lock(stop.signal, () => undefined);
      held.push(lock);
    }
    const parts: Upload[] = [];
    for (const id of ids) {
      let part: Upload;
      try {
        part = await d.store.getUpload(id);
      } catch {
        throw refuse(404, 'TUS_UPLOAD_NOT_FOUND', `There is no partial upload ${id} (it may have been joined into a final upload already).`);
      }
      if (part.size === undefined || part.offset !== part.size) {
        throw refuse(400, TusConcatCode.partUnfinished, `The partial upload ${id} has ${part.offset} of ${part.size ?? '?'} bytes: a final upload joins complete parts only.`);
      }
      parts.push(part);
    }
    const size = parts.reduce((n, p) => n + (p.size ?? 0), 0);
    const why = d.runtime.tusCreateRejection(assemblyId, size);
    if (why) throw refuse(why.status, why.code, why.message);
    const id = `${assemblyId}_${randomBytes(16).toString('hex')}`;
    const upload = new Upload({ id, size, offset: 0, metadata: metadata ?? {} });
    await d.store.create(upload);
    const finalPath = resolveInside(d.directory, id);
    // Mostly done while the parts arrived: the joined file is renamed into place, its hash finished.
    const digests = await d.store.parts.join(assemblyId, parts.map((p) => ({ id: p.id, size: p.size ?? 0 })), finalPath);
    if (digests === null) {
      await d.store.remove(id).catch(() => undefined);
      throw refuse(500, 'TUS_SERVER_ERROR', 'The partial uploads could not be joined.');
    }
    upload.offset = size;
    d.attach(assemblyId, upload, { digests: Promise.resolve(digests), head: await headOf(finalPath, Math.min(SNIFF_BYTES, size)) });
    baseHeaders(res);
    res.writeHead(201, { Location: `${d.tusUrl()}${id}`, 'Upload-Concat': `final;${ids.map((p) => `${d.tusUrl()}${p}`).join(' ')}` });
    res.end();
    // The parts' bytes are in the final upload now. Removed after the answer (32 parts' unlinks took ~0.7 s
    // on a loaded machine, all of it after the file's last byte), still under their locks: a request for
    // a part waits, then finds it gone.
    await Promise.all(ids.map((p) => d.store.remove(p).catch(() => undefined)));
  } finally {
    for (const lock of held) await lock.unlock();
  }
}

/** The first `n` bytes of a file. */
async function headOf(path: string, n: number): Promise<Buffer> {
  const f = await open(path, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await f.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await f.close();
  }
}
