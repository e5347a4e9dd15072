import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ServiceDatabase } from '../store/database';

/** The token of `Authorization: Bearer <token>`, or null. */
export const bearerOf = (req: IncomingMessage): string | null => /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1] ?? null;

/** Tokens are stored as hashes: a leaked database does not leak working tokens. */
export const tokenHash = (token: string): string => createHash('sha256').update(token).digest('hex');

export const tokenLookup =
  (db: ServiceDatabase) =>
  (token: string): { authKey: string; scope: string; expiresAtMs: number } | null =>
    db.findToken(tokenHash(token));
