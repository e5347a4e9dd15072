import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toNumeric } from '../instructions/byte-size';
import { executeSteps } from './execute-steps';
import { evaluateCondition, isAccepted } from './file-filter';
import type { StoredFile } from './file-record';
import { fileScope } from './execute-steps';
import { imageUpload, makeTempDir, textUpload } from './test-files';

let dir: string;
let cleanup: () => Promise<void>;
let photo: StoredFile;
let notes: StoredFile;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir());
  photo = await imageUpload(dir, 'photo.png', { width: 640, height: 480 }, 'images', { album: 'summer', tags: ['a', 'b'] });
  notes = await textUpload(dir, 'notes.txt', 'x'.repeat(3000), 'docs');
});
afterAll(() => cleanup());

const scopeOf = (file: StoredFile, fields: Record<string, unknown> = { kind: 'photo' }) =>
  fileScope({ assemblyId: 'c0ffee'.padEnd(32, '0'), fields }, file, ':original');
const cond = (file: StoredFile, left: unknown, op: string, right?: unknown) => evaluateCondition([left, op, right], scopeOf(file));

describe('byte sizes', () => {
  it('are 1024-based and accept the usual units', () => {
    expect(toNumeric('20mb')).toBe(20 * 1024 * 1024);
    expect(toNumeric('1kb')).toBe(1024);
    expect(toNumeric('1.5 KiB')).toBe(1536);
    expect(toNumeric('2GB')).toBe(2 * 1024 ** 3);
    expect(toNumeric('1tb')).toBe(1024 ** 4);
    expect(toNumeric('10b')).toBe(10);
    expect(toNumeric('720')).toBe(720);
    expect(toNumeric('mb')).toBeNull();
    expect(toNumeric('image/png')).toBeNull();
  });
});

describe('/file/filter operators', () => {
  it('= and == compare loosely, numbers as numbers', () => {
    expect(cond(photo, '${file.meta.width}', '==', '640')).toBe(true);
    expect(cond(photo, '${file.meta.width}', '=', 640)).toBe(true);
    expect(cond(photo, '${file.ext}', '==', 'png')).toBe(true);
    expect(cond(photo, '${file.ext}', '==', 'jpg')).toBe(false);
  });
  it('=== and !== compare type and value', () => {
    expect(cond(photo, '${file.meta.width}', '===', 640)).toBe(true);
    expect(cond(photo, '${file.meta.width}', '===', '640')).toBe(false);
    expect(cond(photo, '${file.meta.width}', '!==', '640')).toBe(true);
    expect(cond(photo, '${file.meta.width}', '!==', 640)).toBe(false);
  });
  it('!= is the loose inequality', () => {
    expect(cond(photo, '${file.mime}', '!=', 'image/png')).toBe(false);
    expect(cond(notes, '${file.mime}', '!=', 'image/png')).toBe(true);
  });
  it('< > <= >= compare numbers and byte sizes', () => {
    expect(cond(notes, '${file.size}', '<', '3kb')).toBe(true);
    expect(cond(notes, '${file.size}', '>', '2kb')).toBe(true);
    expect(cond(notes, '${file.size}', '<=', 3000)).toBe(true);
    expect(cond(notes, '${file.size}', '>=', '3001')).toBe(false);
    expect(cond(notes, '720', '>=', '${file.size}')).toBe(false);
    expect(cond(photo, '${file.meta.width}', '>', '${file.meta.height}')).toBe(true);
    expect(cond(photo, '${file.size}', '>', '20mb')).toBe(false);
  });
  it('regex is case-insensitive; !regex negates; /…/ literals work', () => {
    expect(cond(photo, '${file.mime}', 'regex', 'IMAGE')).toBe(true);
    expect(cond(photo, '${file.name}', 'regex', '^photo\\.(png|jpg)$')).toBe(true);
    expect(cond(notes, '${file.mime}', 'regex', 'image')).toBe(false);
    expect(cond(notes, '${file.mime}', '!regex', 'image')).toBe(true);
    expect(cond(photo, '${file.name}', 'regex', '/^PHOTO/')).toBe(true);
  });
  it('includes and !includes work on text and lists', () => {
    expect(cond(photo, '${file.name}', 'includes', 'oto')).toBe(true);
    expect(cond(photo, '${file.user_meta.tags}', 'includes', 'b')).toBe(true);
    expect(cond(photo, '${file.user_meta.tags}', 'includes', 'z')).toBe(false);
    expect(cond(photo, '${file.name}', '!includes', 'oto')).toBe(false);
  });
  it('empty and !empty test missing values', () => {
    expect(cond(notes, '${file.meta.width}', 'empty')).toBe(true);
    expect(cond(photo, '${file.meta.width}', 'empty')).toBe(false);
    expect(cond(photo, '${file.user_meta.album}', '!empty')).toBe(true);
    expect(cond(notes, '${file.user_meta.album}', '==', '')).toBe(true);
  });
  it('interpolates fields, assembly, basename, ext and unique_prefix; never the path on disk', () => {
    expect(cond(photo, '${fields.kind}', '==', 'photo')).toBe(true);
    expect(cond(photo, '${assembly.id}', 'regex', '^c0ffee')).toBe(true);
    expect(cond(photo, '${file.basename}.${file.ext}', '==', 'photo.png')).toBe(true);
    expect(cond(photo, '${file.field}', '==', 'images')).toBe(true);
    expect(cond(photo, '${unique_prefix}', 'regex', '^[0-9a-f]{2}/[0-9a-f]{30}$')).toBe(true);
    expect(cond(photo, '${file.localPath}', 'empty')).toBe(true);
  });
  it('an unknown operator throws at run time', () => {
    expect(() => cond(photo, 'a', '~=', 'b')).toThrow(/unknown operator/);
  });
});

