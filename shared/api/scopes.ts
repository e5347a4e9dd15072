/** The scopes an Auth Key or token may hold (spec "Auth Key"); shared by the service and the app's scope pickers. */
export const ALLOWED_SCOPES = [
  'read',
  'write',
  'auth_keys:write',
  'auth_keys:read',
  'assemblies:write',
  'assemblies:read',
  'assembly_notifications:write',
  'dam:read',
  'dam:write',
  'template_credentials:read',
  'template_credentials:write',
  'billing:read',
  'queues:read',
  'smart_cdn:sign',
  'templates:read',
  'templates:write',
  'storage_grants:write',
] as const;

/**
 * What each scope covers (issue 25: one table for `/token`, the consent page and every route): itself,
 * and for the generic `read` / `write` every `<resource>:read` / `<resource>:write` scope (so a `read` key
 * may mint an `assemblies:read` token and call what needs one). `smart_cdn:sign` is neither a read nor
 * a write: only itself covers it. The scope each route needs is in required-scope.ts. Pure.
 */
export function scopeCovers(held: string, needed: string): boolean {
  if (held === needed) return true;
  const kind = needed.split(':')[1];
  return (held === 'read' || held === 'write') && kind === held;
}

/** Whether a key's or token's scopes (comma- or space-separated; null = every scope) cover `needed`. Pure. */
export function scopesCover(scope: string | null, needed: string): boolean {
  if (scope === null) return true;
  return scope.split(/[\s,]+/).some((held) => held !== '' && scopeCovers(held, needed));
}

/** What each scope allows, in a few words (the pickers and the key lists say it beside the name). */
export const SCOPE_DESCRIPTIONS: Readonly<Record<(typeof ALLOWED_SCOPES)[number], string>> = {
  read: 'Everything every :read scope allows',
  write: 'Everything every :write scope allows',
  'auth_keys:write': 'Create, change and delete Auth Keys',
  'auth_keys:read': 'List Auth Keys',
  'assemblies:write': 'Create, cancel and replay Assemblies',
  'assemblies:read': 'List Assemblies and read their status',
  'assembly_notifications:write': 'Send notifications again',
  'dam:read': 'List and download stored assets',
  'dam:write': 'Store, rename, move and delete assets',
  'template_credentials:read': 'List Template credentials',
  'template_credentials:write': 'Create, change and delete Template credentials',
  'billing:read': 'Read the bill and usage',
  'queues:read': 'Read the job slots and the queue',
  'smart_cdn:sign': 'Sign Smart CDN URLs',
  'templates:read': 'List and read Templates',
  'templates:write': 'Create, change and delete Templates',
  'storage_grants:write': 'Grant access to storage',
};

/** What a scope allows, or nothing for a scope this app does not know. */
export const scopeDescription = (scope: string): string | undefined =>
  Object.prototype.hasOwnProperty.call(SCOPE_DESCRIPTIONS, scope) ? SCOPE_DESCRIPTIONS[scope as keyof typeof SCOPE_DESCRIPTIONS] : undefined;

/** The scope that lets a key sign content-delivery URLs. */
export const CDN_SIGN_SCOPE = 'smart_cdn:sign';

/**
 * Whether a key's scopes let it sign content-delivery URLs (our reading of `smart_cdn:sign`): a key with
 * no scope list (null = every scope) may, a key with a list must hold `smart_cdn:sign`. `read`/`write`
 * do not cover it: signing is neither. Takes the wire form (comma-separated) or the app's list. Pure.
 */
export function scopesAllowCdnSigning(scope: string | readonly string[] | null | undefined): boolean {
  if (scope === null || scope === undefined) return true;
  const held = typeof scope === 'string' ? scope.split(/[\s,]+/) : scope;
  return held.includes(CDN_SIGN_SCOPE);
}

/** Why a key cannot sign content-delivery URLs, with what to do; said the same way by core and the CDN screen. */
export const cdnScopeProblem = (authKey: string, scopes: readonly string[]): string =>
  `The key ${authKey.slice(0, 16)}… has a scope list (${scopes.length > 0 ? scopes.join(', ') : 'no scopes'}) without ${CDN_SIGN_SCOPE}, so the service refuses the URLs it signs. Add ${CDN_SIGN_SCOPE} to its scopes in Auth Keys.`;
