// ExifTool's tags (as exiftool-vendored returns them) → the service's meta keys (spec "File metadata").
// Pure: the reading happens in exiftool.ts.

import { normalizeDateValue } from './meta-dates';

type Tags = Record<string, unknown>;

const first = (tags: Tags, names: readonly string[]): unknown => {
  for (const name of names) {
    const v = tags[name];
    if (v !== undefined && v !== null && v !== '') return v;
  }
  return undefined;
};

/** A number from a number or a numeric string ("50.0 mm" → 50, "1/250" → 0.004); null otherwise. */
export function numberOf(v: unknown): number | null {
  if (typeof v === 'number') return Number.isFinite(v) ? v : null;
  if (typeof v !== 'string') return null;
  const frac = /^\s*(-?\d+(?:\.\d+)?)\s*\/\s*(\d+(?:\.\d+)?)\s*$/.exec(v);
  if (frac) return Number(frac[2]) === 0 ? null : Math.round((Number(frac[1]) / Number(frac[2])) * 1e6) / 1e6;
  const m = /^\s*(-?\d+(?:\.\d+)?)/.exec(v);
  return m ? Number(m[1]) : null;
}

const stringOf = (v: unknown): string | null => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null);
const stringOrNumber = (v: unknown): string | number | null => (typeof v === 'string' || typeof v === 'number' ? v : null);
const listOrString = (v: unknown): string | string[] | null =>
  Array.isArray(v) ? v.map(String) : typeof v === 'string' || typeof v === 'number' ? String(v) : null;

/** Numbers: meta key ← ExifTool tag names, first present wins. */
const NUMBERS: Record<string, readonly string[]> = {
  iso: ['ISO', 'ISOSpeedRatings', 'RecommendedExposureIndex'],
  aperture: ['Aperture', 'ApertureValue'],
  f_number: ['FNumber'],
  light_value: ['LightValue'],
  latitude: ['GPSLatitude'],
  longitude: ['GPSLongitude'],
  altitude: ['GPSAltitude'],
  page_count: ['PageCount', 'Pages'],
};

/** Strings (values ExifTool prints: "1/250", "50.0 mm", "Auto"). */
const STRINGS: Record<string, readonly string[]> = {
  exposure_time: ['ExposureTime', 'ShutterSpeed'],
  exposure_mode: ['ExposureMode'],
  exposure_program: ['ExposureProgram'],
  flash: ['Flash'],
  focal_length: ['FocalLength'],
  metering_mode: ['MeteringMode'],
  white_balance: ['WhiteBalance'],
  device_vendor: ['Make', 'AndroidMake'],
  lens: ['LensModel', 'LensID', 'Lens'],
  city: ['City'],
  country: ['Country', 'CountryPrimaryLocationName'],
  country_code: ['CountryCode', 'Country-PrimaryLocationCode'],
  location: ['Location', 'Sub-location'],
  producer: ['Producer'],
  page_size: ['PageSize'],
  lyrics: ['Lyrics'],
  performer: ['Performer'],
  comment: ['UserComment', 'Comment'],
};

/** String or number. */
const MIXED: Record<string, readonly string[]> = {
  device_name: ['Model', 'AndroidModel'],
  device_software: ['Software', 'CreatorTool'],
  title: ['Title', 'ObjectName'],
  description: ['ImageDescription', 'Description', 'Caption-Abstract'],
  author: ['Author'],
  artist: ['Artist'],
  album: ['Album'],
  genre: ['Genre'],
  track: ['Track', 'TrackNumber'],
  year: ['Year'],
  disc: ['Disc', 'DiscNumber'],
  copyright_notice: ['Copyright', 'CopyrightNotice'],
  rights: ['Rights'],
  state: ['State', 'Province-State'],
};

/** Date keys ← tags. date_recorded: when it was shot or made; the file dates are the stored file's. */
const DATES: Record<string, readonly string[]> = {
  // The SubSec composites carry the zone when the file states it (OffsetTime*): "2024:06:01 12:00:00+02:00".
  date_recorded: ['SubSecDateTimeOriginal', 'DateTimeOriginal', 'CreationDate', 'DateTimeCreated', 'DateCreated', 'SubSecCreateDate', 'CreateDate', 'ContentCreateDate', 'SubSecModifyDate', 'ModifyDate'],
  create_date: ['SubSecCreateDate', 'CreateDate', 'CreationDate'],
  modify_date: ['SubSecModifyDate', 'ModifyDate', 'MetadataDate'],
  date_file_created: ['FileCreateDate', 'FileInodeChangeDate'],
  date_file_modified: ['FileModifyDate'],
};

/** Tags read as numbers rather than as ExifTool prints them (signed decimal degrees, metres, 1..8, 0/1). */
const NUMERIC_TAGS = new Set(['GPSLatitude', 'GPSLongitude', 'GPSAltitude', 'GPSAltitudeRef', 'Orientation']);

/**
 * Every tag the mapping below reads, as ExifTool arguments (`-Tag`, `-Tag#` for numbers): asking for these
 * alone, rather than all, halves ExifTool's time per file.
 */
export const EXIF_TAG_ARGS: readonly string[] = [
  ...new Set([
    ...[NUMBERS, STRINGS, MIXED, DATES].flatMap((map) => Object.values(map).flat()),
    'GPSAltitudeRef', 'Creator', 'By-line', 'Keywords', 'Subject', 'Orientation', 'Error',
  ]),
].map((tag) => `-${tag}${NUMERIC_TAGS.has(tag) ? '#' : ''}`);

/** The meta keys ExifTool's tags give. Keys with no tag are left out; a date tag that is not a date gives null. */
export function metaFromExifTags(tags: Tags): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  for (const [key, names] of Object.entries(NUMBERS)) {
    const n = numberOf(first(tags, names));
    if (n !== null) meta[key] = n;
  }
  // Coordinates come signed (read as numbers); six decimals are ~10 cm. GPSAltitudeRef 1 (or "Below Sea Level") means below.
  for (const key of ['latitude', 'longitude'] as const) if (typeof meta[key] === 'number') meta[key] = Math.round(meta[key] * 1e6) / 1e6;
  if (typeof meta.altitude === 'number' && /^(1|below)/i.test(String(tags.GPSAltitudeRef ?? ''))) meta.altitude = -Math.abs(meta.altitude);
  for (const [key, names] of Object.entries(STRINGS)) {
    const s = stringOf(first(tags, names));
    if (s !== null) meta[key] = s;
  }
  for (const [key, names] of Object.entries(MIXED)) {
    const v = stringOrNumber(first(tags, names));
    if (v !== null) meta[key] = v;
  }
  const creator = listOrString(first(tags, ['Creator', 'By-line']));
  if (creator !== null) meta.creator = creator;
  const keywords = first(tags, ['Keywords', 'Subject']);
  if (keywords !== undefined) meta.keywords = Array.isArray(keywords) ? keywords.map(String) : [String(keywords)];
  const orientation = first(tags, ['Orientation']);
  if (typeof orientation === 'number' || typeof orientation === 'string') meta.orientation = orientation;
  for (const [key, names] of Object.entries(DATES)) {
    const v = normalizeDateValue(first(tags, names));
    if (v !== undefined) meta[key] = v;
  }
  return meta;
}
