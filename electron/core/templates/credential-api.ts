import { z } from 'zod';
import { isSecretField } from '../../../shared/api/credential-forms';
import type { Credential, CredentialInput } from '../../../shared/ipc/template-models';
import { AppErrorCode, err, ok, type Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import { fieldLabels, missingRequiredSecrets, withStoredSecretsOnlyInPlace } from '../credentials/credential-destination';
import { describeDestination, SECRET_NOT_FOR_DESTINATION } from '../security/secret-destination';

const recordSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  type: z.string(),
  content: z.unknown(),
  created: z.string().nullable().optional(),
  modified: z.string().nullable().optional(),
});
type CredentialRecord = z.infer<typeof recordSchema>;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const asText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** The renderer's view: secret values stripped, only their names kept. Pure, so it is tested directly. */
export function toCredential(r: CredentialRecord): Credential {
  // Content that is one value (any JSON value but an object) is shown as stored, never as text.
  if (!isObject(r.content)) return { id: r.id, name: r.name, type: r.type, values: {}, secretsSet: [], contentKind: 'value', created: r.created ?? null, modified: r.modified ?? null };
  const content = r.content;
  const values: Record<string, string> = {};
  const secretsSet: string[] = [];
  for (const [name, value] of Object.entries(content)) {
    if (isSecretField(r.type, name)) {
      if (value !== '' && value !== null && value !== undefined) secretsSet.push(name);
    } else values[name] = asText(value);
  }
  return { id: r.id, name: r.name, type: r.type, values, secretsSet, contentKind: 'fields', created: r.created ?? null, modified: r.modified ?? null };
}

/** One value typed in the form: JSON text is that JSON value, any other text the string itself. Pure. */
export function contentFromValue(text: string): unknown {
  try {
    return JSON.parse(text.trim());
  } catch {
    return text;
  }
}

/**
 * The content to save: the new values over the stored content, except that a secret field sent empty
 * keeps what is stored (the user never saw it); fields in `clear` are removed.
 */
export function mergeCredentialContent(type: string, stored: Record<string, unknown>, values: Record<string, string>, clear: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = { ...stored };
  for (const [name, value] of Object.entries(values)) {
    if (value === '' && isSecretField(type, name)) continue;
    if (value === '') delete out[name];
    else out[name] = name === 'port' && /^\d+$/.test(value) ? Number(value) : value;
  }
  for (const name of clear) delete out[name];
  return out;
}

const parseOne = (body: Record<string, unknown>): Result<CredentialRecord> => {
  const parsed = recordSchema.safeParse(body.credential);
  return parsed.success ? ok(parsed.data) : err(AppErrorCode.invalidResponse, `The service sent an unexpected credentials record: ${parsed.error.issues[0]?.message ?? ''}`);
};

const path = (id: string): string => `/template_credentials/${encodeURIComponent(id)}`;

export async function listCredentials(api: ApiClient): Promise<Result<Credential[]>> {
  const res = await api.request('GET', '/template_credentials');
  if (!res.ok) return res;
  const parsed = z.array(recordSchema).safeParse(res.value.credentials);
  return parsed.success ? ok(parsed.data.map(toCredential)) : err(AppErrorCode.invalidResponse, 'The service sent an unexpected credentials list.');
}

export async function createCredential(api: ApiClient, input: CredentialInput): Promise<Result<Credential>> {
  const content = input.value !== undefined ? contentFromValue(input.value) : mergeCredentialContent(input.type, {}, input.values, input.clear ?? []);
  const res = await api.request('POST', '/template_credentials', { name: input.name, type: input.type, content });
  if (!res.ok) return res;
  const one = parseOne(res.value);
  return one.ok ? ok(toCredential(one.value)) : one;
}

/** Reads the stored content (it stays in core) so empty secret fields keep their values, then saves. */
export async function updateCredential(api: ApiClient, id: string, input: CredentialInput): Promise<Result<Credential>> {
  const current = await api.request('GET', path(id));
  if (!current.ok) return current;
  const stored = parseOne(current.value);
  if (!stored.ok) return stored;
  const storedContent = stored.value.content;
  let content: unknown;
  if (input.value !== undefined) {
    // Write-only like a secret: left empty, the stored value of a one-value credential is kept.
    content = input.value === '' && !isObject(storedContent) ? storedContent : contentFromValue(input.value);
  } else {
    const base = isObject(storedContent) && stored.value.type === input.type ? storedContent : {};
    // Moved elsewhere (another host, port or URL), the stored secrets stay behind: they were given for the old place.
    const moved = withStoredSecretsOnlyInPlace(input.type, base, mergeCredentialContent(input.type, base, input.values, input.clear ?? []), input.values);
    const retype = missingRequiredSecrets(input.type, moved.content).filter((n) => moved.withheld.includes(n));
    if (retype.length > 0) {
      return err(
        SECRET_NOT_FOR_DESTINATION,
        `Type the ${fieldLabels(input.type, retype)} again: ${retype.length > 1 ? 'they were' : 'it was'} saved for ${describeDestination(moved.savedFor)}, and these credentials now point to ${describeDestination(moved.sendTo)}.`,
      );
    }
    content = moved.content;
  }
  const res = await api.request('PUT', path(id), { name: input.name, type: input.type, content });
  if (!res.ok) return res;
  const one = parseOne(res.value);
  return one.ok ? ok(toCredential(one.value)) : one;
}

export async function deleteCredential(api: ApiClient, id: string): Promise<Result<Record<string, never>>> {
  const res = await api.request('DELETE', path(id));
  return res.ok ? ok({}) : res;
}

/** The stored type and full content, secrets included: for core only (the credential test), never the renderer. */
export async function readCredentialContent(api: ApiClient, id: string): Promise<Result<{ name: string; type: string; content: Record<string, unknown> }>> {
  const res = await api.request('GET', path(id));
  if (!res.ok) return res;
  const one = parseOne(res.value);
  if (!one.ok) return one;
  return ok({ name: one.value.name, type: one.value.type, content: isObject(one.value.content) ? one.value.content : {} });
}
