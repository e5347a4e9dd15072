/**
 * The fields the app asks for per Template credentials type. Secret fields are write-only in the app:
 * core never sends their values to the renderer, only whether one is stored.
 */
import { CREDENTIAL_TYPE_INFO } from './credential-types';
import { isHttpUrl } from './http-url';

export { CREDENTIAL_TYPES, credentialTypeLabel } from './credential-types';

export interface CredentialField {
  readonly name: string;
  readonly label: string;
  readonly secret?: boolean;
  /** Where the secrets are sent (host, port, URL): changing it needs the secrets typed again. */
  readonly destination?: boolean;
  readonly required?: boolean;
  readonly multiline?: boolean;
  readonly placeholder?: string;
  /** What a value must look like, checked at the field (`credentialFieldProblem`). */
  readonly kind?: 'host' | 'port' | 'url';
}

/** A host name (letters, digits, hyphens, dots), an IPv4 address, or an IPv6 address with or without brackets. */
const HOST = /^(?:(?=.{1,253}$)(?!-)[a-z0-9_-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9_-]{1,63}(?<!-))*\.?|\[?[0-9a-f:.]*:[0-9a-f:.]*\]?)$/i;

/** Why a typed value cannot be what the field holds (a host, a port, a URL), or null; an empty value is the required check's. */
export const credentialFieldProblem = (field: Pick<CredentialField, 'kind' | 'label'>, value: string): string | null => {
  const v = value.trim();
  if (v === '' || v.includes('${')) return null;
  if (field.kind === 'port') return /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 65535 ? null : `${field.label} must be a whole number from 1 to 65535 (got ${JSON.stringify(value)}).`;
  if (field.kind === 'host') return HOST.test(v) ? null : `${field.label} must be a host name or an IP address, such as sftp.example.com or 192.0.2.10 (got ${JSON.stringify(value)}).`;
  if (field.kind === 'url') return isHttpUrl(v) ? null : `${field.label} must be an http(s) URL, such as https://files.example.com/ (got ${JSON.stringify(value)}).`;
  return null;
};

const S3_COMPATIBLE_FIELDS: readonly CredentialField[] = [
  { name: 'host', label: 'Endpoint host', destination: true, required: true, placeholder: 'storage.example.com', kind: 'host' },
  { name: 'bucket', label: 'Bucket', required: true },
  { name: 'bucket_region', label: 'Region', placeholder: 'us-east-1' },
  { name: 'key', label: 'Access key ID', required: true },
  { name: 'secret', label: 'Secret access key', secret: true, required: true },
];

export const CREDENTIAL_FORMS: Readonly<Record<string, { readonly label: string; readonly fields: readonly CredentialField[] }>> = {
  sftp: {
    label: CREDENTIAL_TYPE_INFO.sftp.label,
    fields: [
      { name: 'host', label: 'Host', destination: true, required: true, placeholder: 'sftp.example.com', kind: 'host' },
      { name: 'port', label: 'Port', destination: true, placeholder: '22', kind: 'port' },
      { name: 'user', label: 'User', required: true },
      { name: 'password', label: 'Password', secret: true },
      { name: 'private_key', label: 'Private key (OpenSSH)', secret: true, multiline: true },
    ],
  },
  s3: {
    label: CREDENTIAL_TYPE_INFO.s3.label,
    fields: [
      { name: 'bucket', label: 'Bucket', required: true },
      { name: 'bucket_region', label: 'Region', required: true, placeholder: 'us-east-1' },
      { name: 'key', label: 'Access key ID', required: true },
      { name: 'secret', label: 'Secret access key', secret: true, required: true },
    ],
  },
  ftp: {
    label: CREDENTIAL_TYPE_INFO.ftp.label,
    fields: [
      { name: 'host', label: 'Host', destination: true, required: true, kind: 'host' },
      { name: 'port', label: 'Port', destination: true, placeholder: '21', kind: 'port' },
      { name: 'user', label: 'User', required: true },
      { name: 'password', label: 'Password', secret: true, required: true },
    ],
  },
  // S3-compatible stores that take a host (service-facts.md §8 "Other bases"): supabase, swift, tigris, wasabi; minio likewise.
  ...Object.fromEntries((['minio', 'supabase', 'swift', 'tigris', 'wasabi'] as const).map((t) => [t, { label: CREDENTIAL_TYPE_INFO[t].label, fields: S3_COMPATIBLE_FIELDS }])),
  http: {
    label: CREDENTIAL_TYPE_INFO.http.label,
    fields: [
      { name: 'url', label: 'Base URL', destination: true, required: true, placeholder: 'https://files.example.com/', kind: 'url' },
      { name: 'username', label: 'User' },
      { name: 'password', label: 'Password', secret: true },
      { name: 'headers', label: 'Extra headers (JSON)', secret: true, multiline: true, placeholder: '{"Authorization": "Bearer …"}' },
    ],
  },
};

/** For types without a form: a key/value list, where names that look secret are treated as secrets. */
export const looksSecret = (name: string): boolean => /secret|password|passphrase|token|private|api_?key|^key$|credential/i.test(name);

export const isSecretField = (type: string, name: string): boolean => {
  const form = CREDENTIAL_FORMS[type];
  const field = form?.fields.find((f) => f.name === name);
  return field ? field.secret === true : looksSecret(name);
};

/** For types without a form (and fields beyond a form's): names that say where requests go. */
export const looksLikeDestination = (name: string): boolean => /host|url|uri|endpoint|server|domain|address|^port$/i.test(name);

/** Whether changing this field moves the credential's secrets to another place (core then withholds them). */
export const isDestinationField = (type: string, name: string): boolean => {
  if (isSecretField(type, name)) return false;
  const field = CREDENTIAL_FORMS[type]?.fields.find((f) => f.name === name);
  return field?.destination === true || looksLikeDestination(name);
};
