// Robots that send files out or bring them in: /sftp/store (the vendor's, plus the local service's
// password and private_key), /transloadit/store and /transloadit/import (the local service's own stored
// assets, docs/local-service.md).

import { anyOf, int, list, oneOf, text } from './param-kinds';
import { IMPORT_PARAMS, type RobotParams } from './robots-base';

const names = anyOf(text(), list(text()));

export const STORE_ROBOTS: Readonly<Record<string, RobotParams>> = {
  '/sftp/store': {
    credentials: text(),
    host: text(),
    port: int(1, 65535),
    user: text(),
    public_key: text(),
    // The local service signs in with a password or a private key when no Template credentials are named.
    password: text(),
    private_key: text(),
    path: text(),
    url_template: text(),
    ssl_url_template: text(),
    file_chmod: text(),
  },
  '/transloadit/store': {
    path: text(),
    conflict_strategy: oneOf(['error', 'rename', 'overwrite']),
  },
  '/transloadit/import': {
    ...IMPORT_PARAMS,
    asset_ids: names,
    paths: names,
    version_ids: list(text()),
    version_id: text(),
  },
};
