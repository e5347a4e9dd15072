// The file record the local service keeps for uploads and results (service-facts §4 "Upload and
// result file records"), plus the on-disk path that never leaves the service.

import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FileDigests } from '../files/stream-hash';
import { detectMime, extractMeta, fileTypeOf, mimeFromHead } from './extract-meta';
import { imageThumbhash } from './thumbhash';

export interface StoredFile {
  id: string;
  name: string;
  basename: string;
  ext: string;
  size: number;
  mime: string | null;
  type: string | null;
  field: string | null;
  md5hash: string | null;
  /** Lowercase hex, computed in the same pass as md5hash; absent on records written before it existed. */
  sha256?: string | null;
  /** Images only (not over 40 megapixels, not when it fails): base64 ThumbHash, and whether there is an alpha channel. */
  thumbhash?: string;
  has_alpha?: boolean;
  /** Receipt of a stored asset (/transloadit/store) or the asset an import came from (/transloadit/import). */
  workspace?: string;
  asset_id?: string;
  version_id?: string;
  asset_version?: number;
  path?: string;
  /** The URL an /http/import file was fetched from (after redirects), a field of the vendor's records. */
  import_url?: string;
  original_id: string;
  original_name: string;
  original_basename: string;
  original_path: string;
  original_md5hash: string | null;
  meta: Record<string, unknown>;
  user_meta?: Record<string, unknown>;
  /** Seconds: a result's wait for a job slot and its robot's run; an upload's reading (hashes, metadata) — no wait. */
  queue_time?: number;
  exec_time?: number;
  /**
   * Where a storage robot put the file (/s3/store and its siblings): the record's `url` and `ssl_url` are
   * these, as the vendor's are, instead of this service's own result URL.
   */
  remoteUrls?: { url: string; ssl_url: string; signed_url?: string; signed_ssl_url?: string };
  /** Absolute path on disk, never sent to clients. */
  localPath: string;
}

export type PublicFile = Omit<StoredFile, 'localPath'>;

/** 32 lowercase hex characters, like the service's ids. */
export const newFileId = (): string => randomUUID().replace(/-/g, '');

/** The record as clients may see it: without the path on disk. */
export function toPublicFile(file: StoredFile): PublicFile {
  // Key by key: an object rest cost twice as much, and every job of a step builds one (issue 27).
  const out: Record<string, unknown> = {};
  for (const key in file) if (key !== 'localPath') out[key] = file[key as keyof StoredFile];
  return out as unknown as PublicFile;
}

/** "photo.final.JPG" -> basename "photo.final", ext "jpg" (the service's ext is lowercase, without the dot). */
export function splitName(name: string): { basename: string; ext: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return { basename: name, ext: '' };
  return { basename: name.slice(0, dot), ext: name.slice(dot + 1).toLowerCase() };
}

/** md5 and sha256 of a file in one read. */
export function digestFile(localPath: string): Promise<FileDigests> {
  return new Promise((resolve, reject) => {
    const md5 = createHash('md5');
    const sha256 = createHash('sha256');
    createReadStream(localPath)
      .on('data', (chunk) => {
        md5.update(chunk);
        sha256.update(chunk);
      })
      .on('error', reject)
      .on('end', () => resolve({ md5: md5.digest('hex'), sha256: sha256.digest('hex') }));
  });
}

export interface UploadInput {
  localPath: string;
  name: string;
  field?: string | null;
  userMeta?: Record<string, unknown>;
  id?: string;
  /** md5 and sha256 computed while the bytes arrived (service/files/stream-hash.ts); null or absent: read from disk. */
  digests?: FileDigests | null | Promise<FileDigests | null>;
  /** The file's first bytes (SNIFF_BYTES, or all of a shorter file) and its size, kept as they arrived: no need to open it again. */
  head?: Buffer | null;
  size?: number;
}

/**
 * What a robot already knows of a file it wrote from memory (service/robots/image-output.ts), so that
 * describing it does not read it again. `thumbhash: null`: none (too large, or it failed).
 */
