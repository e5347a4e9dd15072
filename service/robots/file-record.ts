// The file record the local service keeps for uploads and results (service-facts §4 "Upload and
// result file records"), plus the on-disk path that never leaves the service.

import { createHash, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { detectMime, extractMeta, fileTypeOf } from './extract-meta';

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
  original_id: string;
  original_name: string;
  original_basename: string;
  original_path: string;
  original_md5hash: string | null;
  meta: Record<string, unknown>;
  user_meta?: Record<string, unknown>;
  /** Absolute path on disk, never sent to clients. */
  localPath: string;
}

export type PublicFile = Omit<StoredFile, 'localPath'>;

/** 32 lowercase hex characters, like the service's ids. */
export const newFileId = (): string => randomUUID().replace(/-/g, '');

/** The record as clients may see it: without the path on disk. */
export function toPublicFile(file: StoredFile): PublicFile {
  const { localPath: _localPath, ...rest } = file;
  return rest;
}

/** "photo.final.JPG" -> basename "photo.final", ext "jpg" (the service's ext is lowercase, without the dot). */
export function splitName(name: string): { basename: string; ext: string } {
  const dot = name.lastIndexOf('.');
  if (dot <= 0 || dot === name.length - 1) return { basename: name, ext: '' };
  return { basename: name.slice(0, dot), ext: name.slice(dot + 1).toLowerCase() };
}

export function md5File(localPath: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('md5');
    createReadStream(localPath)
      .on('data', (chunk) => hash.update(chunk))
      .on('error', reject)
      .on('end', () => resolve(hash.digest('hex')));
  });
}

export interface UploadInput {
  localPath: string;
  name: string;
  field?: string | null;
  userMeta?: Record<string, unknown>;
  id?: string;
  /** Computed while the bytes arrived (service/files/stream-hash.ts); null or absent: read from disk. */
  md5?: string | null;
}

/**
 * Builds the record of an upload from its file on disk: size, md5, sniffed mime and real metadata. The
 * file is read whole only when no md5 came with it; metadata reads what it needs (headers, mostly).
 */
export async function describeUpload(input: UploadInput): Promise<StoredFile> {
  const id = input.id ?? newFileId();
  const { basename, ext } = splitName(input.name);
  const [info, md5hash, mime] = await Promise.all([
    stat(input.localPath),
    input.md5 ?? md5File(input.localPath),
    detectMime(input.localPath, input.name),
  ]);
  const meta = await extractMeta(input.localPath, mime);
  return {
    id,
    name: input.name,
    basename,
    ext,
    size: info.size,
    mime,
    type: fileTypeOf(mime),
    field: input.field ?? null,
    md5hash,
    original_id: id,
    original_name: input.name,
    original_basename: basename,
    original_path: '/',
    original_md5hash: md5hash,
    meta,
    ...(input.userMeta ? { user_meta: input.userMeta } : {}),
    localPath: input.localPath,
  };
}

/**
 * Builds the record of a file a robot wrote, derived from `input`: a new id, the original_* of the
 * upload it came from, and size, md5, mime and metadata read from the new file.
 */
export async function describeResult(input: StoredFile, localPath: string, name: string, extraMeta: Record<string, unknown> = {}): Promise<StoredFile> {
  const { basename, ext } = splitName(name);
  const [info, md5hash, mime] = await Promise.all([stat(localPath), md5File(localPath), detectMime(localPath, name)]);
  const meta = { ...(await extractMeta(localPath, mime)), ...extraMeta };
  return {
    id: newFileId(),
    name,
    basename,
    ext,
    size: info.size,
    mime,
    type: fileTypeOf(mime),
    field: input.field,
    md5hash,
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
