import type { AssemblyStatus } from '../../../shared/api/assembly-status';

/**
 * Core fetches result files for the page, so the page must not choose what core fetches. A result URL is
 * accepted only when the run's own status record gave it (in `results` or `uploads`). That is stricter
 * than "same origin as the workspace" and still works where results live on a CDN host (the status
 * record names that host), and with the embedded service, whose records name its loopback address.
 */
export function isResultUrlOfRun(status: AssemblyStatus | null, url: string): boolean {
  const wanted = normalized(url);
  if (!status || wanted === null || !/^https?:$/.test(new URL(wanted).protocol)) return false;
  const files = [...(status.uploads ?? []), ...Object.values(status.results ?? {}).flat()];
  return files.some((file) => [file.ssl_url, file.url].some((given) => typeof given === 'string' && normalized(given) === wanted));
}

const normalized = (raw: string): string | null => {
  try {
    return new URL(raw).href;
  } catch {
    return null;
  }
};
