import type { AssemblyFile, AssemblyStatus } from '../../../shared/api/assembly-status';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import { DownloadHttpError, downloadToDir } from './download';

/** A result file its deployment no longer serves, even at the fresh URL a new status record gave. */
export const RESULT_EXPIRED = 'RESULT_EXPIRED';

/** What a result host answers for a URL whose time is up (signed URLs expire; files are kept for a while only). */
export const EXPIRED_STATUSES: ReadonlySet<number> = new Set([403, 404, 410]);

/** The same file in a fresher status record (by id, else by name and size): its URL there, or null when it is gone. */
export function freshUrlOf(file: AssemblyFile, fresh: AssemblyStatus): string | null {
  const files = [...Object.values(fresh.results ?? {}).flat(), ...(fresh.uploads ?? [])];
  const same = file.id
    ? files.find((f) => f.id === file.id)
    : files.find((f) => f.name === file.name && f.size === file.size);
  return same?.ssl_url ?? same?.url ?? null;
}

export interface ResultDownload {
  url: string;
  /** The file's record in the status the URL came from. */
  file: AssemblyFile;
  dir: string;
  name: string;
  fetch: typeof fetch;
  /** The Assembly's status read again (for fresh result URLs). */
  readStatus: () => Promise<Result<AssemblyStatus>>;
}

/**
 * Downloads a result; when its host answers 403/404/410 (the URL expired, as the hosted service's do), reads
 * the Assembly's status again and tries the fresh URL once. Still refused, or gone from the record: a plain
 * RESULT_EXPIRED. Other failures (network, TLS) are thrown as downloadToDir throws them.
 */
export async function downloadResult(o: ResultDownload): Promise<Result<{ path: string; url: string }>> {
  try {
    return ok({ path: await downloadToDir(o.url, o.dir, o.name, { fetch: o.fetch }), url: o.url });
  } catch (cause) {
    if (!(cause instanceof DownloadHttpError) || !EXPIRED_STATUSES.has(cause.status)) throw cause;
    const first = cause.status;
    const fresh = await o.readStatus();
    if (!fresh.ok) {
      return err(RESULT_EXPIRED, `${o.name} has expired on the service (its result host answered HTTP ${first}), and the Assembly could not be read again for a fresh URL: ${fresh.error.message}`);
    }
    const url = freshUrlOf(o.file, fresh.value);
    if (!url) return err(RESULT_EXPIRED, `${o.name} has expired on the service: its result host answered HTTP ${first} and the Assembly's record no longer lists it. Replay the Assembly to make it again.`);
    try {
      return ok({ path: await downloadToDir(url, o.dir, o.name, { fetch: o.fetch }), url });
    } catch (again) {
      if (!(again instanceof DownloadHttpError) || !EXPIRED_STATUSES.has(again.status)) throw again;
      return err(RESULT_EXPIRED, `${o.name} has expired on the service: its result host answered HTTP ${again.status}, also at the fresh URL the Assembly's record gave. Results are kept for a limited time; replay the Assembly to make it again.`);
    }
  }
}

/** An Assembly's status read again from its deployment, for the fresh URLs of its results. */
export const readStatusOf =
  (api: ApiClient) =>
  (status: AssemblyStatus): Promise<Result<AssemblyStatus>> => {
    const url = status.assembly_ssl_url ?? status.assembly_url;
    return url ? api.getAssembly(url) : Promise.resolve(err(AppErrorCode.notFound, "The Assembly's record names no status URL."));
  };
