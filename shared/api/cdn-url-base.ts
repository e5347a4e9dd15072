// Where a workspace's content-delivery URLs start: the hosted Smart CDN (`https://{slug}.tlcdn.com`), or,
// for a local service (the Local workspace, or any endpoint on this computer), the service's own
// `{endpoint}/file/{slug}`. One rule for the URL core signs and the hints the forms show. Pure.

/** An endpoint on this computer: localhost, 127.x.x.x or [::1]. */
export const isLoopbackEndpoint = (endpoint: string): boolean => /^https?:\/\/(localhost|127(?:\.\d{1,3}){3}|\[::1\])(?::\d+)?(?:\/|$)/i.test(endpoint.trim());

export const cdnUrlBase = (o: { readonly endpoint: string; readonly slug: string; readonly local?: boolean }): string =>
  o.local === true || isLoopbackEndpoint(o.endpoint) ? `${o.endpoint.trim().replace(/\/+$/, '')}/file/${encodeURIComponent(o.slug)}` : `https://${o.slug}.tlcdn.com`;
