// The Upload view's "Options": request params beyond the steps (media-processing-api.md "Request params
// envelope": `notify_url`, `fields`, `auth.max_size`, `auth.max_number_of_files`, `auth.referer`) and the
// encoding stack version of the steps sent. Pure: the renderer checks each field with it as the user types
// and builds the instructions with it; core signs what it gets and never re-reads the form.

import type { Instructions } from '../../../../shared/api/instructions';
import { checkStackVersion } from '../../../../shared/api/stack-version';
import { EMPTY_UPLOAD_OPTIONS, type UploadOptions } from '../../../../shared/ipc/draft-choice';
import { notifyUrlProblem, withNotify } from '../../lib/notify-form';

export { EMPTY_UPLOAD_OPTIONS, type UploadOptions };

/** Robots whose steps take `ffmpeg_stack` (service-facts §8): the stack option sets it on these steps only. */
export const FFMPEG_STACK_ROBOTS = ['/video/encode', '/video/thumbs', '/audio/encode'] as const;

/** Form field names the request itself uses (service-facts §7): a custom field of that name would be lost. */
export const RESERVED_FIELD_NAMES = ['params', 'signature', 'num_expected_upload_files', 'tus_num_expected_upload_files', 'assemblyline_batch'] as const;

const MAX_FIELD_NAME = 200;
const MAX_REFERER = 2048;

const BYTE_UNITS: Readonly<Record<string, number>> = {
  b: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 1024,
  mib: 1024 ** 2,
  gib: 1024 ** 3,
  tib: 1024 ** 4,
};

/**
 * A byte count as a person types it: `1048576`, `500 MB`, `1.5GiB`, `20 kb`. KB/MB/GB are powers of 1000
 * (as the app shows sizes), KiB/MiB/GiB powers of 1024. Null when it is not one; rounded down to whole bytes.
 */
export function parseByteSize(text: string): number | null {
  const m = /^(\d+(?:\.\d+)?|\.\d+)\s*([a-z]*)$/i.exec(text.trim());
  if (!m) return null;
  const unit = m[2]!.toLowerCase() === '' ? 'b' : m[2]!.toLowerCase();
  const factor = BYTE_UNITS[unit];
  if (factor === undefined) return null;
  const bytes = Math.floor(Number(m[1]) * factor);
  return Number.isSafeInteger(bytes) ? bytes : null;
}

export type OptionField = 'notifyUrl' | 'maxSize' | 'maxNumberOfFiles' | 'referer' | 'fields' | 'stackVersion';

export interface OptionProblems {
  readonly notifyUrl?: string;
  readonly maxSize?: string;
  readonly maxNumberOfFiles?: string;
  readonly referer?: string;
  /** By row index: the problem of that row's key. */
  readonly fieldRows?: Readonly<Record<number, string>>;
  readonly stackVersion?: string;
}

function maxSizeProblem(text: string): string | null {
  if (text.trim() === '') return null;
  const bytes = parseByteSize(text);
  if (bytes === null) return 'Give a size such as 500 MB, 2 GiB or 1048576 (bytes).';
  if (bytes < 1) return 'max_size is at least 1 byte (0 would stop every Assembly with a file).';
  return null;
}

function maxFilesProblem(text: string): string | null {
  const t = text.trim();
  if (t === '') return null;
  // "-5" and "0" are whole numbers: say what is wrong with them (too small), not what they already are.
  const n = Number(t);
  if (/^[-+]?\d+$/.test(t) && Number.isSafeInteger(n) && n < 1) return `max_number_of_files is at least 1 (${t} would refuse every file).`;
  if (!/^\d+$/.test(t) || !Number.isSafeInteger(n)) return `max_number_of_files is a whole number of files, such as 100 (not "${t}").`;
  return null;
}

