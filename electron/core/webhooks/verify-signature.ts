import { createHmac, timingSafeEqual } from 'node:crypto';
import type { WebhookVerification } from '../../../shared/ipc/webhook-models';

/** A key whose secret may have signed a notification: the workspaces' keys, the active one first. */
export interface SigningCandidate {
  readonly workspaceId: string;
  readonly name: string;
  readonly secret: string;
}

const HEX_LENGTH = { sha1: 40, sha256: 64, sha384: 96 } as const;
type Algo = keyof typeof HEX_LENGTH;
const isAlgo = (name: string): name is Algo => Object.prototype.hasOwnProperty.call(HEX_LENGTH, name);

/**
 * Reads a notification's `signature` field as service-facts §3 allows: the text before the first `:` names
 * the algorithm (`sha1`, `sha256`, `sha384`, any case); bare hex is sha1 (the service's default, and what
 * simple receivers compare). Anything else is refused with the reason. Pure.
 */
export function readSignature(signature: string | null | undefined): { ok: true; algo: Algo; hex: string } | { ok: false; verification: WebhookVerification } {
  const text = (signature ?? '').trim();
  const fail = (reason: WebhookVerification['reason'], algorithm: string | null, message: string) => ({ ok: false as const, verification: { verified: false, algorithm, reason, message, workspaceId: null } });
  if (text === '') return fail('missing', null, 'No signature: the body has no `signature` field.');
  const colon = text.indexOf(':');
  const algo = colon === -1 ? 'sha1' : text.slice(0, colon).toLowerCase();
  const hex = (colon === -1 ? text : text.slice(colon + 1)).toLowerCase();
  if (!isAlgo(algo)) return fail('unknown-algorithm', algo, `Unknown algorithm prefix "${text.slice(0, colon)}": only sha1, sha256 and sha384 sign notifications.`);
  if (hex.length !== HEX_LENGTH[algo] || !/^[0-9a-f]+$/.test(hex)) {
    return fail('malformed', algo, `Not a ${algo} signature: expected ${HEX_LENGTH[algo]} hexadecimal characters${colon === -1 ? ' (bare hex is read as sha1)' : ''}.`);
  }
  return { ok: true, algo, hex };
}

/**
 * Verifies a notification's signature over the exact `transloadit` field string (never re-serialized) with
 * each candidate's secret, comparing in constant time. The secrets stay here; only the outcome leaves.
 */
export function verifyWebhookSignature(transloadit: string, signature: string | null | undefined, candidates: readonly SigningCandidate[]): WebhookVerification {
  const read = readSignature(signature);
  if (!read.ok) return read.verification;
  if (candidates.length === 0) {
    return { verified: false, algorithm: read.algo, reason: 'no-secret', message: 'No workspace key secret is available in this app to check it with.', workspaceId: null };
  }
  const expected = Buffer.from(read.hex, 'hex');
  for (const candidate of candidates) {
    const mac = createHmac(read.algo, Buffer.from(candidate.secret, 'utf8')).update(Buffer.from(transloadit, 'utf8')).digest();
    if (mac.length === expected.length && timingSafeEqual(mac, expected)) {
      return { verified: true, algorithm: read.algo, reason: 'ok', message: `${read.algo} signature made with the key of ${candidate.name}.`, workspaceId: candidate.workspaceId };
    }
  }
  const names = candidates.map((c) => c.name).join(', ');
  return { verified: false, algorithm: read.algo, reason: 'mismatch', message: `Wrong signature: it does not match the ${read.algo} HMAC with the key secret of ${names}.`, workspaceId: null };
}
