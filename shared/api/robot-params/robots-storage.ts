// The storage and import robots of the vendor the local service runs (service/robots/storage/): the S3
// family (/s3, /minio, /wasabi, /digitalocean, /backblaze, /cloudflare, /tigris × store, import), FTP,
// /sftp/import and /http/import, every parameter of the vendor's robot schemas. The local service also
// takes `host` and `no_vhost` on every S3-family robot (an endpoint must be named where the vendor finds it
// itself) — listed so a step that names one is not flagged.

import { anyOf, bool, int, json, list, oneOf, text } from './param-kinds';
import { IMPORT_PARAMS, type RobotParams } from './robots-base';

const paths = anyOf(text(), list(text()));
const ranges = anyOf(text(), list(text()));
const headerRecord = json();

/** What every S3-family robot connects with (its own names per provider) and the endpoint the local service needs. */
const S3_CONNECTIONS: Readonly<Record<string, RobotParams>> = {
  s3: { credentials: text(), bucket: text(), bucket_region: text(), key: text(), secret: text(), session_token: text() },
  minio: { credentials: text(), bucket: text(), key: text(), secret: text() },
  wasabi: { credentials: text(), bucket: text(), bucket_region: text(), key: text(), secret: text() },
  digitalocean: { credentials: text(), space: text(), region: text(), key: text(), secret: text() },
  backblaze: { credentials: text(), bucket: text(), app_key_id: text(), app_key: text(), bucket_region: text() },
  cloudflare: { credentials: text(), bucket: text(), key: text(), secret: text() },
  tigris: { credentials: text(), bucket: text(), bucket_region: text(), key: text(), secret: text() },
};

const S3_STORE: RobotParams = {
  path: text(),
  url_prefix: text(),
  acl: oneOf(['bucket-default', 'private', 'public', 'public-read']),
  check_integrity: bool(),
  headers: headerRecord,
  tags: headerRecord,
  host: text(),
  no_vhost: bool(),
  sign_urls_for: int(1, 604_800),
};

const S3_IMPORT: RobotParams = {
  ...IMPORT_PARAMS,
  path: paths,
  recursive: bool(),
  page_number: int(1),
  files_per_page: int(1),
  start_file_name: text(),
  range: ranges,
  host: text(),
  no_vhost: bool(),
};

const FTP_CONNECTION: RobotParams = { credentials: text(), host: text(), port: int(1, 65535), user: text(), password: text() };
const SFTP_CONNECTION: RobotParams = { credentials: text(), host: text(), port: int(1, 65535), user: text(), public_key: text(), password: text(), private_key: text() };

export const STORAGE_ROBOTS: Readonly<Record<string, RobotParams>> = {
  ...Object.fromEntries(
    Object.entries(S3_CONNECTIONS).flatMap(([provider, connection]) => [
      [`/${provider}/store`, { ...connection, ...S3_STORE }],
      [`/${provider}/import`, { ...connection, ...S3_IMPORT }],
    ]),
  ),
  '/http/import': {
    ...IMPORT_PARAMS,
    url: paths,
    url_delimiter: text(),
    // "Name: value" lines, {name: value} objects, or one string.
    headers: json(),
    fail_fast: bool(),
    max_file_size: int(1),
    range: ranges,
  },
  '/ftp/store': { ...FTP_CONNECTION, path: text(), url_template: text(), ssl_url_template: text(), secure: bool() },
  '/ftp/import': { ...IMPORT_PARAMS, ...FTP_CONNECTION, path: text(), passive_mode: bool(), secure: bool() },
  '/sftp/import': { ...IMPORT_PARAMS, ...SFTP_CONNECTION, path: text(), recursive: bool() },
};
