// /document/convert through the real pipeline (executeSteps): HTML and text printed by the machine's
// Chromium and read back by poppler, subtitles converted both ways, and a Word document written by the test
// converted by LibreOffice where it is installed — and where it is not (a PATH without soffice), the
// step says what to install.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateInstructions } from '../../instructions/validate-instructions';
import { executeSteps, type ExecuteContext } from '../execute-steps';
import { describeUpload, type StoredFile } from '../file-record';
import { toolInstalled } from '../media/tools';
import { makeTempDir, textUpload, withoutTools, writeTextPdf } from '../test-files';
import { readCues, writeSrt, writeVtt, type Cue } from './subtitles';
import { writeDocx } from './test-docx';

const exec = promisify(execFile);

let dir: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('document-convert-'));
});
afterAll(() => cleanup());

async function run(steps: ExecuteContext['steps'], uploads: StoredFile[]) {
  const results: StoredFile[] = [];
  const warnings: string[] = [];
  const outcome = await executeSteps({
    assemblyId: '5'.repeat(32), steps, uploads, fields: {}, signal: new AbortController().signal,
    workDir: await mkdtemp(join(dir, 'w-')),
    onResult: (_step, file) => results.push(file),
    onWarning: (_step, message) => warnings.push(message),
  });
  return { outcome, files: results, warnings };
}

/** Page size in points and the text of each page, as poppler reads them. */
async function readPdf(path: string): Promise<{ size: string; pages: string[] }> {
  const info = (await exec('pdfinfo', [path])).stdout;
  const text = (await exec('pdftotext', ['-layout', path, '-'])).stdout;
  return { size: /^Page size:\s+(\S+ x \S+)/m.exec(info)?.[1] ?? '', pages: text.split('\f').slice(0, -1).map((t) => t.replace(/\s+/g, ' ').trim()) };
}

describe('/document/convert: HTML and text by Chromium', () => {
  it('prints HTML as a PDF of the paper pdf_format names, with the footer template numbering its pages', async () => {
    const page = await textUpload(dir, 'invoice.html', '<html><body><h1>Invoice 42</h1><p style="page-break-after:always">First page</p><p>Second page</p></body></html>');
    const { outcome, files } = await run(
      { pdf: { robot: '/document/convert', use: ':original', format: 'pdf', pdf_format: 'A4', pdf_display_header_footer: true, pdf_footer_template: '<div style="font-size:10px">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div>' } },
      [page],
    );
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    expect(files.map((f) => [f.name, f.mime, f.meta.page_count])).toEqual([['invoice.pdf', 'application/pdf', 2]]);
    const pdf = await readPdf(files[0]!.localPath);
    // A4 is 595 × 842 points (210 × 297 mm); Chromium rounds the paper to its own units.
    const [w, h] = pdf.size.split(' x ').map(Number);
    expect([Math.abs(w! - 595.3) < 1.5, Math.abs(h! - 841.9) < 1.5]).toEqual([true, true]);
    expect(pdf.pages[0]).toContain('Invoice 42 First page');
    expect(pdf.pages[0]).toContain('Page 1 of 2');
    expect(pdf.pages[1]).toContain('Page 2 of 2');
  });

  it('prints plain text with its lines kept (Letter by default), and makes it HTML that shows the same text', async () => {
    const notes = await textUpload(dir, 'notes.txt', 'Shopping <list>\n  milk & eggs\n');
    const { outcome, files } = await run(
      { pdf: { robot: '/document/convert', use: ':original', format: 'pdf' }, page: { robot: '/document/convert', use: ':original', format: 'html' } },
      [notes],
    );
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    expect(files.map((f) => [f.name, f.mime])).toEqual([['notes.pdf', 'application/pdf'], ['notes.html', 'text/html']]);
    const pdf = await readPdf(files[0]!.localPath);
    expect([pdf.size, pdf.pages]).toEqual(['612 x 792', ['Shopping <list> milk & eggs']]);
    expect(await readFile(files[1]!.localPath, 'utf8')).toContain('<pre>Shopping &lt;list&gt;\n  milk &amp; eggs\n</pre>');
  });

  it('passes over a PDF and a pair it does not convert, saying why; refuses bad parameters at creation', async () => {
    const pdf = await describeUpload({ localPath: await writeTextPdf(join(dir, 'ready.pdf'), [{ lines: ['Done'] }]), name: 'ready.pdf', field: 'file' });
    const subs = await textUpload(dir, 'talk.srt', '1\n00:00:01,000 --> 00:00:02,000\nHello\n');
    const { outcome, warnings } = await run({ c: { robot: '/document/convert', use: ':original', format: 'png' } }, [pdf, subs]);
    expect(outcome).toMatchObject({ ok: false, code: 'INVALID_INPUT_ERROR' });
    expect(warnings.join('\n')).toContain('converts files to PDF, not from it');
    expect(warnings.join('\n')).toContain('does not convert subtitles to png');
    expect(validateInstructions({ c: { robot: '/document/convert', use: ':original' } })).toMatchObject({ code: 'DOCUMENT_CONVERT_VALIDATION', parameter: 'format' });
    expect(validateInstructions({ c: { robot: '/document/convert', use: ':original', format: 'bmp' } })).toMatchObject({ code: 'DOCUMENT_CONVERT_VALIDATION', parameter: 'format' });
    expect(validateInstructions({ c: { robot: '/document/convert', use: ':original', format: 'eps' } })).toMatchObject({ code: 'DOCUMENT_CONVERT_VALIDATION', message: expect.stringContaining('not made by the local service') });
    expect(validateInstructions({ c: { robot: '/document/convert', use: ':original', format: 'pdf', pdf_margin: '1cm,2cm' } })).toMatchObject({ code: 'DOCUMENT_CONVERT_VALIDATION', parameter: 'pdf_margin' });
    expect(validateInstructions({ c: { robot: '/document/convert', use: ':original', format: 'pdf', pdf_format: 'B5' } })).toMatchObject({ code: 'DOCUMENT_CONVERT_VALIDATION', parameter: 'pdf_format' });
    expect(validateInstructions({ c: { robot: '/document/convert', use: ':original', format: 'pdf', pdf_margin: '10px,1in,2.5cm,6.25mm' } })).toBeNull();
  });
});

