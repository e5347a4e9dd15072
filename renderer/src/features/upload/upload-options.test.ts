import { describe, expect, it } from 'vitest';
import { applyUploadOptions, checkUploadOptions, EMPTY_UPLOAD_OPTIONS, optionsReason, optionsSummary, parseByteSize, templateStackOverrides, type UploadOptions } from './upload-options';

const opts = (change: Partial<UploadOptions>): UploadOptions => ({ ...EMPTY_UPLOAD_OPTIONS, ...change });

describe('parseByteSize', () => {
  it('reads bytes, decimal and binary units as people type them', () => {
    expect(parseByteSize('1048576')).toBe(1_048_576);
    expect(parseByteSize('500 MB')).toBe(500_000_000);
    expect(parseByteSize('500mb')).toBe(500_000_000);
    expect(parseByteSize('1.5 GiB')).toBe(1.5 * 1024 ** 3);
    expect(parseByteSize(' 20 KiB ')).toBe(20_480);
    expect(parseByteSize('2.5 b')).toBe(2);
  });
  it('refuses what is not a size', () => {
    for (const bad of ['', 'lots', '-5 MB', '5 MBs', '1e9', '5 XB', '99999999999 TB']) expect(parseByteSize(bad)).toBeNull();
  });
});

describe('checkUploadOptions', () => {
  it('finds nothing wrong with empty options', () => {
    expect(checkUploadOptions(EMPTY_UPLOAD_OPTIONS)).toEqual({});
    expect(optionsReason({})).toBeNull();
  });
  it('names each bad field with its own message', () => {
    const problems = checkUploadOptions(
      opts({ notifyUrl: 'ftp://x', maxSize: '0', maxNumberOfFiles: '2.5', referer: '(', stackVersion: 'banana', fields: [{ key: '', value: 'x' }, { key: 'a', value: '' }, { key: 'a', value: '' }] }),
    );
    expect(problems.notifyUrl).toBe('A notify URL starts with http:// or https://.');
    expect(problems.maxSize).toMatch(/at least 1 byte/);
    expect(problems.maxNumberOfFiles).toBe('max_number_of_files is a whole number of files, such as 100 (not "2.5").');
    expect(problems.referer).toMatch(/^Not a valid regular expression/);
    expect(problems.stackVersion).toMatch(/^ffmpeg_stack "banana" is not a stack version/);
    expect(problems.fieldRows).toEqual({ 0: 'Give the field a name.', 2: '"a" is already a field above.' });
    expect(optionsReason(problems)).toBe('Fix the notify URL, the max size, the max number of files, the referer, the fields and the stack version in Options to start.');
    expect(checkUploadOptions(opts({ maxNumberOfFiles: '0' })).maxNumberOfFiles).toBe('max_number_of_files is at least 1 (0 would refuse every file).');
    // -5 is a whole number: what is wrong is that it is below 1.
    expect(checkUploadOptions(opts({ maxNumberOfFiles: '-5' })).maxNumberOfFiles).toBe('max_number_of_files is at least 1 (-5 would refuse every file).');
    expect(checkUploadOptions(opts({ maxNumberOfFiles: 'abc' })).maxNumberOfFiles).toBe('max_number_of_files is a whole number of files, such as 100 (not "abc").');
    expect(checkUploadOptions(opts({ fields: [{ key: 'assemblyline_batch', value: 'x' }] })).fieldRows?.[0]).toMatch(/request itself uses/);
  });
  it('accepts every stack version the spec lists', () => {
    for (const v of ['v6', 'v7', 'v8', 'v6.0.0', 'v5.1', '7.1']) expect(checkUploadOptions(opts({ stackVersion: v })).stackVersion).toBeUndefined();
  });
  it('keeps the notify URL reason Start has always given', () => {
    expect(optionsReason(checkUploadOptions(opts({ notifyUrl: 'nope' })))).toBe('Fix the notify URL to start.');
  });
});

describe('applyUploadOptions', () => {
  const steps = { ':original': { robot: '/upload/handle' }, mp4: { robot: '/video/encode', use: ':original' }, thumbs: { robot: '/image/resize', use: ':original' } };

  it('puts limits and referer in auth, fields, notify and the stack version into the params', () => {
    const out = applyUploadOptions(
      { steps },
      opts({ notifyUrl: ' https://example.com/hook ', leaveOut: ['without_results'], maxSize: '500 MB', maxNumberOfFiles: '10', referer: '^https://a\\.b/', fields: [{ key: 'album', value: 'Trip' }], stackVersion: 'v7' }),
    );
    expect(out).toEqual({
      steps: { ':original': { robot: '/upload/handle' }, mp4: { robot: '/video/encode', use: ':original', ffmpeg_stack: 'v7' }, thumbs: { robot: '/image/resize', use: ':original' } },
      notify_url: 'https://example.com/hook',
      notification_payload: ['without_results'],
      auth: { max_size: 500_000_000, max_number_of_files: 10, referer: '^https://a\\.b/' },
      fields: { album: 'Trip' },
    });
  });
  it('leaves the instructions as they are with no options, and lets a Template’s field inputs win', () => {
    expect(applyUploadOptions({ steps }, EMPTY_UPLOAD_OPTIONS)).toEqual({ steps });
    const out = applyUploadOptions({ template_id: 't1', fields: { album: 'from template' } }, opts({ fields: [{ key: 'album', value: 'x' }, { key: 'year', value: '2026' }] }));
    expect(out).toEqual({ template_id: 't1', fields: { album: 'from template', year: '2026' } });
  });
  it('sets the stack version on a Template’s steps that take it, unless the Template refuses request steps', () => {
    const content = { steps: { ':original': { robot: '/upload/handle' }, mp4: { robot: '/video/encode' }, thumbs: { robot: '/video/thumbs' } } };
    expect(applyUploadOptions({ template_id: 't1' }, opts({ stackVersion: 'v8' }), content)).toEqual({ template_id: 't1', steps: { mp4: { ffmpeg_stack: 'v8' }, thumbs: { ffmpeg_stack: 'v8' } } });
    expect(applyUploadOptions({ template_id: 't1' }, opts({ stackVersion: 'v8' }), { ...content, allow_steps_override: false })).toEqual({ template_id: 't1' });
    expect(templateStackOverrides({ ...content, allow_steps_override: false }, 'v8')).toBeNull();
  });

  it('leaves out an option with a problem', () => {
    expect(applyUploadOptions({ steps }, opts({ maxSize: 'lots', referer: '(' }))).toEqual({ steps });
  });
});

describe('optionsSummary', () => {
  it('says what is set in one line', () => {
    expect(optionsSummary(EMPTY_UPLOAD_OPTIONS)).toBe('None set');
    expect(optionsSummary(opts({ notifyUrl: 'http://127.0.0.1:9/hook', maxSize: '1.5 GB', fields: [{ key: 'a', value: '' }, { key: '', value: '' }] }))).toBe('Notify 127.0.0.1:9 · max 1.5 GB · 1 field');
  });
});
