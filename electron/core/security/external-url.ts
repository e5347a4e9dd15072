/**
 * What may go to the system browser, for window.open (electron/main) and `shell:openUrl` alike: only
 * well-formed https URLs without credentials (`user:pass@` would be shown to, and sent by, the browser).
 * Plain http is allowed only to a loopback origin the caller names (the embedded service's Smart CDN
 * URLs are http://127.0.0.1:<port>/...); never file:, javascript:, custom schemes or other http hosts.
 */
export function isSafeExternalUrl(raw: string, allowHttpOrigins: readonly string[] = []): boolean {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return false;
  }
  if (url.username !== '' || url.password !== '' || url.hostname.length === 0) return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && isLoopbackHost(url.hostname) && allowHttpOrigins.some((origin) => originOf(origin) === url.origin);
}

const LOOPBACK = /^(127(\.\d{1,3}){3}|\[::1\]|localhost)$/i;

export const isLoopbackHost = (hostname: string): boolean => LOOPBACK.test(hostname);

const originOf = (raw: string): string | null => {
  try {
    return new URL(raw).origin;
  } catch {
    return null;
  }
};
