// Markdown for /document/convert: rendered by markdown-it as the vendor's `markdown_format` says
// (`gfm`, the default: tables, strikethrough, bare links made links; `commonmark`: the spec alone), its raw
// HTML kept only as far as sanitize-html's allow-list goes (no script, style, iframe, form, event handler or
// javascript: link), then styled by `markdown_theme` (`github`, the default, or `bare`). The page goes to
// Chromium for PDF and images, where every request it makes still passes the service's address policy.

import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

export type MarkdownFormat = 'gfm' | 'commonmark';
export type MarkdownTheme = 'github' | 'bare';

const PARSERS: Record<MarkdownFormat, { render(source: string): string }> = {
  commonmark: new MarkdownIt('commonmark', { html: true }),
  gfm: new MarkdownIt('default', { html: true, linkify: true }),
};

/** What survives of the Markdown's HTML: the text-level and block tags a README uses, no active content. */
const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, 'img', 'del', 'ins', 'details', 'summary', 'picture', 'source'],
  allowedAttributes: {
    a: ['href', 'name', 'title', 'id'],
    img: ['src', 'srcset', 'alt', 'title', 'width', 'height'],
    source: ['srcset', 'media', 'type'],
    code: ['class'],
    th: ['style', 'align'],
    td: ['style', 'align'],
    ol: ['start'],
    details: ['open'],
    '*': ['id', 'dir', 'lang'],
  },
  allowedClasses: { code: ['language-*'] },
  allowedStyles: { th: { 'text-align': [/^(left|right|center)$/] }, td: { 'text-align': [/^(left|right|center)$/] } },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'], source: ['http', 'https', 'data'] },
  allowProtocolRelative: false,
};

/** The `github` theme: GitHub's README look in a few rules (system fonts, rules under h1/h2, boxed code and tables). */
const GITHUB_CSS = `
body{margin:0;color:#1f2328;background:#fff;font:16px/1.5 -apple-system,"Segoe UI","Noto Sans",Helvetica,Arial,sans-serif}
.markdown-body{box-sizing:border-box;max-width:980px;margin:0 auto;padding:32px;overflow-wrap:break-word}
h1,h2,h3,h4,h5,h6{margin:24px 0 16px;font-weight:600;line-height:1.25}
h1{font-size:2em;padding-bottom:.3em;border-bottom:1px solid #d1d9e0}h2{font-size:1.5em;padding-bottom:.3em;border-bottom:1px solid #d1d9e0}
h3{font-size:1.25em}h4{font-size:1em}h5{font-size:.875em}h6{font-size:.85em;color:#59636e}
p,blockquote,ul,ol,dl,table,pre,details{margin:0 0 16px}
a{color:#0969da;text-decoration:underline}
blockquote{padding:0 1em;color:#59636e;border-left:.25em solid #d1d9e0}
ul,ol{padding-left:2em}
code{padding:.2em .4em;font:85% ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;background:#eff1f3;border-radius:6px}
pre{padding:16px;overflow:auto;line-height:1.45;background:#f6f8fa;border-radius:6px;white-space:pre-wrap}
pre code{padding:0;font-size:85%;background:transparent}
table{border-collapse:collapse;display:block;width:max-content;max-width:100%;overflow:auto}
th,td{padding:6px 13px;border:1px solid #d1d9e0}th{font-weight:600}tr:nth-child(2n){background:#f6f8fa}
hr{height:.25em;margin:24px 0;padding:0;background:#d1d9e0;border:0}
img{max-width:100%;box-sizing:content-box}
`;

const escapeText = (s: string): string => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

/** The Markdown's body as safe HTML (pure). */
export function markdownBody(source: string, format: MarkdownFormat = 'gfm'): string {
  return sanitizeHtml(PARSERS[format].render(source.replace(/^\uFEFF/, '')), SANITIZE);
}

/** A whole HTML document for the Markdown, titled and styled as asked (pure). */
export function markdownAsHtml(source: string, options: { format?: MarkdownFormat; theme?: MarkdownTheme; title: string }): string {
  const style = (options.theme ?? 'github') === 'github' ? `<style>${GITHUB_CSS.trim()}</style>` : '';
  return `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escapeText(options.title)}</title>${style}</head>\n<body><article class="markdown-body">\n${markdownBody(source, options.format)}</article></body></html>\n`;
}

/**
 * HTML as Markdown (`format: "md"` of an HTML file), by turndown: ATX headings, fenced code, `-` lists.
 * What a reader never sees — the head, scripts, styles, forms, embedded frames and objects — is dropped, not
 * turned into text. turndown is loaded on the first use: only this conversion needs it.
 */
export async function htmlAsMarkdown(html: string): Promise<string> {
  const { default: TurndownService } = await import('turndown');
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
  turndown.remove(['head', 'title', 'meta', 'link', 'base', 'script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'form']);
  return `${turndown.turndown(html).trim()}\n`;
}
