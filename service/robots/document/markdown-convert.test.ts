// /document/convert of Markdown and images through the real pipeline (executeSteps): Markdown rendered as the
// vendor's markdown_format and markdown_theme say, its HTML sanitised (fast-check over hostile fragments),
// printed by the machine's Chromium — whose requests still pass the address policy: a picture on a private
// address is never fetched — and read back by poppler; PNG and SVG images made one-page PDFs of pdf_format.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateInstructions } from '../../instructions/validate-instructions';
import { executeSteps, type ExecuteContext } from '../execute-steps';
import { describeUpload, type StoredFile } from '../file-record';
import { imageUpload, intranetLookup, makeTempDir, textUpload } from '../test-files';
import { htmlAsMarkdown, markdownAsHtml, markdownBody } from './markdown';

const exec = promisify(execFile);

let dir: string;
let cleanup: () => Promise<void>;
let server: Server;
let base: string;
const seen: string[] = [];

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('markdown-convert-'));
  const blue = await sharp({ create: { width: 300, height: 150, channels: 3, background: '#0000ff' } }).png().toBuffer();
  server = createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/blue.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(blue);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await cleanup();
});

async function run(steps: ExecuteContext['steps'], uploads: StoredFile[]) {
  const results: StoredFile[] = [];
  const warnings: string[] = [];
  const outcome = await executeSteps({
    assemblyId: '6'.repeat(32), steps, uploads, fields: {}, signal: new AbortController().signal,
    workDir: await mkdtemp(join(dir, 'w-')),
    network: { policy: {}, lookup: intranetLookup },
    onResult: (_step, file) => results.push(file),
    onWarning: (_step, message) => warnings.push(message),
  });
  return { outcome, files: results, warnings };
}

const pdfInfo = async (path: string) => {
  const info = (await exec('pdfinfo', [path])).stdout;
  return { size: /^Page size:\s+(\S+ x \S+)/m.exec(info)?.[1] ?? '', pages: Number(/^Pages:\s+(\d+)/m.exec(info)?.[1]) };
};
const pdfText = async (path: string) => (await exec('pdftotext', ['-layout', path, '-'])).stdout.replace(/\s+/g, ' ').trim();

const paperIs = (size: string, width: number, height: number): boolean => {
  const [w, h] = size.split(' x ').map(Number);
  return Math.abs(w! - width) < 1.5 && Math.abs(h! - height) < 1.5;
};
/** Colours compared as a reader sees them: a step or two of rounding apart is the same colour. */
const near = (got: number[], want: number[]): boolean => got.length === 3 && got.every((c, i) => Math.abs(c - want[i]!) <= 4);

/** The page drawn at 20 dpi: the colour at a fraction of its width and height. */
async function colourAt(path: string, fx: number, fy: number): Promise<number[]> {
  const png = join(dir, `page-${seen.length}-${Math.random().toString(36).slice(2)}`);
  await exec('pdftoppm', ['-r', '20', '-png', '-singlefile', path, png]);
  const { data, info } = await sharp(`${png}.png`).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (Math.round(fy * (info.height - 1)) * info.width + Math.round(fx * (info.width - 1))) * 3;
  return [...data.subarray(at, at + 3)];
}

/**
 * The tags of sanitised HTML that could act or load something: an element outside the allow-list, an event
 * handler, a link or source that is not http(s), mailto or an image's data, a style that is not alignment.
 * (Text is escaped in sanitised HTML, so every "<" left opens a real tag.)
 */
function activeContent(html: string): string[] {
  const allowed = /^\/?(h[1-6]|p|a|img|table|thead|tbody|tr|th|td|s|del|sup|sub|code|pre|em|strong|ul|ol|li|blockquote|hr|br|details|summary|div|span|!doctype|html|head|meta|title|style|body|article)$/i;
  const found: string[] = [];
  const body = html.replace(/<style>[^<]*<\/style>/, '');
  for (const [tag, name, attrs] of body.matchAll(/<(\/?[!a-z0-9]+)([^>]*)>/gi)) {
    if (!allowed.test(name!) || (/^(meta|style|html|head|title|body)$/i.test(name!) && body.indexOf(tag) > body.indexOf('<body>'))) found.push(tag);
    else if (/\son\w+\s*=/i.test(attrs!)) found.push(tag);
    else for (const [, key, value] of attrs!.matchAll(/(\w+)="([^"]*)"/g)) {
      if (['href', 'src', 'srcset'].includes(key!) && !/^(https?:|mailto:|data:image\/(png|jpeg|gif|webp);|[^:]*$)/i.test(value!)) found.push(tag);
      if (key === 'style' && !/^text-align:(left|right|center)$/.test(value!)) found.push(tag);
    }
  }
  return found;
}

