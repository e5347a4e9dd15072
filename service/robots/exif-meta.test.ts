import { describe, expect, it } from 'vitest';
import { metaFromExifTags, numberOf } from './exif-meta';
import { normalizeDateString, normalizeDateValue } from './meta-dates';

describe('date keys', () => {
  it('converts a zoned date to UTC and marks it GMT', () => {
    expect(normalizeDateString('2024:06:01 12:00:00+02:00')).toBe('2024/06/01 10:00:00 GMT');
    expect(normalizeDateString('2024-06-01T00:30:00-01:00')).toBe('2024/06/01 01:30:00 GMT');
    expect(normalizeDateString('2024-01-01T00:30:00.000000Z')).toBe('2024/01/01 00:30:00 GMT');
    // Crossing a month and a year.
    expect(normalizeDateString('2025:01:01 01:00:00+05:30')).toBe('2024/12/31 19:30:00 GMT');
  });
  it('keeps a date without a zone as it is, in the spec format', () => {
    expect(normalizeDateString('2024:06:01 12:00:00')).toBe('2024/06/01 12:00:00');
    expect(normalizeDateString('2024:06:01')).toBe('2024/06/01 00:00:00');
  });
  it('gives null for what is not a date', () => {
    expect(normalizeDateString('0000:00:00 00:00:00')).toBeNull();
    expect(normalizeDateString('yesterday')).toBeNull();
    expect(normalizeDateString('2024:13:01 12:00:00')).toBeNull();
    expect(normalizeDateValue('garbage')).toBeNull();
  });
  it('reads ExifTool date objects: a zone the file states is converted, a guessed one is not', () => {
    const parts = { year: 2024, month: 6, day: 1, hour: 12, minute: 0, second: 0, tzoffsetMinutes: 120 };
    expect(normalizeDateValue({ ...parts, inferredZone: false })).toBe('2024/06/01 10:00:00 GMT');
    expect(normalizeDateValue({ ...parts, inferredZone: true })).toBe('2024/06/01 12:00:00');
    expect(normalizeDateValue({ rawValue: 'not a date' })).toBeNull();
  });
  it('keeps numbers and repeated-tag lists, and leaves out a missing value', () => {
    expect(normalizeDateValue(1717236000)).toBe(1717236000);
    expect(normalizeDateValue(['2024:06:01', '2024:06:02'])).toEqual(['2024:06:01', '2024:06:02']);
    expect(normalizeDateValue(undefined)).toBeUndefined();
    expect(normalizeDateValue('')).toBeUndefined();
  });
});

describe('metaFromExifTags', () => {
  it('maps camera, exposure and location tags to the spec keys', () => {
    const meta = metaFromExifTags({
      Make: 'Canon', Model: 'EOS R5', Software: 'Firmware 1.8', ISO: 200, Aperture: 2.8, FNumber: 2.8, ExposureTime: '1/250',
      FocalLength: '50.0 mm', Flash: 'Off, Did not fire', LightValue: 9.9, GPSLatitude: 48.8584, GPSLongitude: -2.2945,
      GPSAltitude: '35 m', GPSAltitudeRef: 'Below Sea Level', Orientation: 6, Keywords: ['sea', 'sun'], Creator: ['Ada', 'Bob'],
    });
    expect(meta).toMatchObject({
      device_vendor: 'Canon', device_name: 'EOS R5', device_software: 'Firmware 1.8', iso: 200, aperture: 2.8, f_number: 2.8,
      exposure_time: '1/250', focal_length: '50.0 mm', flash: 'Off, Did not fire', light_value: 9.9, latitude: 48.8584,
      longitude: -2.2945, altitude: -35, orientation: 6, keywords: ['sea', 'sun'], creator: ['Ada', 'Bob'],
    });
  });
  it('maps document tags (page_count, producer, author) and keeps a bad date key as null', () => {
    const meta = metaFromExifTags({ PageCount: 3, Producer: 'LibreOffice', Author: 'Ada', Title: 'Report', CreateDate: 'not a date' });
    expect(meta).toMatchObject({ page_count: 3, producer: 'LibreOffice', author: 'Ada', title: 'Report', create_date: null, date_recorded: null });
    expect(meta).toHaveProperty('create_date', null);
  });
  it('prefers DateTimeOriginal for date_recorded and reports the stored file dates', () => {
    const utc = { year: 2026, month: 1, day: 2, hour: 3, minute: 4, second: 5, tzoffsetMinutes: 0, inferredZone: false };
    const meta = metaFromExifTags({
      DateTimeOriginal: { year: 2024, month: 6, day: 1, hour: 12, minute: 0, second: 0, tzoffsetMinutes: 120, inferredZone: false },
      ModifyDate: '2024:07:01 08:00:00', FileModifyDate: utc, FileInodeChangeDate: utc,
    });
    expect(meta).toMatchObject({
      date_recorded: '2024/06/01 10:00:00 GMT', modify_date: '2024/07/01 08:00:00',
      date_file_modified: '2026/01/02 03:04:05 GMT', date_file_created: '2026/01/02 03:04:05 GMT',
    });
  });
  it('leaves out keys with no tag', () => {
    expect(metaFromExifTags({ FileType: 'PNG' })).toEqual({});
  });
  it('numberOf reads numbers, fractions and numbers with units', () => {
    expect(numberOf('1/250')).toBe(0.004);
    expect(numberOf('50.0 mm')).toBe(50);
    expect(numberOf('n/a')).toBeNull();
    expect(numberOf(Number.NaN)).toBeNull();
  });
});
