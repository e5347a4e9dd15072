// The `resource` of POST /token and /authorize (spec "Bearer tokens"; RFC 8707): "the hosted tool
// endpoint (aud=mcp) or the API origin (aud=api2). When omitted, the resource of the code or refresh
// token is used; otherwise it must match." The spec names no error; ours is TOKEN_INVALID_TARGET
// (RFC 8707's `invalid_target`). Pure.

export type Audience = 'api2' | 'mcp';

export const TOKEN_INVALID_TARGET = 'TOKEN_INVALID_TARGET';

const LOOPBACK = new Set(['127.0.0.1', '[::1]', 'localhost']);

/** Origins compared as a browser does, with the loopback names of one port counted as one. */
export const sameOrigin = (a: URL, b: URL): boolean => {
  if (a.protocol !== b.protocol || a.port !== b.port) return false;
  return a.hostname === b.hostname || (LOOPBACK.has(a.hostname) && LOOPBACK.has(b.hostname));
};

/**
 * The audience `resource` names when it is this service's: its API origin (`api2`), or its tool endpoint
 * (`mcp`, a path `/mcp` on that origin). Anything else (another host, not an absolute http(s) URL, a
 * fragment, which RFC 8707 forbids) gives the reason instead.
 */
export function audienceOfResource(resource: string, ownOrigins: readonly string[]): { aud: Audience } | { problem: string } {
  let url: URL;
  try {
    url = new URL(resource);
  } catch {
    return { problem: `resource must be an absolute URL (got ${JSON.stringify(resource)}).` };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { problem: `resource must be an http(s) URL (got ${JSON.stringify(resource)}).` };
  if (url.hash !== '' || resource.includes('#')) return { problem: 'resource must not contain a fragment (#…).' };
  const own = ownOrigins.flatMap((o) => {
    try {
      return [new URL(o)];
    } catch {
      return [];
    }
  });
  if (!own.some((o) => sameOrigin(o, url))) {
    return { problem: `resource ${url.origin} is not this service: name its API origin (${own[0]?.origin ?? 'this service'}) or leave resource out.` };
  }
  return { aud: /^\/mcp(\/|$)/.test(url.pathname) ? 'mcp' : 'api2' };
}

/** Why a token request's `resource` is refused for a grant issued for `grantAud`, or null (absent, or the same). */
export function resourceMismatch(resource: string | undefined, grantAud: string, ownOrigins: readonly string[]): string | null {
  if (resource === undefined || resource === '') return null;
  const named = audienceOfResource(resource, ownOrigins);
  if ('problem' in named) return named.problem;
  return named.aud === grantAud ? null : `resource names the ${named.aud === 'mcp' ? 'tool endpoint (aud=mcp)' : 'API (aud=api2)'}, but this sign-in was granted for aud=${grantAud}.`;
}