const README = [
  '# Release notes',
  '',
  '| Plan | Price |',
  '|:-----|------:|',
  '| Basic | 5 |',
  '',
  'Old price ~~9~~ now. <sup>1</sup>',
  '',
  '<script>document.title = "pwned"</script>',
  '<img src="x" onerror="alert(1)"> [click](javascript:alert(1))',
  '',
  '![ok](BASE/blue.png) ![lan](http://intranet.test/secret.png)',
  '',
  '```js',
  'if (a < b) run();',
  '```',
  '',
].join('\n');

describe('/document/convert: Markdown', () => {
  it('renders GitHub-flavoured Markdown as HTML (github theme by default), CommonMark and the bare theme as asked, its scripts and handlers gone', async () => {
    const md = await textUpload(dir, 'notes.md', README.replace('BASE', base));
    const { outcome, files } = await run(
      {
        gfm: { robot: '/document/convert', use: ':original', format: 'html' },
        cm: { robot: '/document/convert', use: ':original', format: 'html', markdown_format: 'commonmark', markdown_theme: 'bare' },
      },
      [md],
    );
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    expect(files.map((f) => [f.name, f.mime])).toEqual([['notes.html', 'text/html'], ['notes.html', 'text/html']]);
    const [gfm, cm] = await Promise.all(files.map((f) => readFile(f.localPath, 'utf8')));
    expect(gfm).toContain('<title>notes</title><style>');
    expect(gfm).toContain('<th style="text-align:left">Plan</th>');
    expect(gfm).toContain('<td style="text-align:right">5</td>');
    expect(gfm).toContain('<s>9</s>');
    expect(gfm).toContain('<sup>1</sup>');
    expect(gfm).toContain('<code class="language-js">if (a &lt; b) run();');
    // CommonMark has no tables nor strikethrough: the pipes and tildes stay text. Bare: no stylesheet.
    expect(cm).not.toContain('<table>');
    expect(cm).toContain('~~9~~');
    expect(cm).not.toContain('<style>');
    for (const page of [gfm!, cm!]) {
      expect(activeContent(page)).toEqual([]);
      expect(page).not.toContain('pwned');
      expect(page).toContain('<img src="x" />');
    }
  });

  it('prints Markdown as PDF through Chromium: pictures from allowed sites drawn, one on a private address never fetched', async () => {
    const md = await textUpload(dir, 'report.md', README.replace('BASE', base));
    const before = seen.length;
    const { outcome, files } = await run({ pdf: { robot: '/document/convert', use: ':original', format: 'pdf', pdf_format: 'A5' } }, [md]);
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    expect(files.map((f) => [f.name, f.mime])).toEqual([['report.pdf', 'application/pdf']]);
    const text = await pdfText(files[0]!.localPath);
    expect(text).toMatch(/Release notes Plan Price Basic 5 Old price 9 now\. 1/);
    expect(text).toContain('if (a < b) run();');
    expect(text).not.toContain('~~');
    // A5 is 420 × 595 points (148 × 210 mm); Chromium rounds the paper to its own units.
    expect(paperIs((await pdfInfo(files[0]!.localPath)).size, 419.5, 595.3)).toBe(true);
    // The loopback picture was asked for (the test's policy allows it); the private one never left the service.
    expect(seen.slice(before)).toEqual(['/blue.png']);
  }, 60_000);

  it('never lets active content through, whatever Markdown and HTML are mixed (fast-check)', () => {
    const fragment = fc.constantFrom(
      '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '<a href="javascript:alert(1)">x</a>', '[x](javascript:alert(1))',
      '<iframe src="http://intranet.test/"></iframe>', '<style>body{background:url(http://intranet.test/)}</style>', '<svg onload=alert(1)>',
      '<object data="x.swf"></object>', '<form action="http://intranet.test/"><input name=a></form>', '<div style="background:url(http://intranet.test/)">s</div>',
      '<a href="vbscript:msgbox">v</a>', '<img src="file:///etc/passwd">', '<link rel=stylesheet href="http://intranet.test/x.css">', '<meta http-equiv=refresh content="0;url=http://intranet.test/">',
      '<base href="http://intranet.test/">', '# Title', '| a | b |\n|---|---|\n| 1 | 2 |', '**bold** _em_', '```\ncode\n```', '> quote', '- item', '\n\n', ' ', '<details><summary>s</summary>', '</details>', '<', '>', '"', '`',
    );
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 12 }), fc.constantFrom('gfm', 'commonmark') as fc.Arbitrary<'gfm' | 'commonmark'>, (parts, format) => {
        expect(activeContent(markdownBody(parts.join(''), format))).toEqual([]);
      }),
    );
    expect(markdownAsHtml('x', { title: '<b>"t"</b>' })).toContain('<title>&lt;b&gt;&quot;t&quot;&lt;/b&gt;</title>');
  });
});

