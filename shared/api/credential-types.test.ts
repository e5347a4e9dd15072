import { describe, expect, it } from 'vitest';
import { CREDENTIAL_TYPES, credentialTypeLabel, groupedCredentialTypes } from './credential-types';

describe('credential type labels', () => {
  it('gives every type a human label that is not its raw code', () => {
    for (const type of CREDENTIAL_TYPES) {
      const label = credentialTypeLabel(type);
      expect(label, type).not.toBe(type);
      expect(label.length, type).toBeGreaterThan(2);
    }
    expect(credentialTypeLabel('s3')).toBe('Amazon S3');
    expect(credentialTypeLabel('sftp')).toBe('SFTP server');
    expect(credentialTypeLabel('google')).toBe('Google Cloud Storage');
  });

  it('keeps an unknown code (a newer service) as itself', () => {
    expect(credentialTypeLabel('floppy')).toBe('floppy');
  });

  it('groups every type exactly once, servers first, each group sorted by label', () => {
    const groups = groupedCredentialTypes();
    expect(groups[0]).toEqual({ group: 'Servers', types: [{ type: 'ftp', label: 'FTP server' }, { type: 'http', label: 'HTTP server' }, { type: 'sftp', label: 'SFTP server' }] });
    const all = groups.flatMap((g) => g.types.map((t) => t.type));
    expect([...all].sort()).toEqual([...CREDENTIAL_TYPES].sort());
    for (const g of groups) {
      const labels = g.types.map((t) => t.label);
      expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'en')));
    }
  });
});
