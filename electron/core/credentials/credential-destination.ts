import { CREDENTIAL_FORMS, isDestinationField, isSecretField } from '../../../shared/api/credential-forms';
import { hostDestination, mayReuseSecret, urlDestination, type Destination } from '../security/secret-destination';

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : v === undefined || v === null ? '' : JSON.stringify(v));

/** One destination field of a type without its own rule: a URL, a port, or a host (canonical when it is one). */
function fieldPart(name: string, value: unknown): string {
  const t = text(value).trim();
  if (/^port$/i.test(name)) return /^\d+$/.test(t) ? String(Number(t)) : `raw:${t}`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t)) return urlDestination(t) ?? `raw:${t}`;
  return hostDestination('tcp', t, 1, 1) ?? urlDestination(`https://${t}`) ?? `raw:${t}`;
}

/**
 * Where a credential's secrets are sent, from its content: the base URL (HTTP), host and port (SFTP,
 * FTP), else every destination field together (an S3-compatible host, an endpoint…); a type with none
 * (Dropbox, YouTube…) always goes to its vendor. Null when the content names no clear destination. Pure.
 */
export function credentialDestination(type: string, content: Record<string, unknown>): Destination | null {
  if (type === 'http') return urlDestination(text(content.url));
  if (type === 'sftp') return hostDestination('sftp', text(content.host), text(content.port), 22);
  if (type === 'ftp') return hostDestination('ftp', text(content.host), text(content.port), 21);
  const parts = Object.keys(content)
    .filter((name) => isDestinationField(type, name) && text(content[name]).trim() !== '')
    .sort()
    .map((name) => `${name}=${fieldPart(name, content[name])}`);
  return `${type}:${parts.join('&')}` as Destination;
}

export interface MovedSecrets {
  /** The content to use: a stored secret the request did not type again is gone when the destination moved. */
  readonly content: Record<string, unknown>;
  /** The stored secret fields left out (empty when the destination stayed). */
  readonly withheld: string[];
  readonly savedFor: Destination | null;
  readonly sendTo: Destination | null;
}

const isSet = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/**
 * The request's values over the stored content, as `merge` does, with the rule applied: when the result
 * goes elsewhere than the stored content did, the stored secrets are not carried over. Pure.
 */
export function withStoredSecretsOnlyInPlace(
  type: string,
  stored: Record<string, unknown>,
  merged: Record<string, unknown>,
  typed: Readonly<Record<string, string>>,
): MovedSecrets {
  const savedFor = credentialDestination(type, stored);
  const sendTo = credentialDestination(type, merged);
  if (mayReuseSecret(savedFor, sendTo)) return { content: merged, withheld: [], savedFor, sendTo };
  const content = { ...merged };
  const withheld: string[] = [];
  for (const [name, value] of Object.entries(stored)) {
    // Kept only when the request typed it again.
    if (isSecretField(type, name) && isSet(value) && !isSet(typed[name]) && name in content) {
      delete content[name];
      withheld.push(name);
    }
  }
  return { content, withheld, savedFor, sendTo };
}

/** The form labels of fields, for messages ("Password", "Extra headers (JSON)"). Pure. */
export const fieldLabels = (type: string, names: readonly string[]): string =>
  names.map((n) => CREDENTIAL_FORMS[type]?.fields.find((f) => f.name === n)?.label ?? n).join(', ');

/** Required secrets of the type's form that the content lacks. Pure. */
export const missingRequiredSecrets = (type: string, content: Record<string, unknown>): string[] =>
  (CREDENTIAL_FORMS[type]?.fields ?? []).filter((f) => f.secret && f.required && !isSet(content[f.name])).map((f) => f.name);

/** Whether the content holds any secret value. Pure. */
export const hasSecrets = (type: string, content: Record<string, unknown>): boolean => Object.entries(content).some(([n, v]) => isSecretField(type, n) && isSet(v));