describe('/document/convert: HTML into Markdown (format md, as the vendor lists it)', () => {
  it('writes headings, emphasis, links, lists and code as Markdown; what no reader sees is dropped', async () => {
    const page = await textUpload(dir, 'page.html', '<!doctype html><html><head><title>T</title><style>h1{color:red}</style></head><body><h1>Release notes</h1><p>Now <strong>faster</strong>, see <a href="https://example.com/x">the list</a>.</p><ul><li>one</li><li>two</li></ul><pre><code>npm test</code></pre><script>alert(1)</script><form><input name=a></form></body></html>');
    const { outcome, files } = await run({ md: { robot: '/document/convert', use: ':original', format: 'md' } }, [page]);
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    expect(files.map((f) => f.name)).toEqual(['page.md']);
    expect(await readFile(files[0]!.localPath, 'utf8')).toBe('# Release notes\n\nNow **faster**, see [the list](https://example.com/x).\n\n-   one\n-   two\n\n```\nnpm test\n```\n');
    // Markdown is already Markdown: passed over with the reason; formats the vendor lists and nothing here makes are refused at creation.
    const notes = await run({ md: { robot: '/document/convert', use: ':original', format: 'md' } }, [await textUpload(dir, 'notes.md', '# x')]);
    expect(notes.files).toEqual([]);
    expect(validateInstructions({ c: { robot: '/document/convert', use: ':original', format: 'md' } })).toBeNull();
    expect(validateInstructions({ c: { robot: '/document/convert', use: ':original', format: 'latex' } })).toMatchObject({ code: 'DOCUMENT_CONVERT_VALIDATION', parameter: 'format' });
  });

  it('never turns a script, style or form into text, whatever HTML surrounds it (fast-check)', async () => {
    const fragment = fc.constantFrom('<p>x</p>', '<script>SECRET()</script>', '<style>SECRET{}</style>', '<form><textarea>SECRET</textarea></form>', '<noscript>SECRET</noscript>', '<h2>t</h2>', '<em>e</em>', '<div>', '</div>', '<ul><li>i</li></ul>', ' ', '&amp;');
    await fc.assert(
      fc.asyncProperty(fc.array(fragment, { maxLength: 12 }), async (parts) => {
        expect(await htmlAsMarkdown(`<html><head><title>SECRET</title></head><body>${parts.join('')}</body></html>`)).not.toContain('SECRET');
      }),
    );
  });
});

describe('/document/convert: images into PDF', () => {
  it('puts a PNG and an SVG each on one page of pdf_format, fit within the margins and centred', async () => {
    const png = await imageUpload(dir, 'scan.png', { width: 1200, height: 600, color: { r: 255, g: 0, b: 0 } });
    const svgPath = join(dir, 'logo.svg');
    await writeFile(svgPath, '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><rect width="10" height="10" fill="#00ff00"/><image href="http://intranet.test/track.png" width="1" height="1"/><script>alert(1)</script></svg>');
    const svg = await describeUpload({ localPath: svgPath, name: 'logo.svg', field: 'file' });
    const before = seen.length;
    const { outcome, files } = await run(
      {
        pdf: { robot: '/document/convert', use: ':original', format: 'pdf', pdf_format: 'A4', pdf_margin: '0mm,0mm,0mm,0mm' },
      },
      [png, svg],
    );
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    expect(files.map((f) => [f.name, f.mime, f.meta.page_count])).toEqual([['scan.pdf', 'application/pdf', 1], ['logo.pdf', 'application/pdf', 1]]);
    expect(paperIs((await pdfInfo(files[0]!.localPath)).size, 595.3, 841.9)).toBe(true);
    // 1200 × 600 on A4 at full width: red across the top half's middle, white below it.
    expect(near(await colourAt(files[0]!.localPath, 0.5, 0.1), [255, 0, 0])).toBe(true);
    expect(near(await colourAt(files[0]!.localPath, 0.02, 0.1), [255, 0, 0])).toBe(true);
    expect(near(await colourAt(files[0]!.localPath, 0.5, 0.6), [255, 255, 255])).toBe(true);
    // The square SVG fills the page's width, centred on its height's top; its picture link never left the service.
    expect(near(await colourAt(files[1]!.localPath, 0.5, 0.3), [0, 255, 0])).toBe(true);
    expect(seen.slice(before)).toEqual([]);
    expect(validateInstructions({ c: { robot: '/document/convert', use: ':original', format: 'pdf', markdown_format: 'rst' } })).toMatchObject({ code: 'DOCUMENT_CONVERT_VALIDATION', parameter: 'markdown_format' });
    expect(validateInstructions({ c: { robot: '/document/convert', use: ':original', format: 'html', markdown_theme: 'dark' } })).toMatchObject({ code: 'DOCUMENT_CONVERT_VALIDATION', parameter: 'markdown_theme' });
  }, 60_000);
});
