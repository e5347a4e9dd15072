import type { AssemblyFile, AssemblyStatus } from '../../../shared/api/assembly-status';

/**
 * Core fetches result files for the page, so the page must not choose what core fetches. A result URL is
 * accepted only when the run's own status record gave it (in `results` or `uploads`). That is stricter
 * than "same origin as the workspace" and still works where results live on a CDN host (the status
 * record names that host), and with the embedded service, whose records name its loopback address.
 */
export function isResultUrlOfRun(status: AssemblyStatus | null, url: string): boolean {
  return resultFileOfRun(status, url) !== null;
}

/** The file record (type, metadata) the run's status gave for this URL; null when it gave none. */
export function resultFileOfRun(status: AssemblyStatus | null, url: string): AssemblyFile | null {
  const wanted = normalized(url);
  if (!status || wanted === null || !/^https?:$/.test(new URL(wanted).protocol)) return null;
  const files = [...(status.uploads ?? []), ...Object.values(status.results ?? {}).flat()];
  return files.find((file) => [file.ssl_url, file.url].some((given) => typeof given === 'string' && normalized(given) === wanted)) ?? null;
}

const normalized = (raw: string): string | null => {
  try {
    return new URL(raw).href;
  } catch {
    return null;
  }
};
