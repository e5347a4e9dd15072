// Pure pieces of the Assembly records: dates, masking, expected counts, fields, list params, ranges.
import { describe, expect, it } from 'vitest';
import { parseRange } from '../http/serve-file';
import { maskSecrets, statusDate } from './assembly-state';
import { expectedUploads, mergeFields } from './create-assembly';
import { parseListQuery } from './list-assemblies';

describe('status record pieces', () => {
  it('formats dates as "YYYY/MM/DD HH:MM:SS GMT"', () => {
    expect(statusDate(Date.UTC(2023, 11, 20, 16, 36, 27))).toBe('2023/12/20 16:36:27 GMT');
    expect(statusDate(Date.UTC(2024, 0, 2, 3, 4, 5))).toBe('2024/01/02 03:04:05 GMT');
  });

  it('masks secrets in the raw params string and leaves every other byte alone', () => {
    const raw = '{"auth": {"key":"k","secret" : "s3\\"cr"},"steps":{"x":{"password":"p","robot":"/a"}}}';
    expect(maskSecrets(raw)).toBe('{"auth": {"key":"k","secret" : "****"},"steps":{"x":{"password":"****","robot":"/a"}}}');
  });
});

describe('create request fields', () => {
  it('reads either expected-upload spelling and rejects non-integers', () => {
    expect(expectedUploads({})).toBe(0);
    expect(expectedUploads({ num_expected_upload_files: '3' })).toBe(3);
    expect(expectedUploads({ tus_num_expected_upload_files: '2' })).toBe(2);
    for (const bad of ['-1', '1.5', 'two']) {
      expect(expectedUploads({ num_expected_upload_files: bad })).toMatchObject({ code: 'ASSEMBLY_INVALID_NUM_EXPECTED_UPLOAD_FILES_PARAM', httpCode: 400 });
    }
  });

  it('lets form fields override params.fields, without the protocol fields', () => {
    const merged = mergeFields({ fields: { a: 1, b: 'x' } }, { b: 'y', c: 'z', params: '{}', signature: 's', num_expected_upload_files: '1', tus_num_expected_upload_files: '1' });
    expect(merged).toEqual({ a: 1, b: 'y', c: 'z' });
  });
});

describe('list params', () => {
  it('applies defaults and validates', () => {
    expect(parseListQuery({})).toMatchObject({ page: 1, pagesize: 50, type: 'all', keywords: [] });
    expect(parseListQuery({ fromdate: '2024-01-02 03:04:05' })).toMatchObject({ fromMs: Date.UTC(2024, 0, 2, 3, 4, 5) });
    expect(parseListQuery({ pagesize: 5001 })).toMatch(/pagesize/);
    expect(parseListQuery({ type: 'weird' })).toMatch(/type must be/);
  });
});

describe('byte ranges', () => {
  it('parses single ranges and reports unsatisfiable ones', () => {
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-10', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=50-500', 100)).toEqual({ start: 50, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('unsatisfiable');
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
  });
});
