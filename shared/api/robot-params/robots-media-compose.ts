// The robots that join, cut, package and voice media — /video/concat, /audio/concat, /video/merge,
// /audio/merge, /image/merge, /video/split, /audio/split, /video/adaptive, /text/speak — with every parameter
// of the vendor's schemas (@transloadit/node alphalib/types/robots/*.ts). What the local service does not
// run is its own rule (service/instructions/media-params.ts), not a kind here.

import { anyOf, bool, color, int, json, list, named, num, oneOf, text } from './param-kinds';
import { FFMPEG_PARAMS, RESIZE_STRATEGIES, type RobotParams } from './robots-base';
import { AUDIO_PRESETS, VIDEO_PRESETS, dashes } from './robots-media';

/** How bundled inputs are ordered when no numbered `as` (video_1, audio_2…) says it. */
const SORT_BY = oneOf(['auto', 'basename', 'import_order']);
const TRANSITIONS = oneOf(['none', 'crossfade', 'fade_to_black']);

const FFMPEG_VIDEO: RobotParams = {
  ...FFMPEG_PARAMS,
  width: int(1),
  height: int(1),
  preset: named(VIDEO_PRESETS, "one of the vendor's video presets, such as ipad-high, iphone, android, hevc, webm, gif or web/mp4/1080p", dashes),
};
const FFMPEG_AUDIO: RobotParams = {
  ...FFMPEG_PARAMS,
  preset: named(AUDIO_PRESETS, "one of the vendor's audio presets, such as mp3, aac, ogg, opus, flac or wav", dashes),
};

export const MEDIA_COMPOSE_ROBOTS: Readonly<Record<string, RobotParams>> = {
  '/video/concat': {
    ...FFMPEG_VIDEO,
    video_fade_seconds: num(0),
    audio_fade_seconds: num(0),
    chapter_markers: bool(),
    sort_by: SORT_BY,
    transition: TRANSITIONS,
    transition_duration: num(0),
  },
  '/audio/concat': {
    ...FFMPEG_AUDIO,
    bitrate: int(1),
    sample_rate: int(1),
    audio_fade_seconds: num(0),
    crossfade: bool(),
    sort_by: SORT_BY,
  },
  '/video/merge': {
    ...FFMPEG_VIDEO,
    resize_strategy: oneOf(RESIZE_STRATEGIES),
    background: color(),
    // A whole number, or a fraction such as "1/5" (one image every 5 seconds).
    framerate: anyOf(int(1), { ...text(), expects: 'a fraction such as "1/5"' }),
    image_durations: list(num(0)),
    duration: num(0),
    audio_delay: num(0),
    loop: bool(),
    replace_audio: bool(),
    vstack: bool(),
    image_url: text(),
    sort_by: SORT_BY,
    transition: TRANSITIONS,
    transition_duration: num(0),
  },
  '/audio/merge': {
    ...FFMPEG_AUDIO,
    bitrate: int(1),
    sample_rate: int(1),
    duration: oneOf(['first', 'longest', 'shortest']),
    loop: bool(),
    volume: oneOf(['average', 'sum']),
  },
  '/image/merge': {
    format: oneOf(['jpg', 'png', 'webp']),
    direction: oneOf(['horizontal', 'vertical', 'grid']),
    effect: oneOf(['mosaic', 'polaroid-stack']),
    columns: int(1),
    rows: int(1),
    cell_width: int(1),
    cell_height: int(1),
    border: int(),
    background: color(),
    width: int(1),
    height: int(1),
    seed: int(),
    shuffle: bool(),
    sort_by: SORT_BY,
    coverage: num(0.5, 3),
    adaptive_filtering: bool(),
    quality: int(1, 100),
  },
  // `segments`: [{from, to}] in seconds or "HH:MM:SS.mmm"; its shape is the service's own rule.
  '/video/split': { ...FFMPEG_VIDEO, segments: json() },
  '/audio/split': { ...FFMPEG_AUDIO, segments: json(), bitrate: int(1), sample_rate: int(1) },
  '/video/adaptive': {
    ...FFMPEG_VIDEO,
    technique: oneOf(['dash', 'hls', 'cmaf']),
    playlist_name: text(),
    hls_playlist_name: text(),
    segment_duration: int(),
    closed_captions: bool(),
    audio_group: bool(),
  },
  '/text/speak': {
    prompt: text(),
    provider: oneOf(['auto', 'aws', 'gcp']),
    target_language: text(),
    voice: oneOf(['female-1', 'female-2', 'female-3', 'female-child-1', 'male-1', 'male-child-1']),
    ssml: bool(),
  },
};
