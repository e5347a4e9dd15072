// The parameters every robot takes (service-facts §8 "Fields common to every robot"), and the shapes a
// family shares. A robot's own list adds to these.

import { anyOf, bool, json, list, oneOf, text, type ParamKind } from './param-kinds';

export type RobotParams = Readonly<Record<string, ParamKind>>;

/** Every robot: `robot` and `use` are checked by the step rules (shared/api/step-rules.ts), so any value passes here. */
export const BASE_PARAMS: RobotParams = {
  robot: json(),
  use: json(),
  result: oneOf([true, false, 'true', 'false', 'debug'], { expects: 'true, false or "debug"' }),
  output_meta: json(),
  user_meta: json(),
  queue: oneOf(['batch']),
  force_accept: oneOf([true, false, 'true', 'false'], { expects: 'true or false' }),
  ignore_errors: { ...anyOf(oneOf([true, false]), list(oneOf(['meta', 'execute', 'import']))), expects: 'true, false or a list of "meta", "execute", "import"' },
  interpolate: json(),
};

/** Robots that bring files in (the import robots): they may name the files they create. */
export const IMPORT_PARAMS: RobotParams = {
  force_name: anyOf(text(), list(text())),
  import_on_errors: list(oneOf(['meta'])),
  // The vendor's file stubs; the local service always imports the bytes (its own rule refuses `true`).
  return_file_stubs: bool(),
};

/** ImageMagick robots: the stack version (`v3` by default). */
export const IMAGEMAGICK_PARAMS: RobotParams = { imagemagick_stack: text() };

/**
 * FFmpeg robots: the stack version (its values are checked by shared/api/stack-version.ts with a message of
 * its own) and `ffmpeg`, a free-form passthrough merged over the preset.
 */
export const FFMPEG_PARAMS: RobotParams = { ffmpeg_stack: json(), ffmpeg: json() };

export const POSITIONS = ['bottom', 'bottom-left', 'bottom-right', 'center', 'left', 'right', 'top', 'top-left', 'top-right'] as const;
export const RESIZE_STRATEGIES = ['crop', 'fillcrop', 'fit', 'min_fit', 'pad', 'stretch'] as const;