describe('/file/filter accepts and declines', () => {
  const accepted = (file: StoredFile, params: Record<string, unknown>) => isAccepted(params, scopeOf(file));
  const isImage = ['${file.mime}', 'regex', 'image'];
  const small = ['${file.size}', '<', '1kb'];
  it('accepts: null (or absent) accepts all; [] accepts none', () => {
    expect(accepted(notes, { accepts: null })).toBe(true);
    expect(accepted(notes, {})).toBe(true);
    expect(accepted(photo, { accepts: [] })).toBe(false);
  });
  it('condition_type or (default) and and', () => {
    expect(accepted(notes, { accepts: [isImage, ['${file.ext}', '==', 'txt']] })).toBe(true);
    expect(accepted(notes, { accepts: [isImage, ['${file.ext}', '==', 'txt']], condition_type: 'and' })).toBe(false);
    expect(accepted(photo, { accepts: [isImage, ['${file.ext}', '==', 'png']], condition_type: 'and' })).toBe(true);
  });
  it('a plain ${path} string accepts by truthiness', () => {
    const alpha = { accepts: '${file.meta.has_alpha}' };
    expect(accepted(photo, alpha)).toBe(false);
    expect(accepted(photo, { accepts: '${file.meta.width}' })).toBe(true);
    expect(accepted(notes, { accepts: '${file.meta.width}' })).toBe(false);
  });
  it('declines apply after accepts', () => {
    expect(accepted(photo, { accepts: [isImage], declines: [['${file.meta.width}', '>', 600]] })).toBe(false);
    expect(accepted(photo, { accepts: [isImage], declines: [['${file.meta.width}', '>', 1000]] })).toBe(true);
    expect(accepted(notes, { declines: [small] })).toBe(true);
  });
});

describe('/file/filter in a pipeline', () => {
  const run = (filter: Record<string, unknown>) => {
    const results: [string, StoredFile][] = [];
    return executeSteps({
      assemblyId: 'b'.repeat(32),
      steps: { images: { robot: '/file/filter', use: ':original', ...filter } },
      uploads: [photo, notes],
      fields: {},
      workDir: join(dir, `w-${Math.random().toString(16).slice(2)}`),
      signal: new AbortController().signal,
      onResult: (s, f) => results.push([s, f]),
    }).then((outcome) => ({ outcome, results }));
  };
  it('passes accepted files through unchanged and drops the others', async () => {
    const { outcome, results } = await run({ accepts: [['${file.mime}', 'regex', 'image']] });
    expect(outcome).toEqual({ ok: true });
    expect(results).toEqual([['images', photo]]);
  });
  it('error_on_decline fails with FILE_FILTER_DECLINED_FILE and error_msg', async () => {
    const { outcome } = await run({ accepts: [['${file.mime}', 'regex', 'image']], error_on_decline: true, error_msg: 'Images only, please' });
    // It names the file it failed on.
    expect(outcome).toEqual({ ok: false, code: 'FILE_FILTER_DECLINED_FILE', message: 'Images only, please', step: 'images', original_id: notes.original_id, name: notes.original_name });
    const { outcome: byDefault } = await run({ accepts: [], error_on_decline: true });
    expect(byDefault).toMatchObject({ code: 'FILE_FILTER_DECLINED_FILE', message: 'One of your files was declined' });
  });
  it('refuses a JavaScript condition before running', async () => {
    const { outcome, results } = await run({ accepts: '${file.size > 5}' });
    expect(outcome).toMatchObject({ ok: false, code: 'FILE_FILTER_VALIDATION', step: 'images' });
    expect(results).toEqual([]);
  });
});
