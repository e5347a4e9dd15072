import { EVENTS, MemoryLocker, Server, type Upload } from '@tus/server';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AssemblyRuntime } from '../assemblies/assembly-runtime';
import { resolveInside } from '../files/inside-dir';
import { NO_FAULTS, type TestFaults } from '../files/test-faults';
import { HashingFileStore } from './hashing-file-store';
import { keyNotText, notTextMessage } from './metadata-text';
import { isPlainPatch, plainPatch, sendTusError, type PlainPatchDeps } from './plain-patch';
import { isPartialUploadId, TusCode } from './tus-acceptance';
import { concatPost, type ConcatDeps } from './tus-concat';
import type { TusUploadEntry } from '../assemblies/assembly-state';
import { tusErrorBody, tusErrorStatus } from './tus-errors';

export const TUS_PATH = '/resumable/files';
/**
 * The spec's OPTIONS table. @tus/server 2 has no concatenation of its own (and @tus/file-store none):
 * Upload-Concat POSTs are answered by tus-concat.ts before the library sees them.
 */
export const TUS_EXTENSIONS = ['creation', 'creation-with-upload', 'termination', 'concatenation', 'creation-defer-length'];
export const TUS_MAX_SIZE = Number.MAX_SAFE_INTEGER;

const RESERVED_META = new Set(['assembly_url', 'assembly_ssl_url', 'fieldname', 'filename']);

