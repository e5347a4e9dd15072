// /s3/store and its S3-compatible siblings (/minio/store, /wasabi/store, /digitalocean/store, /backblaze/store,
// /cloudflare/store, /tigris/store): puts each file into a bucket at `path`, with the vendor's `acl`,
// `headers`, `tags`, `check_integrity`, `url_prefix` and `sign_urls_for`. The file passes on as the
// step's result, its `url`/`ssl_url` the object's URL (as the vendor's result records have it) and
// `meta.version_id` where the bucket keeps versions.

import { createReadStream } from 'node:fs';
import { GetObjectCommand, PutObjectCommand, type ObjectCannedACL, type PutObjectCommandInput } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { interpolateString, type Scope } from '../../instructions/interpolation';
import { robotCodePrefix } from '../../instructions/known-robots';
import type { RobotFileOutcome, RobotRunner } from '../robot-types';
import { isAuthError, s3Client, s3ErrorCode, s3ErrorText } from './s3-client';
import { objectUrl, s3ProviderOf, s3Target } from './s3-target';
import { collapseSlashes } from './store-path';

export const DEFAULT_STORE_PATH = '${unique_prefix}/${file.url_name}';
/** Files up to this size go in one PUT (with Content-MD5 when asked); larger ones in parallel parts. */
const SINGLE_PUT_BYTES = 64 * 1024 * 1024;
const PART_BYTES = 16 * 1024 * 1024;
const PARTS_AT_ONCE = 4;

const ACLS: Record<string, ObjectCannedACL | null> = { public: 'public-read', 'public-read': 'public-read', private: 'private', 'bucket-default': null };

/** Headers the SDK takes as fields; others go on the request as they are. */
const HEADER_FIELDS: Record<string, keyof PutObjectCommandInput> = {
  'content-type': 'ContentType',
  'cache-control': 'CacheControl',
  'content-disposition': 'ContentDisposition',
  'content-encoding': 'ContentEncoding',
  'content-language': 'ContentLanguage',
};

const fail = (code: string, message: string): RobotFileOutcome => ({ ok: false, code, message });

/**
 * The object key for a `path`: no leading slash (S3 keys are relative to the bucket), and no empty folder:
 * the vendor's `…/${file.meta.relative_path}/${file.name}` with a top-level file's empty relative_path
 * would otherwise make `…//playlist.m3u8`, a key the playlist's relative links never reach.
 */
export const objectKey = (path: string): string => collapseSlashes(path).replace(/^\//, '');

/** `headers` (interpolated) → SDK fields, user metadata (`x-amz-meta-*`) and other raw headers. Pure. */
export function putHeaders(headers: Record<string, unknown>): { fields: Partial<PutObjectCommandInput>; metadata: Record<string, string>; raw: Record<string, string> } {
  const fields: Record<string, string> = {};
  const metadata: Record<string, string> = {};
  const raw: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const v = String(value);
    const lower = name.toLowerCase();
    if (HEADER_FIELDS[lower]) fields[HEADER_FIELDS[lower]] = v;
    else if (lower.startsWith('x-amz-meta-')) metadata[lower.slice('x-amz-meta-'.length)] = v;
    else raw[name] = v;
  }
  return { fields: fields as Partial<PutObjectCommandInput>, metadata, raw };
}

