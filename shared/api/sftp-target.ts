/** Where and how to log in to an SFTP server, from sftp credentials content or a step's inline params. */
export interface SftpTarget {
  host: string;
  port: number;
  user: string;
  password?: string;
  privateKey?: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/**
 * The same reading for /sftp/store (service) and "Test credential" (core), so a credential that tests
 * well is one the robot can use. A string is the problem, in words for the user. Pure.
 */
export function sftpTargetFromContent(source: Record<string, unknown>): SftpTarget | string {
  const host = str(source.host);
  const user = str(source.user);
  if (!host || !user) return 'give "host" and "user"';
  const port = source.port === undefined || source.port === '' ? 22 : Number(source.port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return `port must be 1 to 65535 (got ${String(source.port)})`;
  const password = str(source.password);
  const privateKey = str(source.private_key);
  if (!password && !privateKey) return 'give a "password" or a "private_key" for the SFTP user';
  return { host, port, user, ...(password ? { password } : {}), ...(privateKey ? { privateKey } : {}) };
}
