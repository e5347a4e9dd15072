/**
 * `type` values of Template credentials (service-facts.md §7 "Template credentials"), each with the
 * name users know it by and a group, so the picker never shows a bare code.
 */
export const CREDENTIAL_TYPES = [
  'ai', 'azure', 'backblaze', 'cloudflare', 'companion', 'digitalocean', 'dropbox', 'ftp', 'google', 'http', 'mega', 'minio',
  'rackspace', 's3', 'sftp', 'supabase', 'swift', 'tigris', 'vimeo', 'wasabi', 'youtube',
] as const;
export type CredentialType = (typeof CREDENTIAL_TYPES)[number];

export const CREDENTIAL_TYPE_GROUPS = ['Servers', 'Cloud storage', 'Apps and platforms', 'Other services'] as const;
export type CredentialTypeGroup = (typeof CREDENTIAL_TYPE_GROUPS)[number];

export const CREDENTIAL_TYPE_INFO: Readonly<Record<CredentialType, { readonly label: string; readonly group: CredentialTypeGroup }>> = {
  sftp: { label: 'SFTP server', group: 'Servers' },
  ftp: { label: 'FTP server', group: 'Servers' },
  http: { label: 'HTTP server', group: 'Servers' },
  s3: { label: 'Amazon S3', group: 'Cloud storage' },
  azure: { label: 'Azure Blob Storage', group: 'Cloud storage' },
  backblaze: { label: 'Backblaze B2', group: 'Cloud storage' },
  cloudflare: { label: 'Cloudflare R2', group: 'Cloud storage' },
  digitalocean: { label: 'DigitalOcean Spaces', group: 'Cloud storage' },
  google: { label: 'Google Cloud Storage', group: 'Cloud storage' },
  minio: { label: 'MinIO', group: 'Cloud storage' },
  rackspace: { label: 'Rackspace Cloud Files', group: 'Cloud storage' },
  supabase: { label: 'Supabase Storage', group: 'Cloud storage' },
  swift: { label: 'OpenStack Swift', group: 'Cloud storage' },
  tigris: { label: 'Tigris', group: 'Cloud storage' },
  wasabi: { label: 'Wasabi', group: 'Cloud storage' },
  dropbox: { label: 'Dropbox', group: 'Apps and platforms' },
  mega: { label: 'MEGA', group: 'Apps and platforms' },
  vimeo: { label: 'Vimeo', group: 'Apps and platforms' },
  youtube: { label: 'YouTube', group: 'Apps and platforms' },
  ai: { label: 'AI provider', group: 'Other services' },
  companion: { label: 'Uppy Companion', group: 'Other services' },
};

const isKnown = (type: string): type is CredentialType => Object.hasOwn(CREDENTIAL_TYPE_INFO, type);

/** The human label; an unknown code (a newer service) is shown as itself rather than dropped. */
export const credentialTypeLabel = (type: string): string => (isKnown(type) ? CREDENTIAL_TYPE_INFO[type].label : type);

/** The picker's groups in a fixed order, each sorted by label. Pure. */
export function groupedCredentialTypes(): { group: CredentialTypeGroup; types: { type: CredentialType; label: string }[] }[] {
  return CREDENTIAL_TYPE_GROUPS.map((group) => ({
    group,
    types: CREDENTIAL_TYPES.filter((t) => CREDENTIAL_TYPE_INFO[t].group === group)
      .map((type) => ({ type, label: CREDENTIAL_TYPE_INFO[type].label }))
      .sort((a, b) => a.label.localeCompare(b.label, 'en')),
  }));
}
