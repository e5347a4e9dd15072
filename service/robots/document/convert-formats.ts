// /document/convert's formats: what each converter here takes and makes (pure; the step's rules in
// service/instructions/document-params.ts read them too).

export const OFFICE_EXTS = new Set(['doc', 'docx', 'odt', 'ott', 'rtf', 'xls', 'xlsx', 'ods', 'ots', 'ppt', 'pptx', 'odp', 'otp', 'pps', 'ppsx', 'pot', 'potx', 'csv', 'xla', 'wpd']);

/** The files LibreOffice writes for `format` (its `--convert-to` takes the extension). */
export const OFFICE_TARGETS = new Set(['pdf', 'doc', 'docx', 'odt', 'ott', 'rtf', 'xls', 'xlsx', 'ppt', 'pptx', 'pps', 'pot', 'csv', 'html', 'xhtml', 'txt', 'text', 'png', 'jpg', 'jpeg']);

/** Targets only LibreOffice makes: a step asking for one is refused at creation where it is missing. */
export const OFFICE_ONLY_TARGETS = new Set([...OFFICE_TARGETS].filter((f) => !['pdf', 'html', 'png', 'jpg', 'jpeg', 'txt', 'text'].includes(f)));

/** Every `format` some converter here makes (`md`: from HTML, by turndown); the vendor's others (ai, eps, latex…) are refused at creation. */
export const LOCAL_TARGETS = new Set([...OFFICE_TARGETS, 'srt', 'vtt', 'md']);
