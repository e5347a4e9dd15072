// The /video/* and /audio/* robots the app knows (service-facts §8 "Core robots"; the vendor's robot docs).

import { anyOf, bool, color, int, json, list, named, num, oneOf, text } from './param-kinds';
import { FFMPEG_PARAMS, POSITIONS, RESIZE_STRATEGIES, type RobotParams } from './robots-base';

/** The vendor's video presets, written with "-" ("_" is the same: `ipad_high` is `ipad-high`). */
export const VIDEO_PRESETS = `
  android android-high android-low dash-1080p-video dash-270p-video dash-360p-video dash-480p-video
  dash-540p-video dash-576p-video dash-720p-video dash/1080p-video dash/270p-video dash/360p-video
  dash/480p-video dash/540p-video dash/576p-video dash/720p-video flash gif hevc hls-1080p hls-270p hls-360p
  hls-480p hls-540p hls-576p hls-720p hls/1080p hls/270p hls/360p hls/480p hls/4k hls/540p hls/720p ipad
  ipad-high ipad-low iphone iphone-high iphone-low ogv vod/1080p vod/270p vod/480p vod/720p vp9 vp9-1080p
  vp9-270p vp9-360p vp9-480p vp9-540p vp9-576p vp9-720p web/mp4-x265/1080p web/mp4-x265/240p web/mp4-x265/360p
  web/mp4-x265/480p web/mp4-x265/4k web/mp4-x265/720p web/mp4-x265/8k web/mp4/1080p web/mp4/240p web/mp4/360p
  web/mp4/480p web/mp4/4k web/mp4/540p web/mp4/720p web/mp4/8k web/webm-av1/1080p web/webm-av1/240p
  web/webm-av1/360p web/webm-av1/480p web/webm-av1/4k web/webm-av1/720p web/webm-av1/8k web/webm/1080p
  web/webm/240p web/webm/360p web/webm/480p web/webm/4k web/webm/720p web/webm/8k webm webm-1080p webm-270p
  webm-360p webm-480p webm-540p webm-576p webm-720p wmv aac alac audio/aac audio/alac audio/flac audio/mp3
  audio/ogg dash-128k-audio dash-256k-audio dash-32k-audio dash-64k-audio dash/128k-audio dash/256k-audio
  dash/32k-audio dash/64k-audio empty flac hg-transformers-audio mp3 ogg opus speech wav
`.split(/\s+/).filter(Boolean);

/** The vendor's audio presets, written with "-". */
export const AUDIO_PRESETS = `
  aac alac audio/aac audio/alac audio/flac audio/mp3 audio/ogg dash-128k-audio dash-256k-audio dash-32k-audio
  dash-64k-audio dash/128k-audio dash/256k-audio dash/32k-audio dash/64k-audio empty flac
  hg-transformers-audio mp3 ogg opus speech wav
`.split(/\s+/).filter(Boolean);

export const dashes = (v: string): string => v.replace(/_/g, '-');
const WATERMARK = { watermark_url: text(), watermark_position: anyOf(oneOf(POSITIONS), list(oneOf(POSITIONS))), watermark_x_offset: int(), watermark_y_offset: int(), watermark_size: text(), watermark_opacity: num(0, 1) };

export const MEDIA_ROBOTS: Readonly<Record<string, RobotParams>> = {
  '/video/thumbs': {
    ...FFMPEG_PARAMS,
    count: int(1, 999, { code: 'VIDEO_THUMBS_INVALID_COUNT_VALUE' }),
    // Seconds or "NN%" strings: the service reads them.
    offsets: json(),
    format: oneOf(['jpeg', 'jpg', 'png']),
    width: int(1, 1920),
    height: int(1, 1080),
    resize_strategy: oneOf(RESIZE_STRATEGIES),
    background: color(),
    rotate: oneOf([0, 90, 180, 270, 360]),
    input_codec: text(),
  },
  '/video/encode': {
    ...FFMPEG_PARAMS,
    ...WATERMARK,
    preset: named(VIDEO_PRESETS, 'one of the vendor\'s video presets, such as ipad-high, iphone, android, hevc, webm, gif or web/mp4/1080p', dashes),
    width: int(1),
    height: int(1),
    resize_strategy: oneOf(RESIZE_STRATEGIES),
    zoom: bool(),
    crop: json(),
    background: color(),
    rotate: oneOf([0, 90, 180, 270, 360, false]),
    hint: bool(),
    turbo: bool(),
    chunk_duration: int(1),
    watermark_resize_strategy: oneOf(['area', 'fit', 'stretch']),
    watermark_start_time: num(),
    watermark_duration: num(),
    segment: bool(),
    segment_duration: int(1),
    segment_prefix: text(),
    segment_name: text(),
    segment_time_delta: num(),
    font_size: num(),
    font_color: text(),
    text_background_color: text(),
  },
  '/audio/encode': {
    ...FFMPEG_PARAMS,
    preset: named(AUDIO_PRESETS, 'one of the vendor\'s audio presets, such as mp3, aac, ogg, opus, flac or wav', dashes),
    bitrate: int(1),
    sample_rate: int(1),
  },
  '/audio/waveform': {
    ...FFMPEG_PARAMS,
    format: oneOf(['image', 'json']),
    width: int(1),
    height: int(1),
    antialiasing: oneOf([0, 1, true, false]),
    background_color: color(),
    center_color: color(),
    outer_color: color(),
    style: oneOf(['v0', 'v1', 'spectrogram']),
    split_channels: bool(),
    zoom: int(1),
    pixels_per_second: num(0),
    bits: oneOf([8, 16]),
    start: num(0),
    end: num(0),
    colors: oneOf(['audition', 'audacity']),
    border_color: color(),
    waveform_style: oneOf(['normal', 'bars']),
    bar_width: int(0),
    bar_gap: int(0),
    bar_style: oneOf(['square', 'rounded']),
    axis_label_color: color(),
    no_axis_labels: bool(),
    with_axis_labels: bool(),
    amplitude_scale: num(0),
    compression: int(-1, 9),
    color_map: oneOf(['viridis', 'plasma', 'magma', 'cividis', 'cool', 'rainbow', 'moreland', 'nebulae', 'fire', 'fiery', 'fruit', 'green', 'terrain', 'gray']),
    frequency_scale: oneOf(['linear', 'logarithmic']),
    frequency_min: num(0),
    frequency_max: num(1),
    legend: bool(),
    gain: num(0, 128),
    orientation: oneOf(['vertical', 'horizontal']),
  },
};
