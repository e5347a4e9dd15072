// The programs the document robots run, and whether this computer has them: a robot whose program is
// missing is refused when the Assembly is created (`<ROBOT>_TOOL_MISSING`, saying what to install).
// Poppler (pdftoppm, pdfinfo, pdfseparate, pdfunite) draws, counts, cuts and joins PDF pages; Tesseract
// reads text; LibreOffice converts office files; Chromium draws HTML.

import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { toolInstalled, type Tool } from '../media/tools';

export const POPPLER: Tool = { command: 'pdftoppm', debian: 'poppler-utils' };
export const TESSERACT: Tool = { command: 'tesseract', debian: 'tesseract-ocr' };
export const LIBREOFFICE: Tool = { command: 'soffice', debian: 'libreoffice-core libreoffice-writer' };

/** The programs each robot needs, all of them (a robot with a choice of converters says so itself). */
export const DOCUMENT_ROBOT_TOOLS: Readonly<Record<string, readonly Tool[]>> = {
  '/document/thumbs': [POPPLER],
  '/document/merge': [POPPLER],
  '/document/split': [POPPLER],
  '/document/ocr': [POPPLER, TESSERACT],
  '/image/ocr': [TESSERACT],
};

const installHint = (tool: Tool): string => `Debian/Ubuntu: apt install ${tool.debian}; macOS: brew install ${tool.debian.split(' ')[0]!.replace('-utils', '').replace('-core', '')}`;

/** What a tool's absence means for a robot, said for a person. */
export const missingMessage = (robot: string, tool: Tool): string =>
  `${tool.command} is not installed on this computer (or not on PATH), and ${robot} needs it. Install it (${installHint(tool)}) and try again`;

/** The first program a robot misses, said for a person; null when it has them all. */
export function missingDocumentTool(robot: string): string | null {
  const tool = (DOCUMENT_ROBOT_TOOLS[robot] ?? []).find((t) => !toolInstalled(t.command));
  return tool ? missingMessage(robot, tool) : null;
}

/** The Chromium to draw HTML with: ASSEMBLYLINE_CHROMIUM, else the first of the usual names on PATH or in /usr/bin; null when none. */
export function chromiumPath(): string | null {
  const own = process.env.ASSEMBLYLINE_CHROMIUM;
  if (own) return existsSync(own) ? own : null;
  for (const name of ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']) if (toolInstalled(name)) return name;
  return null;
}

export const CHROMIUM_MISSING = 'Chromium is not installed on this computer (or not on PATH), and HTML is drawn with it. Install it (Debian/Ubuntu: apt install chromium) or name its program in ASSEMBLYLINE_CHROMIUM, and try again';

export interface ToolRun {
  ok: boolean;
  aborted: boolean;
  stdout: string;
  /** The tool's last words on failure (stderr's end), for the message. */
  message: string;
}

/** Runs a program to its end (or until `signal` aborts or `timeoutMs` passes). */
export function runTool(command: string, args: string[], signal: AbortSignal, timeoutMs = 10 * 60_000, env?: NodeJS.ProcessEnv): Promise<ToolRun> {
  return new Promise((resolve) => {
    execFile(command, args, { signal, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, encoding: 'utf8', ...(env ? { env } : {}) }, (err, stdout, stderr) => {
      if (!err) return resolve({ ok: true, aborted: false, stdout, message: '' });
      const aborted = signal.aborted;
      const last = String(stderr ?? '').trim().split('\n').slice(-3).join(' ').slice(0, 500);
      resolve({ ok: false, aborted, stdout: String(stdout ?? ''), message: last || (err as Error).message });
    });
  });
}

/** `/document/thumbs` → `DOCUMENT_THUMBS`. */
export const prefixOf = (robot: string): string => robot.replace(/^\//, '').replace(/[/-]/g, '_').toUpperCase();
