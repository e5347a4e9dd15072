// /upload/handle and the /file/* robots the app knows (service-facts §8 "Core robots"; the vendor's robot
// docs). Names, types and value sets only: what the local service does not run is its own rule
// (service/instructions/robot-params.ts).

import { bool, int, json, oneOf, text } from './param-kinds';
import type { RobotParams } from './robots-base';

export const FILE_ROBOTS: Readonly<Record<string, RobotParams>> = {
  '/upload/handle': {},
  '/file/filter': {
    // [left, operator, right] triples or a `${…}` expression; their operators have a code of their own (service).
    accepts: json(),
    declines: json(),
    condition_type: oneOf(['and', 'or']),
    error_on_decline: bool(),
    error_msg: text(),
  },
  '/file/hash': {
    algorithm: oneOf(['b2', 'md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512']),
    partial: oneOf(['full', 'first', 'last', 'both']),
    partial_size: int(0),
  },
  '/file/read': {},
  '/file/compress': {
    format: oneOf(['tar', 'zip']),
    gzip: bool(),
    password: text(),
    compression_level: int(-9, 0),
    file_layout: oneOf(['advanced', 'simple', 'relative-path']),
    archive_name: text(),
    path: text(),
  },
  '/file/serve': {
    cache_duration: int(0),
    headers: json(),
  },
};