describe('/document/convert: subtitles', () => {
  it('turns SubRip into WebVTT and back', async () => {
    const srt = await textUpload(dir, 'talk.srt', '\uFEFF1\r\n00:00:01,500 --> 00:00:03,000\r\nHello <i>there</i>\r\n\r\n2\r\n01:02:03,004 --> 01:02:05,000\r\nTwo\r\nlines\r\n');
    const vtt = await textUpload(dir, 'film.vtt', 'WEBVTT\n\nNOTE made by hand\n\nintro\n00:01.000 --> 00:02.250 align:start\nShort hours\n');
    const { outcome, files } = await run({ v: { robot: '/document/convert', use: ':original', format: 'vtt' }, s: { robot: '/document/convert', use: ':original', format: 'srt' } }, [srt, vtt]);
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    const byName = Object.fromEntries(await Promise.all(files.map(async (f) => [f.name, await readFile(f.localPath, 'utf8')])));
    expect(byName['talk.vtt']).toBe('WEBVTT\n\n1\n00:00:01.500 --> 00:00:03.000\nHello <i>there</i>\n\n2\n01:02:03.004 --> 01:02:05.000\nTwo\nlines\n');
    expect(byName['film.srt']).toBe('1\n00:00:01,000 --> 00:00:02,250\nShort hours\n');
    expect(files.find((f) => f.name === 'talk.vtt')!.meta.cue_count).toBe(2);
  });

  it('keeps every cue, its times and its text through SubRip → WebVTT → SubRip (any cues)', () => {
    const line = fc.stringMatching(/^[A-Za-z0-9 ,.!?'<>/é]{1,30}$/).filter((l) => l.trim() !== '');
    const cue = fc.tuple(fc.integer({ min: 0, max: 99 * 3_600_000 }), fc.integer({ min: 0, max: 600_000 }), fc.array(line, { minLength: 1, maxLength: 3 }))
      .map(([start, length, lines]): Cue => ({ start, end: start + length, text: lines.map((l) => l.trim()).join('\n') }));
    fc.assert(
      fc.property(fc.array(cue, { minLength: 1, maxLength: 8 }), (cues) => {
        const back = readCues(writeSrt(readCues(writeVtt(cues))!));
        expect(back).toEqual(cues);
      }),
    );
  });
});

describe('/document/convert: office files by LibreOffice', () => {
  const docxUpload = async () => describeUpload({ localPath: await writeDocx(join(dir, 'minutes.docx'), ['Board minutes', 'Budget approved']), name: 'minutes.docx', field: 'file' });

  it('converts a Word document to PDF and to OpenDocument where LibreOffice is installed, else says what to install', async () => {
    const docx = await docxUpload();
    const { outcome, files } = await run({ pdf: { robot: '/document/convert', use: ':original', format: 'pdf' } }, [docx]);
    if (!toolInstalled('soffice')) {
      expect(outcome).toMatchObject({ ok: false, code: 'DOCUMENT_CONVERT_TOOL_MISSING', message: expect.stringContaining('apt install libreoffice') });
      return;
    }
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    expect(files.map((f) => [f.name, f.mime, f.meta.page_count])).toEqual([['minutes.pdf', 'application/pdf', 1]]);
    expect((await readPdf(files[0]!.localPath)).pages).toEqual(['Board minutes Budget approved']);
    const odt = await run({ odt: { robot: '/document/convert', use: ':original', format: 'odt' } }, [docx]);
    expect(odt.files.map((f) => [f.name, f.mime])).toEqual([['minutes.odt', 'application/vnd.oasis.opendocument.text']]);
  }, 120_000);

  it('without soffice on PATH: an office-only format is refused at creation, and a Word document into PDF fails at its file, both saying what to install', async () => {
    const docx = await docxUpload();
    await withoutTools(async () => {
      expect(validateInstructions({ c: { robot: '/document/convert', use: ':original', format: 'docx' } })).toMatchObject({
        code: 'DOCUMENT_CONVERT_TOOL_MISSING', message: expect.stringContaining('apt install libreoffice'),
      });
      // pdf is made from HTML without LibreOffice, so the step is accepted; the Word document fails when it runs.
      expect(validateInstructions({ c: { robot: '/document/convert', use: ':original', format: 'pdf' } })).toBeNull();
      const { outcome } = await run({ c: { robot: '/document/convert', use: ':original', format: 'pdf' } }, [docx]);
      expect(outcome).toMatchObject({ ok: false, code: 'DOCUMENT_CONVERT_TOOL_MISSING', message: expect.stringMatching(/soffice is not installed.*apt install libreoffice/) });
    });
  });
});
