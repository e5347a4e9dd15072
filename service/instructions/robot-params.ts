// Parameter validation per robot, giving `<ROBOT>_VALIDATION` codes: first the robot's own list of names,
// types and value sets (shared/api/robot-params/, the one the app's editors check with), then what this
// service adds (what it does not run, ranges it cannot do, deeper checks of a value).
// Values still holding `${…}` are checked again after interpolation, when the file is known.

import { checkRobotParams } from '../../shared/api/robot-params/check-robot-params';
import { stackVersionProblem } from '../../shared/api/stack-version';
import { toNumeric } from './byte-size';
import { JS_EXPRESSION_MESSAGE, findUnsupportedInParams } from './interpolation';
import { robotCodePrefix } from './known-robots';
import { INSTRUCTION_LIMITS } from './instruction-limits';
import { documentParamProblem } from './document-params';
import { mediaParamProblem } from './media-params';

export interface ParamError {
  code: string;
  message: string;
  /** The parameter at fault, so an editor can mark its line. */
  parameter?: string;
}

/** The parameter a check's message is about: the first word of it that is a key of the step ("width must…"). */
const parameterIn = (problem: string, params: Params): { parameter?: string } => {
  for (const word of problem.match(/[a-z_][a-z0-9_]*/gi) ?? []) if (Object.prototype.hasOwnProperty.call(params, word)) return { parameter: word };
  return {};
};

type Params = Record<string, unknown>;
/** Returns a message describing what is wrong, or null. */
type Check = (p: Params, final: boolean) => string | null;

export const RESIZE_STRATEGIES = ['crop', 'fillcrop', 'fit', 'min_fit', 'pad', 'stretch'] as const;
export const IMAGE_FORMATS = ['jpg', 'jpeg', 'png', 'webp', 'gif', 'tiff', 'avif'] as const;
export const GRAVITIES = ['center', 'top', 'bottom', 'left', 'right', 'top-left', 'top-right', 'bottom-left', 'bottom-right'] as const;
export const FILTER_OPERATORS = ['=', '==', '===', '<', '>', '<=', '>=', '!=', '!==', 'regex', '!regex', 'includes', '!includes', 'empty', '!empty'] as const;
export const HASH_ALGORITHMS = ['b2', 'md5', 'sha1', 'sha224', 'sha256', 'sha384', 'sha512'] as const;
export const AUDIO_PRESETS = ['mp3', 'aac', 'ogg', 'opus', 'flac', 'wav'] as const;
/** Presets /video/encode runs; `_` and `-` are interchangeable. Kept here (pure) for the editor. */
export const VIDEO_ENCODE_PRESETS = [
  'ipad-high', 'ipad', 'iphone-high', 'iphone', 'android-high', 'android', 'hevc', 'webm', 'gif',
  'web/mp4/240p', 'web/mp4/360p', 'web/mp4/480p', 'web/mp4/540p', 'web/mp4/720p', 'web/mp4/1080p',
] as const;

/** A value still holding `${…}` is checked after interpolation (`final`), when the file is known. */
const deferred = (final: boolean, v: unknown): boolean => !final && typeof v === 'string' && v.includes('${');
const show = (v: unknown): string => JSON.stringify(v) ?? String(v);

/** Integers, also given as strings ("300"); null when absent, NaN when malformed. */
export function parseIntParam(v: unknown): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v === 'number') return Number.isInteger(v) ? v : Number.NaN;
  if (typeof v === 'string' && /^\s*[-+]?\d+\s*$/.test(v)) return Number(v);
  return Number.NaN;
}

const intIn = (key: string, min: number, max: number): Check => (p, final) => {
  if (deferred(final, p[key])) return null;
  const n = parseIntParam(p[key]);
  if (n === null) return null;
  return Number.isNaN(n) || n < min || n > max ? `${key} must be a whole number from ${min} to ${max} (got ${show(p[key])})` : null;
};

const oneOf = (key: string, values: readonly (string | number)[]): Check => (p, final) => {
  const v = p[key];
  if (v === undefined || v === null || deferred(final, v)) return null;
  return values.includes(v as string) ? null : `${key} must be one of ${values.join(', ')} (got ${show(v)})`;
};

const bool = (key: string): Check => (p) =>
  p[key] === undefined || typeof p[key] === 'boolean' ? null : `${key} must be true or false (got ${show(p[key])})`;

