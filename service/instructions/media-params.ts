// The local service's own rules for the media robots of service/robots/media/ (names and types are the
// shared catalog's, shared/api/robot-params/robots-media-compose.ts): what it does not run, a missing
// program (`<ROBOT>_TOOL_MISSING`), segment lists, and the languages espeak-ng speaks here.

import { AUDIO_PRESET_CODECS } from '../robots/audio-encode';
import { parseTime } from '../robots/media/media-inputs';
import { espeakVoiceFor, missingToolMessage } from '../robots/media/tools';

import { deferred, set, show, type ParamProblem, type Params, type Rule } from './param-rules';

export type MediaParamProblem = ParamProblem;

const noFfmpeg: Rule = (p) => (set(p.ffmpeg) ? 'ffmpeg (the free-form passthrough) is not supported by the local service; use the documented parameters' : null);
const noVideoPreset = (robot: string): Rule => (p) =>
  set(p.preset) ? `preset is not applied by the local service's ${robot} (it writes H.264/AAC MP4); encode with a /video/encode step before or after it` : null;
const audioPreset: Rule = (p, final) => {
  const v = p.preset;
  if (!set(v) || deferred(final, v)) return null;
  const name = typeof v === 'string' ? v.replace(/^audio\//, '') : v;
  return typeof name === 'string' && AUDIO_PRESET_CODECS[name] ? null : `preset ${show(v)} is not available locally; use one of ${Object.keys(AUDIO_PRESET_CODECS).join(', ')}`;
};
const notLocally = (key: string, what: string): Rule => (p) => (set(p[key]) && p[key] !== false && p[key] !== 'false' ? `${key} ${what}` : null);
const sizeAtMost: Rule = (p) => {
  for (const [key, max] of [['width', 7680], ['height', 4320]] as const) {
    const n = Number(p[key]);
    if (set(p[key]) && Number.isFinite(n) && n > max) return `${key} must be at most ${max} (got ${show(p[key])})`;
  }
  return null;
};

/** `segments`: a non-empty list of {from, to}, each a number of seconds or a timecode, `to` after `from`. */
const segmentsRule: Rule = (p, final) => {
  const v = p.segments;
  if (!set(v)) return 'segments is required: a list of {"from", "to"} in seconds or "HH:MM:SS.mmm"';
  if (deferred(final, v)) return null;
  if (!Array.isArray(v) || v.length === 0) return `segments must be a non-empty list of {"from", "to"} (got ${show(v)})`;
  for (const [i, s] of v.entries()) {
    const seg = s as { from?: unknown; to?: unknown } | null;
    if (typeof seg !== 'object' || seg === null || Array.isArray(seg)) return `segments[${i}] must be an object {"from", "to"}`;
    const extra = Object.keys(seg).find((k) => k !== 'from' && k !== 'to');
    if (extra) return `segments[${i}] has "${extra}"; a segment has only "from" and "to"`;
    const from = parseTime(seg.from);
    const to = parseTime(seg.to);
    if (from === null) return `segments[${i}].from must be seconds or a timecode such as "00:01:30.000" (got ${show(seg.from)})`;
    if (to === null) return `segments[${i}].to must be seconds or a timecode such as "00:01:30.000" (got ${show(seg.to)})`;
    if (to <= from) return `segments[${i}] ends (${show(seg.to)}) before it starts (${show(seg.from)})`;
  }
  return null;
};

const RULES: Record<string, Rule[]> = {
  '/video/concat': [noFfmpeg, noVideoPreset('/video/concat'), sizeAtMost],
  '/audio/concat': [noFfmpeg, audioPreset],
  '/video/merge': [
    noFfmpeg,
    noVideoPreset('/video/merge'),
    sizeAtMost,
    notLocally('vstack', 'is not supported by the local service'),
    notLocally('image_url', 'is not supported by the local service: add the image as an input (an upload or an /http/import step)'),
    (p) => (set(p.transition) && p.transition !== 'none' ? 'transition is not supported by the local service\'s /video/merge; join videos with /video/concat' : null),
  ],
  '/audio/merge': [noFfmpeg, audioPreset],
  '/image/merge': [notLocally('effect', 'is not supported by the local service (it lays images out horizontally, vertically or in a grid)')],
  '/video/split': [noFfmpeg, noVideoPreset('/video/split'), sizeAtMost, segmentsRule],
  '/audio/split': [noFfmpeg, audioPreset, segmentsRule],
  '/video/adaptive': [
    noFfmpeg,
    noVideoPreset('/video/adaptive'),
    sizeAtMost,
    notLocally('audio_group', 'is not supported by the local service (each input is one rendition with its own audio)'),
    (p, final) => {
      const n = Number(p.segment_duration);
      return !set(p.segment_duration) || deferred(final, p.segment_duration) || (Number.isInteger(n) && n >= 1 && n <= 60) ? null : `segment_duration must be a whole number of seconds from 1 to 60 (got ${show(p.segment_duration)})`;
    },
    (p) => {
      for (const key of ['playlist_name', 'hls_playlist_name']) {
        const v = p[key];
        if (typeof v === 'string' && (v.includes('/') || v.includes('\\') || v.startsWith('.') || v === '')) return `${key} must be a plain file name such as "playlist.m3u8" (got ${show(v)})`;
      }
      return null;
    },
  ],
  '/text/speak': [
    (p, final) => {
      const v = p.target_language;
      if (!set(v) || deferred(final, v) || typeof v !== 'string') return null;
      return espeakVoiceFor(v) ? null : `target_language ${show(v)} has no voice on this computer (espeak-ng); use a BCP-47 tag such as "en-US", "en-GB", "de-DE" or "fr-FR"`;
    },
  ],
};

/** The first problem of a media step's parameters by this service's rules, or null (other robots: null). */
export function mediaParamProblem(robot: string, params: Params, final: boolean): MediaParamProblem | null {
  const rules = RULES[robot];
  if (!rules) return null;
  const missing = missingToolMessage(robot);
  if (missing) return { code: `${robot.replace(/^\//, '').replace(/[/-]/g, '_').toUpperCase()}_TOOL_MISSING`, problem: missing };
  for (const rule of rules) {
    const problem = rule(params, final);
    if (problem) return { problem };
  }
  return null;
}
