import { describe, expect, it } from 'vitest';
import { CREDENTIAL_NAME_HINT, credentialNameProblem, isCredentialName } from './credential-name';

describe('the Template credentials name rule', () => {
  it('accepts names the real service accepts: underscores, digits, dashes, capitals', () => {
    for (const name of ['prod_sftp', 'media-s3', 'YOUR_S3_CREDENTIALS', 'node-sdk-test-2025-01-02t03-04-05-678z', 'abcd', '1234']) {
      expect(credentialNameProblem(name), name).toBeNull();
      expect(isCredentialName(name)).toBe(true);
    }
  });

  it('says what is wrong with a name it refuses, and states the rule', () => {
    expect(credentialNameProblem('abc')).toBe(`Too short (3 of at least 4 characters). ${CREDENTIAL_NAME_HINT}`);
    expect(credentialNameProblem('')).toContain('Give a name');
    expect(credentialNameProblem('my sftp')).toMatch(/^Names cannot contain spaces\./);
    expect(credentialNameProblem('media.s3/backup')).toMatch(/^Names cannot contain "\.", "\/"\./);
    expect(credentialNameProblem('crédit')).toMatch(/"é"/);
    for (const name of ['abc', 'my sftp', 'a.b.c.d', 'über-sftp', 'x;y--']) expect(isCredentialName(name), name).toBe(false);
  });
});
