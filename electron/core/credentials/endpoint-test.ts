import { credentialTypeLabel } from '../../../shared/api/credential-types';
import type { CredentialCheck, CredentialTestReport } from '../../../shared/ipc/template-models';
import { check, describeNetworkError, report, skipped } from './report';
import { readBanner } from './tcp-banner';

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/**
 * HTTP import credentials: one GET of the base URL with the user and headers given. Any answer
 * reaches; 401/403 is a refused login; the app never writes there (/http/import only reads).
 */
export async function testHttpCredential(content: Record<string, unknown>, timeoutMs = 10_000, doFetch: typeof fetch = fetch): Promise<CredentialTestReport> {
  const url = str(content.url);
  let parsed: URL;
  try {
    parsed = new URL(url);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('scheme');
  } catch {
    return report(url || 'HTTP server', [check('settings', 'fail', `The base URL "${url}" is not an http(s) address.`, 'TEMPLATE_CREDENTIALS_INVALID'), ...skipped(['reach', 'authenticate', 'read'], 'the settings are incomplete')]);
  }
  const headers: Record<string, string> = {};
  if (str(content.headers)) {
    try {
      Object.assign(headers, JSON.parse(str(content.headers)) as Record<string, string>);
    } catch {
      return report(parsed.origin, [check('settings', 'fail', 'Extra headers are not valid JSON: write them as {"Name": "value"}.', 'TEMPLATE_CREDENTIALS_INVALID')]);
    }
  }
  const user = str(content.username);
  if (user) headers.authorization = `Basic ${Buffer.from(`${user}:${str(content.password)}`).toString('base64')}`;
  const checks: CredentialCheck[] = [];
  let status: number;
  try {
    const res = await doFetch(parsed, { headers, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    status = res.status;
    checks.push(check('reach', 'ok', `${parsed.origin} answered (HTTP ${status}).`));
  } catch (e) {
    const { message, code } = describeNetworkError(e, parsed.host, timeoutMs);
    return report(parsed.origin, [check('reach', 'fail', `Cannot reach the server: ${message}`, code), ...skipped(['authenticate', 'read'], 'the server was not reached')]);
  }
  if (status === 401 || status === 403) {
    checks.push(check('authenticate', 'fail', `The server refused the request (HTTP ${status}): ${user ? 'check the user and password' : 'it wants a login: give a user and password, or an Authorization header'}.`, `HTTP_${status}`));
    return report(parsed.origin, [...checks, ...skipped(['read'], 'the login was refused')]);
  }
  checks.push(check('authenticate', 'ok', user || Object.keys(headers).length ? 'The server accepted the login.' : 'The server asked for no login.'));
  checks.push(
    status < 400
      ? check('read', 'ok', `${parsed.pathname} answered HTTP ${status}.`)
      : check('read', 'warn', `${parsed.pathname} answered HTTP ${status}: imports will name files below it, which may still exist.`, `HTTP_${status}`),
  );
  return report(parsed.href, checks);
}

/** FTP: the port is reached and greets as an FTP server (220). The login is not tried: FTP sends it in clear. */
export async function testFtpCredential(content: Record<string, unknown>, timeoutMs = 10_000): Promise<CredentialTestReport> {
  const host = str(content.host);
  const port = content.port === undefined || str(content.port) === '' ? 21 : Number(content.port);
  if (!host || !Number.isInteger(port) || port < 1 || port > 65535) {
    return report('FTP server', [check('settings', 'fail', host ? `port must be 1 to 65535 (got ${str(content.port)}).` : 'Give the "host" of the FTP server.', 'TEMPLATE_CREDENTIALS_INVALID')]);
  }
  const where = `${host}:${port}`;
  try {
    const banner = await readBanner(host, port, timeoutMs);
    // What the server said is never repeated (security/probe-words.ts): only whether it greets as FTP.
    if (!banner.startsWith('220')) {
      return report(where, [check('reach', 'fail', `${where} ${banner ? 'answered, but not with an FTP greeting' : 'sent no FTP greeting'}: check the port (FTP is usually 21).`, 'FTP_NOT_FTP')]);
    }
    return report(where, [
      check('reach', 'ok', `${where} answered as an FTP server.`),
      check('authenticate', 'skipped', 'Not tested from this app: the login, folder and writing are checked when a step uses these credentials.'),
    ]);
  } catch (e) {
    const { message, code } = describeNetworkError(e, where, timeoutMs);
    return report(where, [check('reach', 'fail', `Cannot reach the server: ${message}`, code)]);
  }
}

/** S3 and S3-compatible stores: the endpoint is reached over HTTPS; signing S3 requests is not built in. */
export async function testS3Endpoint(type: string, content: Record<string, unknown>, timeoutMs = 10_000, doFetch: typeof fetch = fetch): Promise<CredentialTestReport> {
  const host = str(content.host) || str(content.endpoint);
  const region = str(content.bucket_region);
  const base = host ? (/^https?:\/\//.test(host) ? host : `https://${host}`) : type === 's3' ? `https://s3.${region || 'us-east-1'}.amazonaws.com` : '';
  const label = credentialTypeLabel(type);
  if (!base) return report(label, [check('settings', 'fail', `Give the endpoint "host" of the ${label} store.`, 'TEMPLATE_CREDENTIALS_INVALID')]);
  const login = check('authenticate', 'skipped', `The access key is not tested from this app (it would need S3 request signing): it is checked when a step uses these credentials.`);
  let origin = base;
  try {
    origin = new URL(base).origin;
    const res = await doFetch(origin, { redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return report(origin, [check('reach', 'ok', `${origin} answered (HTTP ${res.status}).`), login]);
  } catch (e) {
    const { message, code } = describeNetworkError(e, origin, timeoutMs);
    return report(origin, [check('reach', 'fail', `Cannot reach the endpoint: ${message}`, code), login]);
  }
}
