import { describe, expect, it } from 'vitest';
import { fileDetailGroups, formatDateValue, formatValue, missingThumbhashReason, parseServiceDate } from './file-details';

describe('parseServiceDate', () => {
  it('reads the service\'s GMT dates and ISO dates with a zone as instants', () => {
    expect(parseServiceDate('2024/06/01 10:00:00 GMT')?.toISOString()).toBe('2024-06-01T10:00:00.000Z');
    expect(parseServiceDate('2024-06-01T12:00:00+02:00')?.toISOString()).toBe('2024-06-01T10:00:00.000Z');
  });
  it('gives null for a date without a zone (there is no instant to convert) and for non-dates', () => {
    expect(parseServiceDate('2024/06/01 12:00:00')).toBeNull();
    expect(parseServiceDate('soon')).toBeNull();
  });
});

describe('formatDateValue', () => {
  it('shows a zoned date in the user\'s time zone with the UTC value on hover', () => {
    expect(formatDateValue('2024/06/01 10:00:00 GMT', 'Europe/Berlin')).toEqual({ text: '1 Jun 2024, 12:00:00', title: '2024-06-01 10:00:00 UTC' });
    expect(formatDateValue('2024/06/01 10:00:00 GMT', 'Asia/Tokyo').text).toBe('1 Jun 2024, 19:00:00');
  });
  it('keeps a date without a zone as the file says it, and says null is no date', () => {
    expect(formatDateValue('2024/06/01 12:00:00', 'Asia/Tokyo')).toEqual({ text: '2024/06/01 12:00:00', title: 'No time zone recorded: as the file says' });
    expect(formatDateValue(null).text).toBe('—');
    expect(formatDateValue(1717236000).text).toBe('1717236000');
  });
});

describe('formatValue', () => {
  it('formats booleans, nulls, lists and objects on one line', () => {
    expect(formatValue(true)).toBe('Yes');
    expect(formatValue(null)).toBe('—');
    expect(formatValue(['sea', 'sun'])).toBe('sea, sun');
    expect(formatValue({ video: [], audio: [{ codec: 'aac' }] })).toBe('{"video":[],"audio":[{"codec":"aac"}]}');
    expect(formatValue('')).toBe('""');
  });
});

describe('fileDetailGroups', () => {
  const photo = {
    id: 'abc', name: 'zoned.jpg', size: 2048, mime: 'image/jpeg', type: 'image', md5hash: 'm'.repeat(32), sha256: 's'.repeat(64), thumbhash: 'YJqGPQw7sFlslqhFafSE+Q6oJ1h2iHB2Rw',
    queue_time: 0, exec_time: 0.042, cost: null, is_temp_url: false,
    meta: {
      width: 120, height: 80, iso: 400, device_vendor: 'Canon', latitude: -33.8, date_recorded: '2024/06/01 10:00:00 GMT', date_file_modified: null,
      duration: 4.2, page_count: 2, mystery_key: 'kept',
    },
  };
  it('puts every field and meta key in its group, unknown keys in Other', () => {
    const groups = fileDetailGroups(photo, 'UTC');
    const names = groups.map((g) => g.name);
    expect(names).toEqual(['File', 'Image', 'Camera', 'Location', 'Audio/Video', 'Document', 'Dates', 'Hashes', 'Other']);
    const keysOf = (name: string) => groups.find((g) => g.name === name)!.rows.map((r) => r.key);
    expect(keysOf('File')).toEqual(['id', 'name', 'size', 'mime', 'type', 'queue_time', 'exec_time', 'cost', 'is_temp_url']);
    expect(keysOf('Hashes')).toEqual(['md5hash', 'sha256', 'thumbhash']);
    expect(keysOf('Other')).toEqual(['mystery_key']);
    const all = groups.flatMap((g) => g.rows.map((r) => r.key));
    expect(all).toHaveLength(Object.keys(photo).length - 1 + Object.keys(photo.meta).length);
  });
  it('formats sizes, seconds and dates (null dates stay visible)', () => {
    const rows = fileDetailGroups(photo, 'Europe/Berlin').flatMap((g) => g.rows);
    const row = (key: string) => rows.find((r) => r.key === key)!;
    expect(row('size').text).toBe('2.0 KB (2,048 bytes)');
    expect(row('exec_time').text).toBe('0.042 s');
    expect(row('date_recorded')).toMatchObject({ text: '1 Jun 2024, 12:00:00', title: '2024-06-01 10:00:00 UTC' });
    expect(row('date_file_modified').text).toBe('—');
  });
  it('says why a big image has no thumbhash', () => {
    const big = { name: 'huge.png', type: 'image', mime: 'image/png', meta: { width: 8000, height: 5700 } };
    const hashes = fileDetailGroups(big).find((g) => g.name === 'Hashes')!;
    expect(hashes.rows).toEqual([{ key: 'thumbhash', source: 'record', text: 'none: 45.6 MP is over the 40 MP limit' }]);
    expect(missingThumbhashReason({ meta: { width: 100, height: 100 } })).toBeNull();
  });
});
