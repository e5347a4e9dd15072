// The programs media robots run, and whether this computer has them: a robot whose program is missing is
// refused when the Assembly is created (`<ROBOT>_TOOL_MISSING`, saying what to install), not half-way.
// Looked up once per PATH (a test that empties PATH sees them missing).

import { spawnSync } from 'node:child_process';

export interface Tool {
  command: string;
  /** The Debian package that brings it (scripts/ensure-system-deps.sh installs it for the tests). */
  debian: string;
}

export const FFMPEG: Tool = { command: 'ffmpeg', debian: 'ffmpeg' };
export const ESPEAK: Tool = { command: 'espeak-ng', debian: 'espeak-ng' };

/** The program each robot of this folder needs. */
export const MEDIA_ROBOT_TOOLS: Readonly<Record<string, Tool>> = {
  '/video/concat': FFMPEG,
  '/audio/concat': FFMPEG,
  '/video/merge': FFMPEG,
  '/audio/merge': FFMPEG,
  '/video/split': FFMPEG,
  '/audio/split': FFMPEG,
  '/video/adaptive': FFMPEG,
  '/text/speak': ESPEAK,
};

const found = new Map<string, boolean>();

/** Whether `command --version` runs here. */
export function toolInstalled(command: string): boolean {
  const key = `${process.env.PATH ?? ''}\0${command}`;
  let ok = found.get(key);
  if (ok === undefined) {
    ok = !spawnSync(command, ['--version'], { stdio: 'ignore', timeout: 10_000 }).error;
    found.set(key, ok);
  }
  return ok;
}

/** What a robot misses, said for a person: null when its program is here (or it needs none). */
export function missingToolMessage(robot: string): string | null {
  const tool = MEDIA_ROBOT_TOOLS[robot];
  if (!tool || toolInstalled(tool.command)) return null;
  return `${tool.command} is not installed on this computer (or not on PATH), and ${robot} needs it. Install it (Debian/Ubuntu: apt install ${tool.debian}; macOS: brew install ${tool.debian}) and try again`;
}

let voices: { key: string; languages: Set<string> } | null = null;

/** The languages espeak-ng speaks here ("en-us", "de", …), lower case; empty when it is missing. */
export function espeakLanguages(): Set<string> {
  const key = process.env.PATH ?? '';
  if (voices?.key !== key) {
    const out = spawnSync(ESPEAK.command, ['--voices'], { encoding: 'utf8', timeout: 10_000 });
    const languages = new Set<string>();
    for (const line of (out.stdout ?? '').split('\n').slice(1)) {
      const lang = line.trim().split(/\s+/)[1];
      if (lang) languages.add(lang.toLowerCase());
    }
    voices = { key, languages };
  }
  return voices.languages;
}

/** The espeak-ng voice for a BCP-47 tag: the whole tag when it has one ("en-gb"), else its language ("de-DE" → "de", "fr-CA" → "fr-fr"); null when none. */
export function espeakVoiceFor(tag: string): string | null {
  const languages = espeakLanguages();
  const lower = tag.trim().toLowerCase().replace(/_/g, '-');
  if (languages.has(lower)) return lower;
  const base = lower.split('-')[0] ?? '';
  if (languages.has(base)) return base;
  // "fr-CA" where only fr-fr, fr-be… exist: the first of its language.
  return [...languages].find((l) => l.startsWith(`${base}-`)) ?? null;
}
