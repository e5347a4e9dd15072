// A file record's fields and meta keys, grouped and formatted for the file details panel. Pure: the
// time zone comes in as an argument (the user's by default), so tests pin it.

import { formatBytes } from '../../lib/format';
import { dateText } from '../../lib/date-time';

export type DetailGroupName = 'File' | 'Image' | 'Camera' | 'Location' | 'Audio/Video' | 'Document' | 'Dates' | 'Hashes' | 'Other';

export interface DetailRow {
  /** The record field or meta key, as the service names it. */
  readonly key: string;
  /** `meta` keys live in the record's meta object; `record` keys at its top level. */
  readonly source: 'record' | 'meta';
  readonly text: string;
  /** Hover text: a date's UTC value, a long value in full. */
  readonly title?: string;
}

export interface DetailGroup {
  readonly name: DetailGroupName;
  readonly rows: readonly DetailRow[];
}

const RECORD_GROUPS: Partial<Record<string, DetailGroupName>> = {
  md5hash: 'Hashes', sha256: 'Hashes', original_md5hash: 'Hashes', thumbhash: 'Hashes',
};

const META_GROUPS: Record<Exclude<DetailGroupName, 'File' | 'Hashes' | 'Other'>, readonly string[]> = {
  Image: ['width', 'height', 'aspect_ratio', 'orientation', 'has_alpha', 'has_alpha_channel', 'has_transparency', 'has_clipping_path', 'frame_count', 'colorspace', 'bit_depth', 'density', 'resolution', 'average_color', 'dominant_colors', 'svgViewBoxWidth', 'svgViewBoxHeight'],
  Camera: ['device_vendor', 'device_name', 'device_software', 'lens', 'iso', 'aperture', 'f_number', 'exposure_time', 'exposure_mode', 'exposure_program', 'flash', 'focal_length', 'metering_mode', 'white_balance', 'light_value'],
  Location: ['latitude', 'longitude', 'altitude', 'location', 'city', 'state', 'country', 'country_code'],
  'Audio/Video': [
    'duration', 'framerate', 'codecs', 'video_codec', 'video_bitrate', 'audio_codec', 'audio_bitrate', 'audio_samplerate', 'audio_channels', 'overall_bitrate', 'mean_volume',
    'num_video_streams', 'num_audio_streams', 'num_subtitles', 'streams', 'rotation', 'pixel_format', 'time_base', 'colorprimaries', 'colortransfer', 'seekable', 'has_artwork',
    'closed_captions', 'interlaced', 'field_order', 'title', 'artist', 'album', 'genre', 'track', 'disc', 'year', 'performer', 'lyrics', 'encoder', 'thumb_index', 'segment_index',
  ],
  Document: ['page_count', 'page_size', 'producer', 'author', 'creator', 'description', 'keywords', 'copyright_notice', 'rights', 'word_count', 'line_count', 'character_count', 'paragraph_count', 'comment'],
  Dates: ['date_recorded', 'creation_time', 'create_date', 'modify_date', 'date_file_created', 'date_file_modified'],
};

const GROUP_OF_META = new Map<string, DetailGroupName>(Object.entries(META_GROUPS).flatMap(([group, keys]) => keys.map((k) => [k, group as DetailGroupName] as const)));
const ORDER: readonly DetailGroupName[] = ['File', 'Image', 'Camera', 'Location', 'Audio/Video', 'Document', 'Dates', 'Hashes', 'Other'];
const DATE_KEYS = new Set(META_GROUPS.Dates);

/** "2024/06/01 10:00:00 GMT" (or ISO with a zone) → that instant; a date without a zone → null (no instant to convert). */
export function parseServiceDate(text: string): Date | null {
  const m = /^(\d{4})[/:-](\d{2})[/:-](\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?\s*(GMT|UTC|Z)$/i.exec(text.trim());
  if (m) return new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!));
  if (/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?([+-]\d{2}:\d{2})$/.test(text.trim())) {
    const d = new Date(text);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  return null;
}

