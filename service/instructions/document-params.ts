// The local service's own rules for the document robots of service/robots/document/ (names and types are
// the shared catalog's, shared/api/robot-params/robots-document.ts): a missing program
// (`<ROBOT>_TOOL_MISSING`), page lists, and what it does not run (encrypted PDFs, cloud OCR providers).

import { LOCAL_TARGETS, OFFICE_ONLY_TARGETS } from '../robots/document/convert-formats';
import { parseMargins } from '../robots/document/html-convert';
import { CHROMIUM_MISSING, LIBREOFFICE, chromiumPath, missingDocumentTool, missingMessage } from '../robots/document/tools';
import { toolInstalled } from '../robots/media/tools';
import { pageEntries, parsePageSpec } from '../robots/document/pdf-pages';

import { deferred, set, show, type ParamProblem, type Params, type Rule } from './param-rules';

export type DocumentParamProblem = ParamProblem;

const thumbsPages: Rule = (p, final) => {
  if (set(p.page) && set(p.page_range)) return 'page_range cannot be used together with page: give one of them';
  const v = p.page_range;
  if (!set(v) || deferred(final, v)) return null;
  if (typeof v !== 'string' || !/^\d+-\d+$/.test(v.trim()) || !parsePageSpec(v)) return `page_range must be "start-end" with start at least 1 and end at least start, such as "1-20" (got ${show(v)})`;
  return p.format === 'gif' ? 'page_range is not supported with format "gif"' : null;
};
const density: Rule = (p, final) => {
  const v = p.density;
  if (!set(v) || deferred(final, v)) return null;
  const m = /^(\d+)(?:x(\d+))?$/.exec(String(v).trim());
  return m && Number(m[1]) >= 1 && Number(m[1]) <= 1200 && (m[2] === undefined || (Number(m[2]) >= 1 && Number(m[2]) <= 1200)) ? null : `density must be dots per inch from 1 to 1200, such as "300" or "300x200" (got ${show(v)})`;
};
const colorspace: Rule = (p) =>
  set(p.colorspace) && !['Gray', 'sRGB', 'RGB'].includes(String(p.colorspace)) ? `colorspace ${show(p.colorspace)} is not available locally; use Gray, sRGB or RGB` : null;
const splitPages: Rule = (p, final) => {
  const v = p.pages;
  if (!set(v) || deferred(final, v)) return null;
  for (const entry of pageEntries(v)) if (!parsePageSpec(entry)) return `pages: "${entry}" is not a page or a range of pages such as "5" or "5-10" (pages start at 1)`;
  return null;
};
const noPasswords: Rule = (p) => {
  if (Array.isArray(p.input_passwords) && p.input_passwords.length > 0) return 'input_passwords is not supported by the local service: it merges PDFs that are not encrypted';
  return typeof p.output_password === 'string' && p.output_password !== '' ? 'output_password is not supported by the local service: it does not encrypt PDFs' : null;
};

const htmlUrl: Rule = (p, final) => {
  const v = p.url;
  if (!set(v) || v === '' || deferred(final, v)) return null;
  let url: URL;
  try {
    url = new URL(String(v));
  } catch {
    return `url must be an http or https URL (got ${show(v)})`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `url must be an http or https URL (got ${show(v)})`;
  return url.username || url.password ? 'url must not hold a user name or password; put credentials in headers' : null;
};
const htmlHeaders: Rule = (p) => {
  const v = p.headers;
  if (!set(v)) return null;
  return typeof v === 'object' && !Array.isArray(v) && Object.values(v as object).every((x) => typeof x === 'string') ? null : `headers must be an object of header names to text values, such as {"Authorization": "Bearer …"} (got ${show(v)})`;
};

const convertFormat: Rule = (p, final) => {
  const v = p.format;
  if (!set(v) || v === '') return 'format is required: the format to convert into, such as "pdf"';
  if (deferred(final, v)) return null;
  return LOCAL_TARGETS.has(String(v)) ? null : `format ${show(v)} is not made by the local service; it converts into ${[...LOCAL_TARGETS].join(', ')}`;
};
const pdfMargin: Rule = (p, final) => {
  const v = p.pdf_margin;
  if (!set(v) || deferred(final, v)) return null;
  return typeof v === 'string' && parseMargins(v) ? null : `pdf_margin must be four lengths with units (px, in, cm, mm) for top, right, bottom and left, such as "6.25mm,6.25mm,14.11mm,6.25mm" (got ${show(v)})`;
};

const RULES: Record<string, Rule[]> = {
  '/document/thumbs': [thumbsPages, density, colorspace],
  '/document/merge': [noPasswords],
  '/document/split': [splitPages],
  '/document/ocr': [],
  '/image/ocr': [],
  '/html/convert': [htmlUrl, htmlHeaders],
  '/document/convert': [convertFormat, pdfMargin],
};

/**
 * The program a step misses, said for a person, or null. /document/convert's converter depends on the input
 * (Chromium for HTML, LibreOffice for office files), so only a format nothing but LibreOffice makes (docx,
 * xlsx…) is refused here; the rest is said at the file when it runs.
 */
function missingTool(robot: string, params: Params): string | null {
  if (robot === '/html/convert') return chromiumPath() ? null : CHROMIUM_MISSING;
  if (robot === '/document/convert') return OFFICE_ONLY_TARGETS.has(String(params.format)) && !toolInstalled(LIBREOFFICE.command) ? missingMessage(robot, LIBREOFFICE) : null;
  return missingDocumentTool(robot);
}

/** The first problem of a document step's parameters by this service's rules, or null (other robots: null). */
export function documentParamProblem(robot: string, params: Params, final: boolean): DocumentParamProblem | null {
  const rules = RULES[robot];
  if (!rules) return null;
  const missing = missingTool(robot, params);
  if (missing) return { code: `${robot.replace(/^\//, '').replace(/[/-]/g, '_').toUpperCase()}_TOOL_MISSING`, problem: missing };
  for (const rule of rules) {
    const problem = rule(params, final);
    if (problem) return { problem };
  }
  return null;
}