export interface KnownOutput {
  digests: FileDigests;
  mime?: string;
  size: number;
  thumbhash?: string | null;
  /**
   * false: the file embeds no metadata (no EXIF, XMP, IPTC…), so only its pixels and file dates are read.
   * Keys: it embeds its input's metadata as copied, whose meta keys these are (extract-meta embeddedMetaKeys).
   */
  embeddedMetadata?: false | Record<string, unknown>;
}

/** `thumbhash` and `has_alpha` at the top of an image's record (absent for other files). */
async function imageFields(localPath: string, mime: string | null, meta: Record<string, unknown>, knownThumbhash?: string | null): Promise<Pick<StoredFile, 'thumbhash' | 'has_alpha'>> {
  if (!mime?.startsWith('image/')) return {};
  const thumbhash = knownThumbhash === undefined ? await imageThumbhash(localPath, mime, meta) : knownThumbhash ?? undefined;
  return { ...(typeof meta.has_alpha === 'boolean' ? { has_alpha: meta.has_alpha } : {}), ...(thumbhash ? { thumbhash } : {}) };
}

/**
 * Builds the record of an upload from its file on disk: size, md5, sniffed mime and real metadata. The
 * file is read whole only when no md5 came with it; metadata reads what it needs (headers, mostly).
 */
export async function describeUpload(input: UploadInput): Promise<StoredFile> {
  const startedAt = performance.now();
  const id = input.id ?? newFileId();
  const { basename, ext } = splitName(input.name);
  const mimeOf = input.head ? Promise.resolve(mimeFromHead(input.head, input.name)) : detectMime(input.localPath, input.name);
  // Metadata (one ExifTool call, sharp or ffprobe) runs while a file that came without digests is hashed.
  const [size, digests, mime, meta] = await Promise.all([
    input.size ?? stat(input.localPath).then((info) => info.size),
    Promise.resolve(input.digests).then((known) => known ?? digestFile(input.localPath)),
    mimeOf,
    mimeOf.then((m) => extractMeta(input.localPath, m)),
  ]);
  const md5hash = digests.md5;
  return {
    id,
    name: input.name,
    basename,
    ext,
    size,
    mime,
    type: fileTypeOf(mime),
    field: input.field ?? null,
    md5hash,
    sha256: digests.sha256,
    ...(await imageFields(input.localPath, mime, meta)),
    original_id: id,
    original_name: input.name,
    original_basename: basename,
    original_path: '/',
    original_md5hash: md5hash,
    meta,
    ...(input.userMeta ? { user_meta: input.userMeta } : {}),
    queue_time: 0,
    exec_time: Math.round(performance.now() - startedAt) / 1000,
    localPath: input.localPath,
  };
}

/**
 * Builds the record of a file a robot wrote, derived from `input`: a new id, the original_* of the
 * upload it came from, and size, md5, mime and metadata read from the new file.
 */
export async function describeResult(input: StoredFile, localPath: string, name: string, extraMeta: Record<string, unknown> = {}, known?: KnownOutput): Promise<StoredFile> {
  const { basename, ext } = splitName(name);
  const mimeOf = known?.mime !== undefined ? Promise.resolve(known.mime) : detectMime(localPath, name);
  // Hashing and metadata side by side: each reads what it needs of the new file (nothing a robot already knows).
  const [size, digests, mime, readMeta] = await Promise.all([
    known?.size ?? stat(localPath).then((info) => info.size),
    known?.digests ?? digestFile(localPath),
    mimeOf,
    mimeOf.then((m) => extractMeta(localPath, m, { embedded: known?.embeddedMetadata ?? true })),
  ]);
  const meta = { ...readMeta, ...extraMeta };
  return {
    id: newFileId(),
    name,
    basename,
    ext,
    size,
    mime,
    type: fileTypeOf(mime),
    field: input.field,
    md5hash: digests.md5,
    sha256: digests.sha256,
    ...(await imageFields(localPath, mime, meta, known?.thumbhash)),
    original_id: input.original_id,
    original_name: input.original_name,
    original_basename: input.original_basename,
    original_path: input.original_path,
    original_md5hash: input.original_md5hash,
    meta,
    ...(input.user_meta ? { user_meta: input.user_meta } : {}),
    localPath,
  };
}
