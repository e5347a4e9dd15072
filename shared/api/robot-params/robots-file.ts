// /upload/handle and the /file/* robots the app knows (service-facts §8 "Core robots"; the vendor's robot
// docs). Names, types and value sets only: what the local service does not run is its own rule
// (service/instructions/robot-params.ts).

import { anyOf, bool, color, int, json, list, num, oneOf, text } from './param-kinds';
import { FFMPEG_PARAMS, RESIZE_STRATEGIES, type RobotParams } from './robots-base';

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
  '/file/decompress': {
    password: text(),
    ignore_errors: anyOf(bool(), list(text())),
    turbo: bool(),
  },
  '/file/verify': {
    verify_to_be: text(),
    error_on_decline: bool(),
    error_msg: text(),
    repair_pdf: bool(),
  },
  '/file/preview': {
    format: oneOf(['gif', 'jpg', 'png']),
    width: int(1, 5000),
    height: int(1, 5000),
    resize_strategy: oneOf(RESIZE_STRATEGIES),
    background: color(),
    strategy: json(),
    artwork_outer_color: color(),
    artwork_center_color: color(),
    waveform_center_color: color(),
    waveform_outer_color: color(),
    waveform_height: int(1, 5000),
    waveform_width: int(1, 5000),
    icon_style: oneOf(['square', 'with-text']),
    icon_text_color: color(),
    icon_text_font: text(),
    icon_text_content: oneOf(['extension', 'none']),
    optimize: bool(),
    optimize_priority: oneOf(['compression-ratio', 'conversion-speed']),
    optimize_progressive: bool(),
    clip_format: oneOf(['apng', 'avif', 'gif', 'webp']),
    clip_offset: num(0),
    clip_duration: num(0),
    clip_framerate: int(1, 60),
    clip_loop: bool(),
  },
  '/meta/write': {
    data_to_write: json(),
    ...FFMPEG_PARAMS,
  },
};
