import { z } from 'zod';

/** Why a received webhook's signature did (or did not) check out against a workspace key's secret. */
export const webhookVerificationSchema = z.object({
  verified: z.boolean(),
  /** The algorithm the signature names (`sha1` when bare hex), or null when there is none to read. */
  algorithm: z.string().nullable(),
  /** `ok`, `missing`, `unknown-algorithm`, `malformed`, `mismatch`, `no-secret`. */
  reason: z.enum(['ok', 'missing', 'unknown-algorithm', 'malformed', 'mismatch', 'no-secret']),
  /** In words, for the panel ("Signed with the key of Local (this computer)", "No signature field"). */
  message: z.string(),
  /** The workspace whose key's secret verified it. */
  workspaceId: z.string().nullable(),
});
export type WebhookVerification = z.infer<typeof webhookVerificationSchema>;

/** One notification the in-app webhook tester received (service-facts §3: `transloadit` + `signature`). */
export const receivedWebhookSchema = z.object({
  id: z.string(),
  /** ISO 8601. */
  receivedAt: z.string(),
  assemblyId: z.string().nullable(),
  /** The status record's `ok` (or `error`) code. */
  ok: z.string().nullable(),
  error: z.string().nullable(),
  contentType: z.string(),
  /** Bytes of the `transloadit` field (the status JSON). */
  payloadBytes: z.number().int(),
  /** The `transloadit` field as received (cut at 256 KiB), or null when the body had none. */
  payload: z.string().nullable(),
  /** What went wrong reading the body (not urlencoded or multipart, no `transloadit`, not JSON); null when fine. */
  problem: z.string().nullable(),
  verification: webhookVerificationSchema,
});
export type ReceivedWebhook = z.infer<typeof receivedWebhookSchema>;

export const webhookTesterSchema = z.object({
  /** The receiver's loopback URL; null until it was started. */
  url: z.string().nullable(),
  /** Newest first (the last 100). */
  received: z.array(receivedWebhookSchema),
});
export type WebhookTester = z.infer<typeof webhookTesterSchema>;
