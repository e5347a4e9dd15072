/** The two fields of a notification (service-facts §3), or what made the body unreadable. */
export type WebhookFields = { ok: true; transloadit: string; signature: string | null } | { ok: false; problem: string };

/**
 * Reads a notification body as the vendor's receivers do: urlencoded (what the service sends) or multipart
 * (what the docs describe), through the standard `formData()` parser, which handles both.
 */
export async function readWebhookBody(contentType: string, body: Buffer): Promise<WebhookFields> {
  const type = contentType.split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded' && type !== 'multipart/form-data') {
    return { ok: false, problem: `Not a form body (Content-Type "${contentType || 'none'}"): notifications are urlencoded or multipart.` };
  }
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), { headers: { 'content-type': contentType } }).formData();
  } catch {
    return { ok: false, problem: `The ${type} body could not be parsed.` };
  }
  const transloadit = form.get('transloadit');
  const signature = form.get('signature');
  const text = typeof transloadit === 'string' ? transloadit : transloadit ? await transloadit.text() : null;
  if (text === null) return { ok: false, problem: 'The body has no `transloadit` field.' };
  return { ok: true, transloadit: text, signature: typeof signature === 'string' ? signature : null };
}

/** The Assembly id and state a status JSON names, or why it is not one. Pure. */
export function summarizeStatus(transloadit: string): { assemblyId: string | null; ok: string | null; error: string | null; problem: string | null } {
  try {
    const status = JSON.parse(transloadit) as unknown;
    if (typeof status !== 'object' || status === null || Array.isArray(status)) return { assemblyId: null, ok: null, error: null, problem: 'The `transloadit` field is not a JSON object.' };
    const s = status as Record<string, unknown>;
    const str = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);
    return { assemblyId: str(s.assembly_id), ok: str(s.ok), error: str(s.error), problem: null };
  } catch {
    return { assemblyId: null, ok: null, error: null, problem: 'The `transloadit` field is not JSON.' };
  }
}
