/**
 * The fields the app asks for per Template credentials type. Secret fields are write-only in the app:
 * core never sends their values to the renderer, only whether one is stored.
 */
/** `type` values of Template credentials (service-facts.md §7 "Template credentials"). */
export const CREDENTIAL_TYPES = [
  'ai', 'azure', 'backblaze', 'cloudflare', 'companion', 'digitalocean', 'dropbox', 'ftp', 'google', 'http', 'mega', 'minio',
  'rackspace', 's3', 'sftp', 'supabase', 'swift', 'tigris', 'vimeo', 'wasabi', 'youtube',
] as const;

export interface CredentialField {
  readonly name: string;
  readonly label: string;
  readonly secret?: boolean;
  readonly required?: boolean;
  readonly multiline?: boolean;
  readonly placeholder?: string;
}

export const CREDENTIAL_FORMS: Readonly<Record<string, { readonly label: string; readonly fields: readonly CredentialField[] }>> = {
  sftp: {
    label: 'SFTP server',
    fields: [
      { name: 'host', label: 'Host', required: true, placeholder: 'sftp.example.com' },
      { name: 'port', label: 'Port', placeholder: '22' },
      { name: 'user', label: 'User', required: true },
      { name: 'password', label: 'Password', secret: true },
      { name: 'private_key', label: 'Private key (OpenSSH)', secret: true, multiline: true },
    ],
  },
  s3: {
    label: 'Amazon S3',
    fields: [
      { name: 'bucket', label: 'Bucket', required: true },
      { name: 'bucket_region', label: 'Region', required: true, placeholder: 'us-east-1' },
      { name: 'key', label: 'Access key ID', required: true },
      { name: 'secret', label: 'Secret access key', secret: true, required: true },
    ],
  },
  ftp: {
    label: 'FTP server',
    fields: [
      { name: 'host', label: 'Host', required: true },
      { name: 'port', label: 'Port', placeholder: '21' },
      { name: 'user', label: 'User', required: true },
      { name: 'password', label: 'Password', secret: true, required: true },
    ],
  },
  http: {
    label: 'HTTP server',
    fields: [
      { name: 'url', label: 'Base URL', required: true, placeholder: 'https://files.example.com/' },
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
