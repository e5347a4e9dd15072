/** The scope an endpoint needs (spec and service-facts §7 name the scopes per endpoint); null = none. Shared by the service (enforcing) and the app (minting narrow tokens). */
export function requiredScope(method: string, path: string): string | null {
  const read = method === 'GET' || method === 'HEAD';
  const rw = (resource: string): string => `${resource}:${read ? 'read' : 'write'}`;
  if (path.startsWith('/template_credentials')) return rw('template_credentials');
  if (path.startsWith('/templates')) return rw('templates');
  if (path.startsWith('/auth_keys')) return rw('auth_keys');
  // Registering a client's public keys decides who may sign in: Auth Key management (our choice).
  if (path.startsWith('/oauth_clients/')) return rw('auth_keys');
  if (path === '/assemblies' || path === '/assemblies/' || /^\/assemblies\/[0-9a-f]{32}(\/replay)?\/?$/.test(path)) return rw('assemblies');
  // Replaying is the one notification scope the spec lists; reading the attempts is reading the Assembly.
  if (path.startsWith('/assembly_notifications/')) return read ? 'assemblies:read' : 'assembly_notifications:write';
  // Stored assets: the spec's `dam:read` / `dam:write` (issue 25: they opened nothing, /dam wanted assemblies:*).
  if (path.startsWith('/dam/')) return rw('dam');
  if (path.startsWith('/bill/')) return 'billing:read';
  // Our choice (the facts give no scope for statistics): reading Assemblies' figures is reading Assemblies.
  if (path === '/assembly_stats' || path === '/assembly_stats/') return 'assemblies:read';
  if (path.startsWith('/queues/')) return 'queues:read';
  if (path === '/priority_job_slot_stats' || path === '/priority_job_slot_stats/') return 'queues:read';
  return null;
}