/** The Assembly id inside an `assembly_url` / `assembly_ssl_url` metadata value. */
export function assemblyIdFromUrl(value: string | null | undefined): string | null {
  const m = /\/assemblies\/([0-9a-f]{32})(?:[/?#]|$)/i.exec(value ?? '');
  return m?.[1] ? m[1].toLowerCase() : null;
}

/**
 * Upload ids are `<assembly_id>_<32hex>`, as the real service's, so the Assembly is known from the URL;
 * partial uploads (tus concatenation) are `<assembly_id>_part_<32hex>`.
 */
export const assemblyIdFromUploadId = (uploadId: string): string | null => /^([0-9a-f]{32})_(?:part_)?[0-9a-f]{32}$/.exec(uploadId)?.[1] ?? null;

/** The upload id of a request to `/resumable/files/<id>` whose id has the service's form, else null. */
export function uploadIdOfPath(url: string | undefined): string | null {
  const path = (url ?? '').split('?')[0] ?? '';
  const id = path.startsWith(`${TUS_PATH}/`) ? path.slice(TUS_PATH.length + 1) : '';
  return assemblyIdFromUploadId(id) ? id : null;
}

const uploadLengthOf = (header: string | null): number | null => (header !== null && /^\d+$/.test(header) ? Number(header) : null);

const reject = (status: number, code: string, message: string): { status_code: number; body: string } => ({
  status_code: status,
  body: JSON.stringify({ error: code, message, http_code: status }),
});

/** @tus/server whose error answers are the service's JSON errors (tus-errors.ts), whatever raised them. */
class JsonErrorServer extends Server {
  override write(context: Parameters<Server['write']>[0], headers: Headers, status: number, body = ''): ReturnType<Server['write']> {
    if (status < 400) return super.write(context, headers, status, body);
    headers.set('Content-Type', 'application/json; charset=utf-8');
    const answered = tusErrorStatus(status, body);
    if (answered === 412) headers.set('Tus-Version', '1.0.0');
    return super.write(context, headers, answered, tusErrorBody(answered, body));
  }
}

export interface TusEndpoint {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** The Assembly ended: no final upload will join its parts, so the file hashed from them is dropped. */
  assemblyEnded(assemblyId: string): void;
  /** Settles when the endpoint's start-up work on disk is over (a stop waits for it). */
  settled(): Promise<void>;
}

/** tus 1.0.0 at /resumable/files/ (@tus/server + @tus/file-store), attached to Assemblies through metadata. */
export function createTusEndpoint(runtime: AssemblyRuntime, dataDir: string, tusUrl: () => string, faults: TestFaults = NO_FAULTS): TusEndpoint {
  const directory = join(dataDir, 'tus');
  const store = new HashingFileStore({
    directory,
    corrupt: (uploadId) => {
      const assemblyId = assemblyIdFromUploadId(uploadId);
      return assemblyId !== null && faults.takeCorrupt(runtime.tusFilename(assemblyId, uploadId));
    },
  });
  store.extensions = [...TUS_EXTENSIONS];
  // One locker for both PATCH paths and the library's other handlers: requests on one upload never overlap.
  const locker = new MemoryLocker();
  const finished = (assemblyId: string, upload: Upload, size: number): void => {
    // A part of a file is nothing to its Assembly until a final upload joins it (tus-concat.ts).
    if (isPartialUploadId(upload.id)) return store.forget(upload.id);
    // The md5 was computed as the bytes were written: the file is not read again.
    runtime.tusFinished(assemblyId, upload.id, size, store.takeDigest(upload.id, size));
  };
  /**
   * Every byte of an upload on disk, yet not finished: the PATCH that carried the last ones was cut before
   * its end (the client quit, the connection dropped). A client resuming asks HEAD, learns offset = size and
   * sends nothing more: the upload is finished here, or its Assembly would wait for it forever.
   */
  const finishIfWhole = async (uploadId: string | null): Promise<void> => {
    const assemblyId = uploadId && !isPartialUploadId(uploadId) ? assemblyIdFromUploadId(uploadId) : null;
    if (!uploadId || !assemblyId || !runtime.tusUnfinished(assemblyId, uploadId)) return;
    const upload = await store.getUpload(uploadId).catch(() => null);
    if (upload?.size !== undefined && upload.offset === upload.size) finished(assemblyId, upload, upload.size);
  };
  // The record keeps the client's name as sent; files are stored under the upload id, and robots
  // write results under safe names (service/files).
  const entryOf = (upload: Upload): TusUploadEntry => {
    const meta = upload.metadata ?? {};
    const userMeta = Object.fromEntries(Object.entries(meta).filter(([k]) => !RESERVED_META.has(k)));
    return {
      uploadId: upload.id,
      filename: meta.filename ?? meta.name ?? upload.id,
      fieldname: meta.fieldname ?? 'file',
      ...(Object.keys(userMeta).length ? { user_meta: userMeta } : {}),
      size: upload.size ?? 0,
      offset: 0,
      finished: false,
      upload_url: `${tusUrl()}${upload.id}`,
      localPath: resolveInside(directory, upload.id),
    };
  };
  const server = new JsonErrorServer({
    path: TUS_PATH,
    datastore: store,
    locker,
    // Per upload: no more than its Assembly's auth.max_size (also caps deferred-length uploads).
    maxSize: (_req, id) => {
      const assemblyId = id ? assemblyIdFromUploadId(id) : null;
      return (assemblyId ? runtime.tusUploadSizeCap(assemblyId) : null) ?? TUS_MAX_SIZE;
    },
    relativeLocation: false,
    // Uppy's Transloadit plugin always sends X-Request-ID (service-facts, addendum): browsers preflight it.
    allowedHeaders: ['X-Request-ID'],
    postReceiveInterval: 500,
    generateUrl: (_req, { id }) => `${tusUrl()}${id}`,
    namingFunction: (req, metadata) => {
      const assemblyId = assemblyIdFromUrl(metadata?.assembly_url ?? metadata?.assembly_ssl_url);
      if (!assemblyId) throw reject(400, 'ASSEMBLY_URL_MISSING', 'Upload-Metadata must carry assembly_url (or assembly_ssl_url) of the Assembly this file belongs to.');
      const why = runtime.tusCreateRejection(assemblyId, uploadLengthOf(req.headers.get('upload-length')));
      if (why) throw reject(why.status, why.code, why.message);
      return `${assemblyId}_${randomBytes(16).toString('hex')}`;
    },
    onUploadCreate: async (_req, upload: Upload) => {
      // Checked again here, with no await before tusCreated, so racing creates cannot exceed the allowance.
      const assemblyId = assemblyIdFromUploadId(upload.id);
      const why = assemblyId ? runtime.tusCreateRejection(assemblyId, upload.sizeIsDeferred ? null : upload.size ?? null) : { status: 400, code: 'ASSEMBLY_URL_MISSING', message: 'Unknown Assembly.' };
      if (why || !assemblyId) throw reject(why?.status ?? 400, why?.code ?? 'ASSEMBLY_URL_MISSING', why?.message ?? 'Unknown Assembly.');
      runtime.tusCreated(assemblyId, entryOf(upload));
      return {};
    },
    onUploadFinish: async (_req, upload: Upload) => {
      const assemblyId = assemblyIdFromUploadId(upload.id);
      if (assemblyId) finished(assemblyId, upload, upload.size ?? upload.offset);
      return {};
    },
    // A finished upload's file is an Assembly's input: never deleted through tus (also checked below).
    disableTerminationForFinishedUploads: true,
    onIncomingRequest: async (req, uploadId) => {
      // Bytes are taken only while the Assembly waits for them; see tus-acceptance.ts. HEAD stays open
      // so a client can learn where an upload stands.
      if (req.method !== 'PATCH' && req.method !== 'DELETE') return;
      const assemblyId = assemblyIdFromUploadId(uploadId);
      const why = assemblyId
        ? runtime.tusUploadRejection(assemblyId, uploadId, req.method)
        : { status: 404, code: TusCode.uploadNotFound, message: `There is no upload ${uploadId}.` };
      if (why) throw reject(why.status, why.code, why.message);
    },
  });
  server.on(EVENTS.POST_TERMINATE, (_req: unknown, _res: unknown, id: string) => store.forget(id));
  server.on(EVENTS.POST_RECEIVE, (_req: unknown, upload: Upload) => {
    const assemblyId = assemblyIdFromUploadId(upload.id);
    if (assemblyId && typeof upload.offset === 'number') runtime.tusProgress(assemblyId, upload.id, upload.offset);
  });
  const plain: PlainPatchDeps = { store, locker, runtime, assemblyOf: assemblyIdFromUploadId, finished };
  const concat: ConcatDeps = {
    store,
    locker,
    runtime,
    directory,
    tusUrl,
    assemblyOf: (metadata) => assemblyIdFromUrl(metadata?.assembly_url ?? metadata?.assembly_ssl_url),
    assemblyOfUpload: assemblyIdFromUploadId,
    attach: (assemblyId, upload, digest) => {
      runtime.tusCreated(assemblyId, entryOf(upload));
      runtime.tusFinished(assemblyId, upload.id, upload.size ?? 0, digest);
    },
  };
  return {
    handle: async (req, res) => {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Tus-Resumable', '1.0.0');
      // A value that is not UTF-8 text would be recorded with U+FFFD in place of its bytes: refused first.
      const notText = req.method === 'POST' && req.headers['tus-resumable'] === '1.0.0' ? keyNotText(req.headers['upload-metadata']) : null;
      if (notText !== null) {
        req.resume();
        return sendTusError(res, reject(400, 'TUS_INVALID_METADATA', notTextMessage(notText)));
      }
      if (req.method === 'POST' && req.headers['upload-concat'] !== undefined && req.headers['x-http-method-override'] === undefined) return concatPost(concat, req, res);
      if (req.method === 'HEAD') await finishIfWhole(uploadIdOfPath(req.url));
      const uploadId = isPlainPatch(req.method, req.headers) ? uploadIdOfPath(req.url) : null;
      if (uploadId && (await plainPatch(plain, req, res, uploadId))) return;
      return server.handle(req, res);
    },
    assemblyEnded: (assemblyId) => store.parts.forget(assemblyId),
    settled: () => store.ready(),
  };
}