/** auth.referer is a regular expression (JavaScript syntax, as the service evaluates it). */
function refererProblem(text: string): string | null {
  if (text === '') return null;
  if (text.length > MAX_REFERER) return `A referer expression has at most ${MAX_REFERER} characters.`;
  try {
    new RegExp(text);
    return null;
  } catch (cause) {
    return `Not a valid regular expression: ${cause instanceof Error ? cause.message.replace(/^Invalid regular expression: /, '') : String(cause)}.`;
  }
}

function fieldKeyProblem(key: string, index: number, rows: UploadOptions['fields']): string | null {
  const k = key.trim();
  if (k === '') return rows[index]!.value === '' ? null : 'Give the field a name.';
  if (k.length > MAX_FIELD_NAME) return `A field name has at most ${MAX_FIELD_NAME} characters.`;
  if ([...k].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return 'A field name cannot hold control characters.';
  if ((RESERVED_FIELD_NAMES as readonly string[]).includes(k)) return `"${k}" is a name the request itself uses; choose another.`;
  if (rows.findIndex((r) => r.key.trim() === k) !== index) return `"${k}" is already a field above.`;
  return null;
}

function stackProblem(text: string): string | null {
  const t = text.trim();
  if (t === '') return null;
  const check = checkStackVersion('ffmpeg_stack', t);
  return check.ok ? null : check.problem;
}

/** Every field's problem (absent when fine). */
export function checkUploadOptions(options: UploadOptions): OptionProblems {
  const fieldRows: Record<number, string> = {};
  options.fields.forEach((row, i) => {
    const problem = fieldKeyProblem(row.key, i, options.fields);
    if (problem) fieldRows[i] = problem;
  });
  const entries: Array<[keyof OptionProblems, unknown]> = [
    ['notifyUrl', notifyUrlProblem(options.notifyUrl)],
    ['maxSize', maxSizeProblem(options.maxSize)],
    ['maxNumberOfFiles', maxFilesProblem(options.maxNumberOfFiles)],
    ['referer', refererProblem(options.referer)],
    ['fieldRows', Object.keys(fieldRows).length > 0 ? fieldRows : null],
    ['stackVersion', stackProblem(options.stackVersion)],
  ];
  return Object.fromEntries(entries.filter(([, v]) => v !== null)) as OptionProblems;
}

const LABELS: Readonly<Record<keyof OptionProblems, string>> = {
  notifyUrl: 'the notify URL',
  maxSize: 'the max size',
  maxNumberOfFiles: 'the max number of files',
  referer: 'the referer',
  fieldRows: 'the fields',
  stackVersion: 'the stack version',
};

/** Why Start waits ("Fix the max size in Options to start."), or null when every option is fine. */
export function optionsReason(problems: OptionProblems): string | null {
  const keys = Object.keys(problems) as Array<keyof OptionProblems>;
  if (keys.length === 0) return null;
  if (keys.length === 1 && keys[0] === 'notifyUrl') return 'Fix the notify URL to start.';
  const names = keys.map((k) => LABELS[k]);
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
  return `Fix ${list} in Options to start.`;
}

/** The limits the options set (null where none or not valid). */
export function optionLimits(options: UploadOptions): { maxSize: number | null; maxNumberOfFiles: number | null } {
  const size = maxSizeProblem(options.maxSize) === null && options.maxSize.trim() !== '' ? parseByteSize(options.maxSize) : null;
  const files = maxFilesProblem(options.maxNumberOfFiles) === null && options.maxNumberOfFiles.trim() !== '' ? Number(options.maxNumberOfFiles.trim()) : null;
  return { maxSize: size, maxNumberOfFiles: files };
}

/** The custom fields the options set (rows with a name), in row order. */
export function optionFields(options: UploadOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const row of options.fields) if (row.key.trim() !== '') out[row.key.trim()] = row.value;
  return out;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The instructions with the options in them: `notify_url` (+ `notification_payload`), `auth.max_size`,
 * `auth.max_number_of_files`, `auth.referer`, `fields` (a Template's own field inputs win on a shared
 * name) and `ffmpeg_stack` on the steps that take it (for a Template: on its steps that take it, given its
 * content). Options with a problem are left out (Start waits for them anyway).
 */
export function applyUploadOptions<T extends Instructions>(instructions: T, options: UploadOptions, templateContent?: unknown): T {
  const problems = checkUploadOptions(options);
  const out: Record<string, unknown> = withNotify({ ...instructions }, { url: options.notifyUrl, leaveOut: options.leaveOut });
  const limits = optionLimits(options);
  const auth: Record<string, unknown> = isRecord(instructions.auth) ? { ...instructions.auth } : {};
  if (limits.maxSize !== null) auth.max_size = limits.maxSize;
  if (limits.maxNumberOfFiles !== null) auth.max_number_of_files = limits.maxNumberOfFiles;
  if (options.referer !== '' && !problems.referer) auth.referer = options.referer;
  if (Object.keys(auth).length > 0) out.auth = auth;
  if (!problems.fieldRows) {
    const fields = { ...optionFields(options), ...(instructions.fields ?? {}) };
    if (Object.keys(fields).length > 0) out.fields = fields;
  }
  const stack = options.stackVersion.trim();
  if (stack !== '' && !problems.stackVersion && instructions.steps) {
    out.steps = Object.fromEntries(
      Object.entries(instructions.steps).map(([name, step]) => [name, takesStack(step.robot) ? { ...step, ffmpeg_stack: stack } : step]),
    );
  } else if (stack !== '' && !problems.stackVersion && instructions.template_id && templateContent !== undefined) {
    // A Template's steps: the service deep-merges request steps over them, so only the version is sent.
    const overrides = templateStackOverrides(templateContent, stack);
    if (overrides !== null && Object.keys(overrides).length > 0) out.steps = overrides;
  }
  return out as T;
}

const takesStack = (robot: unknown): boolean => typeof robot === 'string' && (FFMPEG_STACK_ROBOTS as readonly string[]).includes(robot);

/**
 * `{ step: { ffmpeg_stack } }` for each step of a Template's content that takes a stack version; null when
 * the Template refuses request steps (`allow_steps_override: false`: the service would refuse the Assembly).
 */
export function templateStackOverrides(content: unknown, stack: string): Record<string, { ffmpeg_stack: string }> | null {
  if (!isRecord(content)) return {};
  if (content.allow_steps_override === false) return null;
  const steps = isRecord(content.steps) ? content.steps : {};
  return Object.fromEntries(Object.entries(steps).filter(([, step]) => isRecord(step) && takesStack(step.robot)).map(([name]) => [name, { ffmpeg_stack: stack }]));
}

const formatSize = (bytes: number): string => {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${Number(value.toFixed(value < 10 ? 1 : 0))} ${units[unit]}`;
};

/** One line for the closed Options section: what is set ("Notify example.com · max 500 MB · 2 fields"), or "None set". */
export function optionsSummary(options: UploadOptions): string {
  const parts: string[] = [];
  const url = options.notifyUrl.trim();
  if (url !== '') {
    let host = url;
    try {
      host = new URL(url).host;
    } catch {
      // shown as typed
    }
    parts.push(`notify ${host}`);
  }
  const limits = optionLimits(options);
  if (options.maxSize.trim() !== '') parts.push(limits.maxSize !== null ? `max ${formatSize(limits.maxSize)}` : 'max size ?');
  if (options.maxNumberOfFiles.trim() !== '') parts.push(limits.maxNumberOfFiles !== null ? `max ${limits.maxNumberOfFiles.toLocaleString('en-US')} files` : 'max files ?');
  if (options.referer !== '') parts.push('referer');
  const named = options.fields.filter((r) => r.key.trim() !== '').length;
  if (named > 0) parts.push(`${named} field${named === 1 ? '' : 's'}`);
  if (options.stackVersion.trim() !== '') parts.push(`stack ${options.stackVersion.trim()}`);
  if (parts.length === 0) return 'None set';
  const text = parts.join(' · ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}