/** A date key's value: the user's local time with the UTC value on hover (lib/date-time); a date without a zone as it is. */
export function formatDateValue(value: unknown, timeZone?: string): { text: string; title?: string } {
  if (value === null || value === undefined) return { text: '—', title: 'No date, or one that could not be read' };
  if (typeof value !== 'string') return { text: formatValue(value) };
  const instant = parseServiceDate(value);
  if (!instant) return { text: value, title: 'No time zone recorded: as the file says' };
  const d = dateText(instant, timeZone ? { timeZone } : {});
  return { text: d.text, ...(d.title ? { title: d.title } : {}) };
}

/** Any other value as one line: booleans Yes/No, null as a dash, lists joined, objects as compact JSON. */
export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '—';
  if (typeof value === 'string') return value === '' ? '""' : value;
  if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return value.map((v) => formatValue(v)).join(', ');
  return JSON.stringify(value);
}

/** Keys whose number reads better with a unit. */
function formatKeyed(key: string, value: unknown): string {
  if (typeof value === 'number') {
    if (key === 'size') return `${formatBytes(value)} (${value.toLocaleString('en-US')} bytes)`;
    if (key === 'exec_time' || key === 'queue_time' || key === 'duration') return `${value} s`;
    if (key === 'mean_volume') return `${value} dB`;
    if (/_bitrate$/.test(key)) return `${Math.round(value / 1000).toLocaleString('en-US')} kbit/s`;
    if (key === 'audio_samplerate') return `${value.toLocaleString('en-US')} Hz`;
  }
  return formatValue(value);
}

/** Megapixels over which the service gives no thumbhash (spec Limits). */
export const THUMBHASH_MAX_MEGAPIXELS = 40;

/** Why an image has no thumbhash, when the record says why: it is over the size limit. */
export function missingThumbhashReason(file: { type?: string | null; mime?: string | null; meta?: Record<string, unknown> }): string | null {
  const { width, height } = file.meta ?? {};
  if (typeof width !== 'number' || typeof height !== 'number') return null;
  const megapixels = (width * height) / 1e6;
  return megapixels > THUMBHASH_MAX_MEGAPIXELS ? `none: ${megapixels.toFixed(1)} MP is over the ${THUMBHASH_MAX_MEGAPIXELS} MP limit` : null;
}

const long = (text: string): string | undefined => (text.length > 60 ? text : undefined);

/**
 * Every record field and every meta key, each in its group (unknown keys in Other), groups without rows
 * left out. `meta` itself is opened into its keys; `user_meta` is shown as a whole under File.
 */
export function fileDetailGroups(file: Record<string, unknown>, timeZone?: string): DetailGroup[] {
  const rows = new Map<DetailGroupName, DetailRow[]>(ORDER.map((g) => [g, []]));
  const add = (group: DetailGroupName, row: DetailRow) => rows.get(group)!.push(row);
  for (const [key, value] of Object.entries(file)) {
    if (key === 'meta') continue;
    const text = formatKeyed(key, value);
    add(RECORD_GROUPS[key] ?? 'File', { key, source: 'record', text, ...(long(text) ? { title: text } : {}) });
  }
  const isImage = file.type === 'image' || (typeof file.mime === 'string' && file.mime.startsWith('image/'));
  if (isImage && file.thumbhash === undefined) {
    const reason = missingThumbhashReason(file as { meta?: Record<string, unknown> });
    add('Hashes', { key: 'thumbhash', source: 'record', text: reason ?? 'none' });
  }
  const meta = file.meta && typeof file.meta === 'object' ? (file.meta as Record<string, unknown>) : {};
  for (const [key, value] of Object.entries(meta)) {
    const group = GROUP_OF_META.get(key) ?? 'Other';
    if (DATE_KEYS.has(key)) {
      add(group, { key, source: 'meta', ...formatDateValue(value, timeZone) });
      continue;
    }
    const text = formatKeyed(key, value);
    add(group, { key, source: 'meta', text, ...(long(text) ? { title: text } : {}) });
  }
  return ORDER.map((name) => ({ name, rows: rows.get(name)! })).filter((g) => g.rows.length > 0);
}
