import { randomBytes } from 'node:crypto';
import { ALLOWED_SCOPES } from '../auth-keys/auth-key-rules';
import type { ServiceDatabase } from '../store/database';
import { tokenHash } from './bearer';

/**
 * How long a token minted for a chat step's tool server lives (spec "Tool-server auto-authentication":
 * "short-lived"; the number is ours): long enough for a step's tool calls, far shorter than /token's six hours.
 */
export const STEP_TOKEN_LIFETIME_S = 600;

/** The audience of the hosted tool endpoint (spec "Bearer tokens", `resource`: `aud=mcp`). */
export const STEP_TOKEN_AUD = 'mcp';

/**
 * A Bearer token for the Assembly's Auth Key, as POST /token with `aud=mcp` would give: the key's scopes
 * (never wider), `lifetimeS` seconds. Stored hashed like every token; null when the key is gone or inactive.
 */
export function mintStepToken(db: ServiceDatabase, authKey: string, lifetimeS = STEP_TOKEN_LIFETIME_S): { token: string; scope: string; expiresAtMs: number } | null {
  const account = db.getAccount(authKey);
  if (!account || account.isActive === false) return null;
  const scope = account.scope === null || account.scope === undefined ? ALLOWED_SCOPES.join(',') : account.scope;
  const token = randomBytes(32).toString('base64url');
  const expiresAtMs = Date.now() + lifetimeS * 1000;
  db.saveToken({ tokenHash: tokenHash(token), authKey, scope, aud: STEP_TOKEN_AUD, expiresAtMs });
  return { token, scope, expiresAtMs };
}
