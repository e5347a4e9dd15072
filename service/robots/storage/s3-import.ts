// /s3/import and its S3-compatible siblings: brings objects of a bucket into the Assembly. `path` names an
// object, or a folder with a trailing slash (its direct children; all below it with `recursive`), or a
// list of them; `/` is the bucket root, where (as on the vendor's service) an object whose key does not
// start with a slash fails the step with S3's `NoSuchKey`. `files_per_page`/`page_number` page a recursive
// listing; `range` fetches byte ranges of each object.

import { GetObjectCommand, ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import type { StoredFile } from '../file-record';
import { robotCodePrefix } from '../../instructions/known-robots';
import type { RobotFileOutcome, SourceRunner } from '../robot-types';
import { baseNameOf, byteRanges, ignoresErrors, importName, keepImported, rangedBody } from './imported-file';
import { isAuthError, s3Client, s3ErrorCode, s3ErrorText } from './s3-client';
import { s3Target } from './s3-target';

/** The most objects one step imports: a listing past it fails the step instead of filling the disk. */
export const MAX_IMPORTED_OBJECTS = 10_000;

const fail = (code: string, message: string): RobotFileOutcome => ({ ok: false, code, message });
const paths = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((p): p is string => typeof p === 'string') : []);

/**
 * The keys a folder path lists: its direct children (or all below it), without "folder" placeholder keys.
 * At the root ("/"), objects whose key has no slash at all are returned apart (they fail the import), and
 * keys that start with a slash are the root's children.
 */
async function listKeys(client: S3Client, bucket: string, prefix: string, recursive: boolean, signal: AbortSignal): Promise<{ keys: string[]; rootObjects: string[] }> {
  const keys: string[] = [];
  const rootObjects: string[] = [];
  const root = prefix === '/';
  const listings = root ? (recursive ? [''] : ['', '/']) : [prefix];
  for (const listPrefix of listings) {
    let token: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: listPrefix, ContinuationToken: token, ...(recursive ? {} : { Delimiter: '/' }) }), { abortSignal: signal });
      for (const o of page.Contents ?? []) {
        if (!o.Key || o.Key.endsWith('/')) continue;
        if (root && !o.Key.includes('/')) rootObjects.push(o.Key);
        else keys.push(o.Key);
        if (keys.length > MAX_IMPORTED_OBJECTS) throw new RangeError(`more than ${MAX_IMPORTED_OBJECTS} objects below "${prefix}"`);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }
  return { keys, rootObjects };
}

async function fetchObject(client: S3Client, bucket: string, key: string, ranges: string[], signal: AbortSignal): Promise<Readable> {
  const one = async (range?: string): Promise<Readable> =>
    (await client.send(new GetObjectCommand({ Bucket: bucket, Key: key, ...(range ? { Range: range } : {}) }), { abortSignal: signal })).Body as Readable;
  return ranges.length <= 1 ? one(ranges[0]) : rangedBody(ranges, one);
}

export const runS3Import: SourceRunner = async ({ robot, params, outDir, credentials, signal }) => {
  const prefix = robotCodePrefix(robot);
  const target = s3Target(robot, params, credentials);
  if (typeof target === 'string') return fail(`${prefix}_VALIDATION`, `${robot}: ${target}.`);
  const wanted = paths(params.path);
  if (wanted.length === 0) return fail(`${prefix}_VALIDATION`, `${robot}: give "path" (an object, a folder ending in "/", or "/" for the bucket root).`);
  const ranges = byteRanges(params.range);
  if (ranges === null) return fail(`${prefix}_VALIDATION`, `${robot}: range must be like "0-99" or a list of such ranges.`);
  const recursive = params.recursive === true;
  const client = s3Client(target);
  try {
    const keys: string[] = [];
    for (const p of wanted) {
      if (!p.endsWith('/')) {
        keys.push(p.replace(/^\/+/, ''));
        continue;
      }
      const listed = await listKeys(client, target.bucket, p, recursive, signal);
      if (listed.rootObjects.length > 0) {
        return fail(`${prefix}_NOT_FOUND`, `${robot}: A client error (NoSuchKey) occurred when calling the GetObject operation: The specified key does not exist. (Importing the bucket root "/" needs every object below a folder; "${listed.rootObjects[0]}" is not.)`);
      }
      keys.push(...listed.keys);
    }
    // Pages of a recursive listing (the vendor pages only those).
    let chosen = keys;
    if (recursive && (params.files_per_page !== undefined || params.page_number !== undefined)) {
      const per = typeof params.files_per_page === 'number' && params.files_per_page > 0 ? params.files_per_page : 1000;
      const page = typeof params.page_number === 'number' && params.page_number > 0 ? params.page_number : 1;
      chosen = keys.slice((page - 1) * per, page * per);
    }
    const files: StoredFile[] = [];
    for (const [i, key] of chosen.entries()) {
      try {
        const body = await fetchObject(client, target.bucket, key, ranges, signal);
        const file = await keepImported(outDir, importName(params.force_name, i, baseNameOf(key)), body, { signal });
        files.push({ ...file, meta: { ...file.meta, stored_path: key } });
      } catch (e) {
        if (signal.aborted) throw e;
        if (ignoresErrors(params.ignore_errors, 'import')) continue;
        if (isAuthError(e)) return fail(`${prefix}_ACCESS_DENIED`, `${robot} could not read ${key} from the bucket ${target.bucket} with these keys: ${s3ErrorText(e)}`);
        const notFound = s3ErrorCode(e) === 'NoSuchKey';
        return fail(notFound ? `${prefix}_NOT_FOUND` : `${prefix}_FAILURE`, `${robot} could not import ${key} from the bucket ${target.bucket}: ${notFound ? 'NoSuchKey: the object does not exist' : s3ErrorText(e)}`);
      }
    }
    return { ok: true, files };
  } catch (e) {
    if (signal.aborted) return fail(`${prefix}_FAILURE`, `${robot}: canceled.`);
    if (e instanceof RangeError) return fail(`${prefix}_FAILURE`, `${robot}: ${e.message}; import a narrower path or page with files_per_page.`);
    if (isAuthError(e)) return fail(`${prefix}_ACCESS_DENIED`, `${robot} could not list the bucket ${target.bucket} with these keys: ${s3ErrorText(e)}`);
    return fail(s3ErrorCode(e) === 'NoSuchBucket' ? `${prefix}_NOT_FOUND` : `${prefix}_FAILURE`, `${robot} could not list the bucket ${target.bucket}: ${s3ErrorText(e)}`);
  } finally {
    client.destroy();
  }
};
