// The programs the document robots run, and whether this computer has them: a robot whose program is
// missing is refused when the Assembly is created (`<ROBOT>_TOOL_MISSING`, saying what to install).
// Poppler (pdftoppm, pdfinfo, pdfseparate, pdfunite) draws, counts, cuts and joins PDF pages; Tesseract
// reads text; LibreOffice converts office files; Chromium draws HTML.

import { execFile, spawnSync } from 'node:child_process';
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

/**
 * The languages the vendor's OCR detects without being told (its docs: English, Arabic, Russian, German,
 * French, Italian, Portuguese, Spanish), as Tesseract's language packs. Its schema takes no language, so
 * Tesseract reads with every one of them installed here (English always).
 */
export const OCR_LANGUAGES = ['eng', 'ara', 'rus', 'deu', 'fra', 'ita', 'por', 'spa'] as const;

let packs: { key: string; installed: Set<string> } | null = null;

/** The language packs Tesseract has here ("eng", "deu"…); empty when it is missing. Looked up once per PATH. */
export function tesseractLanguages(): Set<string> {
  const key = `${process.env.PATH ?? ''}\0${process.env.TESSDATA_PREFIX ?? ''}`;
  if (packs?.key !== key) {
    const out = spawnSync(TESSERACT.command, ['--list-langs'], { encoding: 'utf8', timeout: 10_000 });
    // Older versions print the list on stderr.
    const lines = `${out.stdout ?? ''}\n${out.stderr ?? ''}`.split('\n').map((l) => l.trim());
    packs = { key, installed: new Set(lines.filter((l) => /^[a-z_]{3,}$/i.test(l))) };
  }
  return packs.installed;
}

/** Tesseract's `-l`: the vendor's languages installed here, English first ("eng+deu+fra"). */
export const ocrLanguageArg = (): string => OCR_LANGUAGES.filter((l) => tesseractLanguages().has(l)).join('+') || 'eng';

/** The first program a robot misses, said for a person; null when it has them all (for OCR: and English). */
export function missingDocumentTool(robot: string): string | null {
  const tool = (DOCUMENT_ROBOT_TOOLS[robot] ?? []).find((t) => !toolInstalled(t.command));
  if (tool) return missingMessage(robot, tool);
  if ((DOCUMENT_ROBOT_TOOLS[robot] ?? []).includes(TESSERACT) && !tesseractLanguages().has('eng')) {
    return `Tesseract has no English language pack here (eng.traineddata), and ${robot} reads with it. Install it (Debian/Ubuntu: apt install tesseract-ocr-eng; macOS: brew install tesseract) or point TESSDATA_PREFIX at a folder that has it, and try again`;
  }
  return null;
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