const str = (key: string): Check => (p) =>
  p[key] === undefined || typeof p[key] === 'string' ? null : `${key} must be a string (got ${show(p[key])})`;

const COLOR = /^(#?([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})|none|transparent|[a-z]+)$/i;
const color = (key: string): Check => (p, final) => {
  const v = p[key];
  if (v === undefined || deferred(final, v)) return null;
  return typeof v === 'string' && COLOR.test(v.trim()) ? null : `${key} must be a color such as "#FFFFFF" (got ${show(v)})`;
};

/** `crop` as {x1,y1,x2,y2} or its JSON string; numbers in pixels. */
export function parseCrop(v: unknown): { x1: number; y1: number; x2: number; y2: number } | null | string {
  if (v === undefined || v === null) return null;
  let obj = v;
  if (typeof v === 'string') {
    try {
      obj = JSON.parse(v);
    } catch {
      return 'crop must be an object {x1, y1, x2, y2} or its JSON text';
    }
  }
  if (typeof obj !== 'object' || obj === null) return 'crop must be an object {x1, y1, x2, y2}';
  const o = obj as Record<string, unknown>;
  const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((k) => toNumeric(o[k]));
  if ([x1, y1, x2, y2].some((n) => n === null || n! < 0)) return 'crop needs non-negative numbers x1, y1, x2 and y2';
  if (x2! <= x1! || y2! <= y1!) return 'crop needs x2 > x1 and y2 > y1';
  return { x1: x1!, y1: y1!, x2: x2!, y2: y2! };
}

const cropCheck: Check = (p) => {
  const c = parseCrop(p.crop);
  return typeof c === 'string' ? c : null;
};

const conditionsCheck = (key: 'accepts' | 'declines'): Check => (p) => {
  const v = p[key];
  if (v === undefined || v === null) return null;
  if (typeof v === 'string') {
    // Only a plain `${path}` (truthiness) can run locally; other strings are JS expressions.
    return /^\$\{\s*[A-Za-z_$][\w$.-]*\s*\}$/.test(v.trim()) ? null : `${key}: ${JS_EXPRESSION_MESSAGE}`;
  }
  if (!Array.isArray(v)) return `${key} must be null or an array of [left, operator, right] conditions`;
  for (const [i, c] of v.entries()) {
    if (!Array.isArray(c) || c.length < 2 || c.length > 3) return `${key}[${i}] must be an array [left, operator, right]`;
    const [, op, right] = c as unknown[];
    if (typeof op === 'string' && (op === 'regex' || op === '!regex') && typeof right === 'string' && !right.includes('${')) {
      try {
        regexFromFilter(right);
      } catch {
        return `${key}[${i}] has an invalid regular expression ${show(right)}`;
      }
    }
  }
  return null;
};

/** `"image"` or `"/^image\//i"` as a case-insensitive RegExp (the service's RE2 is case-insensitive). */
export function regexFromFilter(source: string): RegExp {
  const m = /^\/(.*)\/([a-z]*)$/s.exec(source);
  return m ? new RegExp(m[1]!, m[2]!.includes('i') ? m[2] : `${m[2]}i`) : new RegExp(source, 'i');
}

/** Operators are checked apart from the rest: they have their own code. */
export function findInvalidOperator(p: Params): string | null {
  for (const key of ['accepts', 'declines'] as const) {
    const v = p[key];
    if (!Array.isArray(v)) continue;
    for (const [i, c] of v.entries()) {
      if (!Array.isArray(c) || c.length < 2) continue;
      const op = c[1];
      if (typeof op !== 'string' || !(FILTER_OPERATORS as readonly string[]).includes(op)) {
        return `${key}[${i}] uses the unknown operator ${show(op)}; use one of ${FILTER_OPERATORS.join(' ')}`;
      }
    }
  }
  return null;
}

const offsetsCheck: Check = (p) => {
  const v = p.offsets;
  if (v === undefined) return null;
  if (!Array.isArray(v)) return 'offsets must be an array of seconds or "NN%" strings';
  const ok = v.every((o) => (typeof o === 'number' && o >= 0) || (typeof o === 'string' && /^(\d+(\.\d+)?)%?$/.test(o.trim())));
  return ok ? null : `offsets must be an array of seconds or "NN%" strings (got ${show(v)})`;
};

const noFfmpeg: Check = (p) =>
  p.ffmpeg === undefined ? null : 'the ffmpeg passthrough is not supported by the local service; use the documented parameters';

const positiveInt = (key: string): Check => intIn(key, 1, Number.MAX_SAFE_INTEGER);

/** A string or a list of strings. */
const names = (key: string): Check => (p) => {
  const v = p[key];
  if (v === undefined || typeof v === 'string' || (Array.isArray(v) && v.every((x) => typeof x === 'string'))) return null;
  return `${key} must be a string or a list of strings (got ${show(v)})`;
};

const importSource: Check = (p) => {
  const count = (v: unknown): number => (typeof v === 'string' && v !== '' ? 1 : Array.isArray(v) ? v.length : 0);
  if (count(p.asset_ids) + count(p.paths) === 0) return 'asset_ids or paths must name at least one stored asset';
  if (p.version_ids !== undefined && (!Array.isArray(p.version_ids) || p.version_ids.length > count(p.asset_ids))) {
    return 'version_ids must be a list beside asset_ids (one version id per asset id, "" for the current version)';
  }
  return null;
};

// Storage and import robots (service/robots/storage/): names and types are the shared catalog's; what
// follows is the local service's own — what must be there, and what it does not do.
const required = (key: string, what: string): Check => (p) => (p[key] === undefined || p[key] === null || p[key] === '' ? `${key} is required: ${what}` : null);

/** `return_file_stubs`: the local service always imports the bytes. */
const noStubs: Check = (p) => (p.return_file_stubs === undefined || p.return_file_stubs === false || p.return_file_stubs === 'false' ? null : 'return_file_stubs is not supported by the local service (it always imports the files)');

const rangeCheck: Check = (p) => {
  const v = p.range;
  if (v === undefined || v === null) return null;
  const ok = (r: unknown) => typeof r === 'string' && /^\s*(\d+-\d*|-\d+)\s*$/.test(r);
  return (typeof v === 'string' && ok(v)) || (Array.isArray(v) && v.length > 0 && v.every(ok)) ? null : `range must be like "0-99" or a list of such ranges (got ${show(v)})`;
};

const headerShape = (key: string): Check => (p) => {
  const v = p[key];
  if (v === undefined || v === null) return null;
  return typeof v === 'object' && !Array.isArray(v) && Object.values(v as object).every((x) => typeof x === 'string' || typeof x === 'number')
    ? null
    : `${key} must be an object of names to text values (got ${show(v)})`;
};

const S3_FAMILY_CHECKS: Record<string, Check[]> = Object.fromEntries(
  ['s3', 'minio', 'wasabi', 'digitalocean', 'backblaze', 'cloudflare', 'tigris'].flatMap((p) => [
    [`/${p}/store`, [headerShape('headers'), headerShape('tags')]],
    [`/${p}/import`, [required('path', 'an object, a folder ending in "/", or "/" for the bucket root'), rangeCheck, noStubs]],
  ]),
);

const ROBOT_CHECKS: Record<string, Check[]> = {
  '/upload/handle': [],
  '/transloadit/store': [str('path'), oneOf('conflict_strategy', ['error', 'rename', 'overwrite'])],
  '/transloadit/import': [names('asset_ids'), names('paths'), names('version_ids'), str('version_id'), importSource],
  ...S3_FAMILY_CHECKS,
  '/http/import': [required('url', 'an http(s) URL, a list of them, or several joined by url_delimiter'), rangeCheck, noStubs],
  '/ftp/import': [
    required('path', 'a file, or a folder ending in "/"'),
    (p) => (p.passive_mode === false || p.passive_mode === 'false' ? 'passive_mode false (active FTP) is not supported by the local service' : null),
    noStubs,
  ],
  '/sftp/import': [required('path', 'a file, or a folder ending in "/"'), noStubs],
  '/file/filter': [
    conditionsCheck('accepts'),
    conditionsCheck('declines'),
    oneOf('condition_type', ['or', 'and']),
    bool('error_on_decline'),
    str('error_msg'),
  ],
  '/image/resize': [
    intIn('width', 1, 25000),
    intIn('height', 1, 25000),
    oneOf('resize_strategy', RESIZE_STRATEGIES),
    bool('zoom'),
    oneOf('format', IMAGE_FORMATS),
    intIn('quality', 1, 100),
    color('background'),
    oneOf('gravity', GRAVITIES),
    bool('strip'),
    bool('progressive'),
    cropCheck,
    (p, final) => {
      // Both sides given: the output's size is known now (one side: when the input's size is, robots/image-resize.ts).
      const { width: w, height: h } = p;
      if (typeof w !== 'number' || typeof h !== 'number' || deferred(final, w) || deferred(final, h) || w * h <= INSTRUCTION_LIMITS.outputPixels) return null;
      return `width × height is ${w} × ${h} = ${Math.round((w * h) / 1e6)} megapixels; an image may have at most ${INSTRUCTION_LIMITS.outputPixels / 1e6} megapixels`;
    },
    (p, final) => {
      const r = p.rotation;
      if (r === undefined || typeof r === 'boolean' || r === 'auto' || deferred(final, r)) return null;
      return typeof r === 'number' && r % 90 === 0 ? null : `rotation must be true, false, "auto" or a multiple of 90 (got ${show(r)})`;
    },
  ],
  '/image/optimize': [
    oneOf('priority', ['compression-ratio', 'conversion-speed']),
    bool('progressive'),
    bool('preserve_meta_data'),
    bool('fix_breaking_images'),
    bool('lossy'),
  ],
  '/file/hash': [oneOf('algorithm', HASH_ALGORITHMS), oneOf('partial', ['full', 'first', 'last', 'both']), positiveInt('partial_size')],
  '/video/thumbs': [
    offsetsCheck,
    oneOf('format', ['jpeg', 'jpg', 'png']),
    intIn('width', 1, 1920),
    intIn('height', 1, 1080),
    oneOf('resize_strategy', RESIZE_STRATEGIES),
    color('background'),
    oneOf('rotate', [0, 90, 180, 270, 360]),
    noFfmpeg,
  ],
  '/video/encode': [
    (p, final) => {
      const v = p.preset;
      if (v === undefined || v === null || deferred(final, v)) return null;
      return typeof v === 'string' && (VIDEO_ENCODE_PRESETS as readonly string[]).includes(v.replace(/_/g, '-'))
        ? null
        : `preset ${show(v)} is not available locally; use one of ${VIDEO_ENCODE_PRESETS.join(', ')}`;
    },
    intIn('width', 1, 7680),
    intIn('height', 1, 4320),
    oneOf('resize_strategy', RESIZE_STRATEGIES),
    bool('zoom'),
    color('background'),
    noFfmpeg,
  ],
  '/audio/waveform': [
    oneOf('format', ['image', 'json']),
    intIn('width', 1, 10000),
    intIn('height', 1, 10000),
    (p) => (p.style === undefined || p.style === 'v0' ? null : `style ${show(p.style)} is not supported locally; only "v0" is`),
    color('background_color'),
    color('outer_color'),
    color('center_color'),
  ],
  '/file/read': [],
  // A year at most; `headers` would let a Template set any response header, which the local CDN does not do.
  '/file/serve': [intIn('cache_duration', 0, 31_536_000), (p) => (p.headers === undefined || p.headers === null ? null : 'headers are not supported by the local service (it sends its own Content-Type, Cache-Control and ETag)')],
  '/file/compress': [
    oneOf('format', ['tar', 'zip']),
    bool('gzip'),
    intIn('compression_level', -9, 0),
    oneOf('file_layout', ['advanced', 'simple', 'relative-path']),
    str('archive_name'),
    (p) => (p.password === undefined || p.password === null ? null : 'password-protected zips are not supported by the local service'),
    // An older schema's per-file path in the archive (service-facts §8); the vendor's current one has none.
    (p) => (p.path === undefined || p.path === null ? null : 'path (a per-file path in the archive) is not supported by the local service; choose file_layout "simple", "advanced" or "relative-path"'),
  ],
  '/file/decompress': [],
  // Verifying is all this service does: a broken PDF is declined, never rewritten.
  '/file/verify': [str('verify_to_be'), bool('error_on_decline'), str('error_msg'), (p) => (p.repair_pdf === true ? 'repair_pdf is not supported by the local service (it declines a broken PDF; it does not repair one)' : null)],
  '/file/preview': [previewStrategyCheck],
  '/meta/write': [
    (p, final) => {
      const v = p.data_to_write;
      if (v === undefined || v === null) return 'data_to_write is required: an object of ExifTool tag names to values, such as {"Copyright": "© Me"}';
      if (deferred(final, v)) return null;
      return typeof v === 'object' && !Array.isArray(v) ? null : `data_to_write must be an object of ExifTool tag names to values (got ${show(v)})`;
    },
    noFfmpeg,
  ],
  // The provider is the operator's model server here: any name the vendor takes is accepted and not used.
  '/image/describe': [oneOf('granularity', ['full', 'list']), oneOf('format', ['json', 'meta', 'text']), bool('explicit_descriptions')],
  '/speech/transcribe': [
    oneOf('granularity', ['full', 'list']),
    oneOf('format', ['json', 'meta', 'srt', 'text', 'webvtt']),
    str('source_language'),
    str('target_language'),
    (p) => {
      const lang = (v: unknown) => (typeof v === 'string' ? v.split('-')[0]!.toLowerCase() : null);
      const [from, to] = [lang(p.source_language) ?? 'en', lang(p.target_language)];
      return to === null || to === from ? null : `target_language ${show(p.target_language)} differs from source_language: the local service transcribes, it does not translate`;
    },
  ],
  '/text/translate': [
    (p) => (p.target_language === undefined || p.target_language === null || (typeof p.target_language === 'string' && /^[a-z]{2,3}(-[a-z0-9]{2,4})?$/i.test(p.target_language)) ? null : `target_language must be a language code such as "de" or "fr-CA" (got ${show(p.target_language)})`),
    (p) => (p.source_language === undefined || p.source_language === null || (typeof p.source_language === 'string' && /^[a-z]{2,3}(-[a-z0-9]{2,4})?$/i.test(p.source_language)) ? null : `source_language must be a language code such as "en" or "es-MX" (got ${show(p.source_language)})`),
  ],
  '/image/generate': [
    (p) => (typeof p.prompt === 'string' && p.prompt.trim() !== '' ? null : 'prompt is required: the text describing the image to make'),
    (p) => (p.format === 'svg' ? 'format "svg" is not made by the local service (a model server gives pixels); choose png, jpg or webp' : null),
    (p) => (p.format === 'gif' ? 'format "gif" is not made by the local service; choose png, jpg or webp' : null),
    intIn('width', 64, 4096),
    intIn('height', 64, 4096),
    // Inpainting (an image and a mask through use) needs an edits request the local service does not send.
    (p) => (p.use === undefined || p.use === null ? null : 'use is not taken by the local service\'s /image/generate: it makes images from prompt alone (no inpainting); remove use'),
  ],
  '/audio/encode': [oneOf('preset', AUDIO_PRESETS), positiveInt('bitrate'), intIn('sample_rate', 1000, 384000), noFfmpeg],
  // mcp_servers are checked by the shared step rules (shared/api/mcp-servers.ts), each rule with its own code.
  '/ai/chat': [messagesCheck, str('system_message'), str('model'), oneOf('format', ['json', 'text']), oneOf('return_messages', ['last', 'all']), schemaCheck],
};

/** `strategy`: per file category, a list of the strategies the vendor names for it (robots/file-preview.ts). */
const PREVIEW_STRATEGIES: Record<string, readonly string[]> = {
  audio: ['artwork', 'waveform', 'icon'],
  video: ['artwork', 'frame', 'clip', 'icon'],
  document: ['page', 'icon'],
  image: ['image', 'icon'],
  webpage: ['render', 'icon'],
  archive: ['icon'],
  unknown: ['icon'],
};
function previewStrategyCheck(p: Params, final: boolean): string | null {
  const v = p.strategy;
  if (v === undefined || v === null || deferred(final, v)) return null;
  if (typeof v !== 'object' || Array.isArray(v)) return `strategy must be an object of file categories to lists of strategies (got ${show(v)})`;
  for (const [category, list] of Object.entries(v as Record<string, unknown>)) {
    const known = PREVIEW_STRATEGIES[category];
    if (!known) return `strategy has the category "${category}"; the categories are ${Object.keys(PREVIEW_STRATEGIES).join(', ')}`;
    if (!Array.isArray(list)) return `strategy.${category} must be a list of strategies (got ${show(list)})`;
    const bad = list.find((s) => typeof s !== 'string' || !known.includes(s));
    if (bad !== undefined) return `strategy.${category} has ${show(bad)}; for ${category} files the strategies are ${known.join(', ')}`;
  }
  return null;
}

/** `messages`: the prompt, or a history of {role, content} turns (service-facts §8, /ai/chat). */
function messagesCheck(p: Params, final: boolean): string | null {
  const v = p.messages;
  if (v === undefined || v === null || v === '') return 'messages is required: the prompt, or a list of {"role", "content"} messages';
  if (typeof v === 'string' || deferred(final, v)) return null;
  if (!Array.isArray(v)) return `messages must be a string or a list of {"role", "content"} messages (got ${show(v)})`;
  for (const [i, m] of v.entries()) {
    const role = (m as { role?: unknown } | null)?.role;
    const content = (m as { content?: unknown } | null)?.content;
    if (!['system', 'user', 'assistant'].includes(role as string)) return `messages[${i}].role must be "system", "user" or "assistant" (got ${show(role)})`;
    if (typeof content !== 'string' && !Array.isArray(content)) return `messages[${i}].content must be a string or a list of parts (got ${show(content)})`;
  }
  return null;
}

/** `schema` is a string holding a JSON Schema object (the real robot's rule), not an inline object. */
function schemaCheck(p: Params, final: boolean): string | null {
  const v = p.schema;
  if (v === undefined || v === null || deferred(final, v)) return null;
  if (typeof v !== 'string') return `schema must be a string containing a JSON Schema, not an inline ${Array.isArray(v) ? 'list' : typeof v}`;
  try {
    const parsed = JSON.parse(v) as unknown;
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? null : 'schema must hold a JSON Schema object';
  } catch {
    return 'schema must be valid JSON (a JSON Schema as a string)';
  }
}

const commonChecks: Check[] = [
  // Before interpolation the shared step rules checked it; a `${…}` stack version is checked once it is known.
  (p, final) => (final ? (stackVersionProblem(p)?.problem ?? null) : null),
  (p) => (p.result === undefined || typeof p.result === 'boolean' || p.result === 'debug' ? null : `result must be true or false (got ${show(p.result)})`),
  (p) => {
    const v = p.ignore_errors;
    if (v === undefined || typeof v === 'boolean') return null;
    return Array.isArray(v) && v.every((e) => ['meta', 'execute', 'import'].includes(e as string))
      ? null
      : `ignore_errors must be true, false or a list of "meta", "execute", "import" (got ${show(v)})`;
  },
];

/**
 * Validates one step's parameters for its robot. `stepName` goes into the message so the user
 * knows where to look. A name the robot does not take is refused, as the real service refuses it.
 * Pass `interpolated: true` for parameters already interpolated: nothing is deferred any more.
 */
export function validateRobotParams(stepName: string, robot: string, params: Params, options: { interpolated?: boolean } = {}): ParamError | null {
  const final = options.interpolated === true;
  const prefix = robotCodePrefix(robot);
  const where = `Step "${stepName}" (${robot})`;
  const [listed] = checkRobotParams(stepName, robot, params, { interpolated: final });
  if (listed) return { code: listed.code, message: listed.message, parameter: listed.parameter };
  if (robot === '/video/thumbs' && params.count !== undefined && !deferred(final, params.count)) {
    const n = parseIntParam(params.count);
    if (n === null || Number.isNaN(n) || n < 1 || n > 999) {
      return { code: 'VIDEO_THUMBS_INVALID_COUNT_VALUE', message: `${where}: count must be a whole number from 1 to 999 (got ${show(params.count)}).`, parameter: 'count' };
    }
  }
  if (robot === '/file/filter') {
    const bad = findInvalidOperator(params);
    if (bad) return { code: 'FILE_FILTER_INVALID_OPERATOR', message: `${where}: ${bad}.`, ...parameterIn(bad, params) };
  }
  for (const check of [...commonChecks, ...(ROBOT_CHECKS[robot] ?? [])]) {
    const problem = check(params, final);
    if (problem) return { code: `${prefix}_VALIDATION`, message: `${where}: ${problem}.`, ...parameterIn(problem, params) };
  }
  const media = mediaParamProblem(robot, params, final) ?? documentParamProblem(robot, params, final);
  if (media) {
    // A rule's message starts with the parameter it is about, present or missing ("segments is required").
    const about = media.code ? {} : /^[a-z_]+/.exec(media.problem)?.[0];
    return { code: media.code ?? `${prefix}_VALIDATION`, message: `${where}: ${media.problem}.`, ...(typeof about === 'string' ? { parameter: about } : {}) };
  }
  // After interpolation, "${" can only come from user data (a field value), which is not an expression.
  if (final) return null;
  const js = findUnsupportedInParams(params);
  if (js) return { code: `${prefix}_VALIDATION`, message: `${where}: ${js.key} holds ${js.expression}. ${JS_EXPRESSION_MESSAGE}.`, ...parameterIn(js.key, params) };
  return null;
}