/** `tags` → S3's `Tagging` query string. */
export const tagging = (tags: Record<string, unknown>): string | undefined => {
  const entries = Object.entries(tags);
  return entries.length === 0 ? undefined : entries.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`).join('&');
};

/** `url_prefix` with `{bucket}` filled in; the endpoint's own prefix when none is given. */
function resultPrefix(urlPrefix: unknown, bucket: string, fallback: string): string {
  return typeof urlPrefix === 'string' && urlPrefix !== '' ? urlPrefix.replaceAll('{bucket}', bucket) : fallback;
}

export const runS3Store: RobotRunner = async ({ robot, params, input, scope, credentials, signal }) => {
  const prefix = robotCodePrefix(robot);
  const target = s3Target(robot, params, credentials);
  if (typeof target === 'string') return fail(`${prefix}_VALIDATION`, `${robot}: ${target}.`);
  const key = objectKey(String(typeof params.path === 'string' ? params.path : interpolateString(DEFAULT_STORE_PATH, scope as Scope)));
  if (key === '' || key.endsWith('/')) return fail(`${prefix}_VALIDATION`, `${robot}: path "${String(params.path)}" names a folder; it must end with a file name.`);
  const acl = ACLS[typeof params.acl === 'string' ? params.acl : 'public-read'];
  const headerParams = (typeof params.headers === 'object' && params.headers !== null && !Array.isArray(params.headers) ? params.headers : { 'Content-Type': input.mime ?? 'application/octet-stream' }) as Record<string, unknown>;
  const { fields, metadata, raw } = putHeaders(headerParams);
  const tags = typeof params.tags === 'object' && params.tags !== null ? tagging(params.tags as Record<string, unknown>) : undefined;
  const client = s3Client(target);
  if (Object.keys(raw).length > 0) {
    client.middlewareStack.add((next) => async (args) => {
      const request = args.request as { headers?: Record<string, string> };
      if (request.headers) Object.assign(request.headers, raw);
      return next(args);
    }, { step: 'build', name: 'assemblylineRawHeaders' });
  }
  const put: PutObjectCommandInput = {
    Bucket: target.bucket,
    Key: key,
    ...fields,
    ...(Object.keys(metadata).length > 0 ? { Metadata: metadata } : {}),
    ...(acl ? { ACL: acl } : {}),
    ...(tags ? { Tagging: tags } : {}),
  };
  let versionId: string | undefined;
  try {
    if (input.size <= SINGLE_PUT_BYTES) {
      const md5 = params.check_integrity === true && input.md5hash ? Buffer.from(input.md5hash, 'hex').toString('base64') : undefined;
      const answer = await client.send(new PutObjectCommand({ ...put, Body: createReadStream(input.localPath), ContentLength: input.size, ...(md5 ? { ContentMD5: md5 } : {}) }), { abortSignal: signal });
      versionId = answer.VersionId;
    } else {
      const upload = new Upload({ client, params: { ...put, Body: createReadStream(input.localPath) }, partSize: PART_BYTES, queueSize: PARTS_AT_ONCE, leavePartsOnError: false });
      const abort = () => void upload.abort().catch(() => undefined);
      signal.addEventListener('abort', abort, { once: true });
      try {
        versionId = (await upload.done()).VersionId;
      } finally {
        signal.removeEventListener('abort', abort);
      }
    }
  } catch (e) {
    if (signal.aborted) return fail(`${prefix}_FAILURE`, `${robot}: canceled while writing ${key}.`);
    if (isAuthError(e)) return fail(`${prefix}_ACCESS_DENIED`, `${robot} could not write to the bucket ${target.bucket} with these keys: ${s3ErrorText(e)}`);
    return fail(s3ErrorCode(e) === 'NoSuchBucket' ? `${prefix}_NOT_FOUND` : `${prefix}_FAILURE`, `${robot} could not write ${key} to the bucket ${target.bucket}: ${s3ErrorText(e)}`);
  } finally {
    client.destroy();
  }
  const url = objectUrl(resultPrefix(params.url_prefix, target.bucket, target.urlPrefix), key);
  const signedFor = typeof params.sign_urls_for === 'number' && params.sign_urls_for > 0 ? params.sign_urls_for : null;
  let signed: { signed_url: string; signed_ssl_url: string } | undefined;
  if (signedFor) {
    const signer = s3Client(target);
    try {
      const s = await getSignedUrl(signer, new GetObjectCommand({ Bucket: target.bucket, Key: key }), { expiresIn: signedFor });
      signed = { signed_url: s, signed_ssl_url: s };
    } finally {
      signer.destroy();
    }
  }
  return {
    ok: true,
    files: [{ ...input, meta: { ...input.meta, ...(versionId ? { version_id: versionId } : {}) }, remoteUrls: { url, ssl_url: url.replace(/^http:\/\/([^/]*\.amazonaws\.com)\//, 'https://$1/'), ...signed } }],
  };
};

/** True for the robots this module runs. */
export const isS3StoreRobot = (robot: string): boolean => robot.endsWith('/store') && s3ProviderOf(robot) !== null;
