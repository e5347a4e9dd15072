// /ai/chat, /image/describe, /speech/transcribe, /text/translate, /image/generate (service-facts §8; the vendor's robot docs). `messages` and `mcp_servers` have rules of their own
// (the service's messages check, shared/api/mcp-servers.ts), so any shape passes here.

import { anyOf, bool, int, json, list, num, oneOf, text } from './param-kinds';
import type { RobotParams } from './robots-base';

export const AI_ROBOTS: Readonly<Record<string, RobotParams>> = {
  '/ai/chat': {
    model: text(),
    format: oneOf(['json', 'text', 'meta']),
    return_messages: oneOf(['all', 'last']),
    // A JSON Schema as a string: the service says what is wrong with it.
    schema: json(),
    messages: json(),
    system_message: text(),
    reasoning_effort: oneOf(['xhigh', 'high', 'medium', 'low']),
    credentials: anyOf(text(), list(text())),
    test_credentials: bool(),
    mcp_servers: json(),
  },
  '/image/describe': {
    provider: text(),
    granularity: oneOf(['full', 'list']),
    format: oneOf(['json', 'meta', 'text']),
    explicit_descriptions: bool(),
  },
  '/speech/transcribe': {
    provider: text(),
    granularity: oneOf(['full', 'list']),
    format: oneOf(['json', 'meta', 'srt', 'text', 'webvtt']),
    source_language: text(),
    target_language: text(),
  },
  // Languages are BCP-47-ish codes ("de", "en-US", "zh-TW"); the vendor's list differs per provider, so any text.
  '/text/translate': {
    provider: text(),
    target_language: text(),
    source_language: text(),
  },
  '/image/generate': {
    provider: text(),
    model: text(),
    prompt: text(),
    format: oneOf(['jpeg', 'jpg', 'png', 'gif', 'webp', 'svg']),
    seed: num(),
    aspect_ratio: text(),
    height: num(),
    width: num(),
    style: text(),
    num_outputs: int(1, 10),
  },
  // Not run by the local service (refused at creation there, `<ROBOT>_MODEL_NOT_OFFERED`); listed so the
  // editors check them for remote workspaces.
  '/image/bgremove': {
    provider: oneOf(['auto', 'transloadit', 'replicate', 'fal']),
    model: text(),
    format: oneOf(['gif', 'png', 'webp']),
    select: oneOf(['background', 'foreground']),
  },
  '/image/upscale': {
    provider: text(),
    model: oneOf(['nightmareai/real-esrgan', 'tencentarc/gfpgan', 'sczhou/codeformer']),
    scale: oneOf([2, 4]),
    face_enhance: bool(),
  },
  '/image/facedetect': {
    provider: oneOf(['aws', 'gcp', 'auto']),
    confidence: num(),
    min_confidence: num(),
    crop: bool(),
    crop_padding: text(),
    faces: anyOf(int(0), oneOf(['each', 'group', 'max-confidence', 'max-size'])),
    format: oneOf(['jpg', 'png', 'preserve', 'tiff']),
    width: int(1),
    height: int(1),
  },
};
