import { credentialTypeLabel } from '../../../shared/api/credential-types';
import type { CredentialTestReport } from '../../../shared/ipc/template-models';
import { testFtpCredential, testHttpCredential, testS3Endpoint } from './endpoint-test';
import { check, report } from './report';
import { testSftpCredential } from './sftp-test';

const S3_LIKE = new Set(['s3', 'minio', 'wasabi', 'tigris', 'supabase', 'swift', 'digitalocean', 'cloudflare', 'backblaze']);

export interface CredentialTestOptions {
  path?: string;
  timeoutMs?: number;
}

/**
 * "Test credential", run in core with the full content (secrets never leave core). SFTP is tested
 * end to end; HTTP is tried with its login; FTP and S3-like stores get what can be tested from here;
 * the rest say so rather than pretend.
 */
export async function testCredentialContent(type: string, content: Record<string, unknown>, options: CredentialTestOptions = {}): Promise<CredentialTestReport> {
  if (type === 'sftp') return testSftpCredential(content, options);
  if (type === 'http') return testHttpCredential(content, options.timeoutMs);
  if (type === 'ftp') return testFtpCredential(content, options.timeoutMs);
  if (S3_LIKE.has(type) && (type === 's3' || content.host !== undefined || content.endpoint !== undefined)) return testS3Endpoint(type, content, options.timeoutMs);
  const label = credentialTypeLabel(type);
  return report(
    label,
    [check('support', 'skipped', `${label} credentials cannot be tested from here: the app has no client for ${label}. The service checks them when a step uses them; run a small Assembly to try them.`)],
    false,
  );
}
