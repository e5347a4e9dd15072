// The document robots — /document/thumbs, /document/merge, /document/split, /document/ocr, /image/ocr,
// /document/convert, /html/convert — with every parameter of the vendor's schemas (@transloadit/node
// alphalib/types/robots/document-*.ts, image-ocr.ts, html-convert.ts; service-facts §8). What the local
// service does not run is its own rule (service/instructions/document-params.ts), not a kind here.

import { anyOf, bool, color, int, json, list, oneOf, text } from './param-kinds';
import { IMAGEMAGICK_PARAMS, RESIZE_STRATEGIES, type RobotParams } from './robots-base';
import { COLORSPACES } from './robots-image';

const SORT_BY = oneOf(['auto', 'basename', 'import_order']);

/** /document/convert's target formats (the vendor's list). */
export const DOCUMENT_CONVERT_FORMATS = [
  'ai', 'csv', 'doc', 'docx', 'eps', 'gif', 'html', 'jpeg', 'jpg', 'latex', 'md', 'oda', 'odd', 'odt', 'ott', 'pdf', 'png',
  'pot', 'pps', 'ppt', 'pptx', 'ppz', 'ps', 'rtf', 'rtx', 'srt', 'svg', 'text', 'txt', 'vtt', 'xhtml', 'xla', 'xls', 'xlsx', 'xml',
] as const;

export const PDF_PAPER_FORMATS = ['A0', 'A1', 'A2', 'A3', 'A4', 'A5', 'A6', 'Ledger', 'Legal', 'Letter', 'Tabloid'] as const;

const OCR: RobotParams = {
  provider: text(),
  granularity: oneOf(['full', 'list']),
  format: oneOf(['json', 'meta', 'text']),
};

export const DOCUMENT_ROBOTS: Readonly<Record<string, RobotParams>> = {
  '/document/thumbs': {
    ...IMAGEMAGICK_PARAMS,
    page: int(1),
    page_range: { ...text(), expects: 'a page range such as "1-20"' },
    format: oneOf(['gif', 'jpeg', 'jpg', 'png']),
    delay: int(0),
    stack: oneOf(['ghostscript', 'vips', 'pdfium']),
    width: int(1, 5000),
    height: int(1, 5000),
    resize_strategy: oneOf(RESIZE_STRATEGIES),
    background: color(),
    alpha: oneOf(['Remove', 'Set']),
    density: { ...text(), expects: 'a density such as "300" or "300x300"' },
    antialiasing: bool(),
    colorspace: oneOf(COLORSPACES),
    trim_whitespace: bool(),
    pdf_use_cropbox: bool(),
    turbo: bool(),
  },
  '/document/merge': {
    input_passwords: list(text()),
    output_password: text(),
    sort_by: SORT_BY,
  },
  '/document/split': {
    pages: anyOf(text(), list(text())),
  },
  '/document/ocr': OCR,
  '/image/ocr': OCR,
  '/document/convert': {
    format: oneOf(DOCUMENT_CONVERT_FORMATS),
    markdown_format: oneOf(['commonmark', 'gfm']),
    markdown_theme: oneOf(['bare', 'github']),
    pdf_margin: text(),
    pdf_print_background: bool(),
    pdf_format: oneOf(PDF_PAPER_FORMATS),
    pdf_display_header_footer: bool(),
    pdf_header_template: text(),
    pdf_footer_template: text(),
  },
  '/html/convert': {
    url: text(),
    format: oneOf(['jpeg', 'jpg', 'pdf', 'png']),
    fullpage: bool(),
    omit_background: bool(),
    width: int(1),
    height: int(1),
    delay: int(0),
    headers: json(),
    wait_until: oneOf(['domcontentloaded', 'load', 'networkidle', 'commit']),
  },
};
