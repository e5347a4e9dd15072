// /ai/chat, /image/describe, /speech/transcribe (service-facts §8; the vendor's robot docs). `messages` and `mcp_servers` have rules of their own
// (the service's messages check, shared/api/mcp-servers.ts), so any shape passes here.

import { anyOf, bool, json, list, oneOf, text } from './param-kinds';
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
};
