// The document robots through the real pipeline (executeSteps) on PDFs with words on their pages, written
// in the test; every result is read back as a user would: pages by poppler's pdfinfo and pdftotext, images
// by sharp.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateInstructions } from '../../instructions/validate-instructions';
import { executeSteps, type ExecuteContext } from '../execute-steps';
import { describeUpload, type StoredFile } from '../file-record';
import { makeTempDir, textUpload, withoutTools, writeTextPdf, type PdfPage } from '../test-files';
import { selectPages } from './pdf-pages';
import { pagesToDraw } from './thumbs';

const exec = promisify(execFile);

/** The words on each page of a PDF, as poppler's pdftotext reads them. */
async function pageTexts(path: string): Promise<string[]> {
  const { stdout } = await exec('pdftotext', ['-layout', path, '-']);
  return stdout.split('\f').slice(0, -1).map((t) => t.replace(/\s+/g, ' ').trim());
}

let dir: string;
let cleanup: () => Promise<void>;
let report: StoredFile;
let letter: StoredFile;

const pdfUpload = async (name: string, pages: PdfPage[]) => describeUpload({ localPath: await writeTextPdf(join(dir, name), pages), name, field: 'file' });

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('document-robots-'));
  report = await pdfUpload('report.pdf', [{ lines: ['Page one'] }, { lines: ['Page two'] }, { lines: ['Page three'], width: 792, height: 612 }]);
  letter = await pdfUpload('letter.pdf', [{ lines: ['Dear reader'] }]);
}, 60_000);
afterAll(() => cleanup());

async function run(steps: ExecuteContext['steps'], uploads: StoredFile[]) {
  const results: { step: string; file: StoredFile }[] = [];
  const outcome = await executeSteps({
    assemblyId: '3'.repeat(32), steps, uploads, fields: {}, signal: new AbortController().signal,
    workDir: await mkdtemp(join(dir, 'w-')),
    onResult: (step, file) => results.push({ step, file }),
  });
  return { outcome, files: results.map((r) => r.file) };
}

describe('page lists (pure)', () => {
  it('reads pages and ranges in the order given, and names a page past the end', () => {
    expect(selectPages(['3', '1-2'], 3)).toEqual({ pages: [3, 1, 2] });
    expect(selectPages(['2-9'], 3)).toEqual({ pages: [2, 3] });
    expect(selectPages(['5'], 3)).toEqual({ problem: 'page 5 was asked for, but the PDF has 3 pages' });
    expect(selectPages(['x'], 3)).toMatchObject({ problem: expect.stringContaining('"x" is not a page') });
    expect(pagesToDraw({ page_range: '2-40' }, 3)).toEqual({ pages: [2, 3] });
    expect(pagesToDraw({ page: 2 }, 3)).toEqual({ pages: [2] });
  });

  it('every selected page exists and every in-range entry is kept (any pages, any lists)', () => {
    const entry = fc.oneof(fc.integer({ min: 1, max: 12 }).map(String), fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 5 })).map(([a, d]) => `${a}-${a + d}`));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 12 }), fc.array(entry, { minLength: 1, maxLength: 6 }), (count, entries) => {
        const chosen = selectPages(entries, count);
        const starts = entries.map((e) => Number(e.split('-')[0]));
        if (starts.some((s) => s > count)) return 'problem' in chosen;
        return 'pages' in chosen && chosen.pages.every((p) => p >= 1 && p <= count) && starts.every((s) => chosen.pages.includes(s));
      }),
    );
  });
});

describe('/document/thumbs', () => {
  it('draws every page at 72 dpi (a Letter page 612 × 792, the landscape one 792 × 612), thumb_index from 0', async () => {
    const { outcome, files } = await run({ thumbs: { robot: '/document/thumbs', use: ':original', trim_whitespace: false } }, [report]);
    expect(outcome).toMatchObject({ ok: true });
    expect(files.map((f) => [f.name, f.mime, f.meta.width, f.meta.height, f.meta.thumb_index, f.meta.page_count])).toEqual([
      ['report_1.png', 'image/png', 612, 792, 0, 3],
      ['report_2.png', 'image/png', 612, 792, 1, 3],
      ['report_3.png', 'image/png', 792, 612, 2, 3],
    ]);
  });

  it('trims the white around the words by default, and fits one page into width × height on white (pad)', async () => {
    const trimmed = await run({ thumbs: { robot: '/document/thumbs', use: ':original', page: 1 } }, [letter]);
    const t = trimmed.files[0]!;
    expect(t.meta.width as number).toBeLessThan(612 / 2);
    expect(t.meta.height as number).toBeLessThan(80);
    const padded = await run({ thumbs: { robot: '/document/thumbs', use: ':original', page: 2, width: 300, height: 300, format: 'jpg', trim_whitespace: false } }, [report]);
    expect(padded.files.map((f) => [f.name, f.mime, f.meta.width, f.meta.height])).toEqual([['report_2.jpg', 'image/jpeg', 300, 300]]);
    // pad: the page's sides are the background colour (white), the page itself in the middle.
    const { data, info } = await sharp(padded.files[0]!.localPath).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => data[(y * info.width + x) * info.channels]!;
    expect(at(2, 150)).toBeGreaterThan(240);
  });

  it('draws a page_range (stopping at the last page), and all pages as one animated gif', async () => {
    const ranged = await run({ thumbs: { robot: '/document/thumbs', use: ':original', page_range: '2-20', width: 100 } }, [report]);
    expect(ranged.files.map((f) => [f.name, f.meta.thumb_index, f.meta.width])).toEqual([['report_2.png', 0, 100], ['report_3.png', 1, 100]]);
    const gif = await run({ thumbs: { robot: '/document/thumbs', use: ':original', format: 'gif', width: 120, height: 160, delay: 50 } }, [report]);
    expect(gif.files).toHaveLength(1);
    const meta = await sharp(gif.files[0]!.localPath, { animated: true }).metadata();
    expect([gif.files[0]!.mime, meta.pages, meta.width, meta.pageHeight, meta.delay]).toEqual(['image/gif', 3, 120, 160, [500, 500, 500]]);
  });

  it('says a page past the end, skips what is not a PDF, and refuses bad page parameters at creation', async () => {
    const past = await run({ thumbs: { robot: '/document/thumbs', use: ':original', page: 4 } }, [report]);
    expect(past.outcome).toMatchObject({ ok: false, code: 'DOCUMENT_THUMBS_VALIDATION', message: expect.stringContaining('the PDF has 3 pages') });
    const notPdf = await run({ thumbs: { robot: '/document/thumbs', use: ':original' } }, [await textUpload(dir, 'notes.txt', 'hello')]);
    expect(notPdf.outcome).toMatchObject({ ok: false, code: 'INVALID_INPUT_ERROR', message: expect.stringContaining('Not a PDF') });
    expect(validateInstructions({ t: { robot: '/document/thumbs', use: ':original', page: 1, page_range: '1-2' } })).toMatchObject({ code: 'DOCUMENT_THUMBS_VALIDATION', parameter: 'page_range' });
    expect(validateInstructions({ t: { robot: '/document/thumbs', use: ':original', page_range: '5-2' } })).toMatchObject({ code: 'DOCUMENT_THUMBS_VALIDATION', parameter: 'page_range' });
    expect(validateInstructions({ t: { robot: '/document/thumbs', use: ':original', width: 6000 } })).toMatchObject({ code: 'DOCUMENT_THUMBS_VALIDATION', parameter: 'width' });
    expect(validateInstructions({ t: { robot: '/document/thumbs', use: ':original', format: 'tiff' } })).toMatchObject({ code: 'DOCUMENT_THUMBS_VALIDATION', parameter: 'format' });
  });
});

describe('/document/merge and /document/split', () => {
  it('merges PDFs in natural name order, or in the order document_1, document_2 say', async () => {
    const byName = await run({ merged: { robot: '/document/merge', use: ':original' } }, [report, letter]);
    expect(byName.files.map((f) => [f.name, f.mime, f.meta.page_count])).toEqual([['letter.pdf', 'application/pdf', 4]]);
    expect(await pageTexts(byName.files[0]!.localPath)).toEqual(['Dear reader', 'Page one', 'Page two', 'Page three']);
    const ordered = await run(
      {
        a: { robot: '/file/filter', use: ':original', accepts: [['${file.name}', '==', 'report.pdf']] },
        b: { robot: '/file/filter', use: ':original', accepts: [['${file.name}', '==', 'letter.pdf']] },
        merged: { robot: '/document/merge', use: { steps: [{ name: 'a', as: 'document_1' }, { name: 'b', as: 'document_2' }], bundle_steps: true } },
      },
      [report, letter],
    );
    expect(ordered.outcome).toMatchObject({ ok: true });
    const merged = ordered.files.find((f) => f.ext === 'pdf' && f.meta.page_count === 4)!;
    expect(await pageTexts(merged.localPath)).toEqual(['Page one', 'Page two', 'Page three', 'Dear reader']);
  });

  it('merges one PDF named twice (document_1 and document_2 both :original) twice', async () => {
    const { outcome, files } = await run({ merged: { robot: '/document/merge', use: [{ name: ':original', as: 'document_1' }, { name: ':original', as: 'document_2' }] } }, [letter]);
    expect(outcome).toMatchObject({ ok: true });
    expect(files.map((f) => [f.name, f.meta.page_count])).toEqual([['letter.pdf', 2]]);
    expect(await pageTexts(files[0]!.localPath)).toEqual(['Dear reader', 'Dear reader']);
  });

  it('keeps the pages `pages` selects, in the order given, as one PDF', async () => {
    const some = await run({ cut: { robot: '/document/split', use: ':original', pages: ['3', '1'] } }, [report]);
    expect(some.files.map((f) => [f.name, f.meta.page_count])).toEqual([['report.pdf', 2]]);
    expect(await pageTexts(some.files[0]!.localPath)).toEqual(['Page three', 'Page one']);
    const range = await run({ cut: { robot: '/document/split', use: ':original', pages: '2-3' } }, [report]);
    expect(await pageTexts(range.files[0]!.localPath)).toEqual(['Page two', 'Page three']);
    const past = await run({ cut: { robot: '/document/split', use: ':original', pages: '7' } }, [report]);
    expect(past.outcome).toMatchObject({ ok: false, code: 'DOCUMENT_SPLIT_VALIDATION', message: expect.stringContaining('the PDF has 3 pages') });
    expect(validateInstructions({ c: { robot: '/document/split', use: ':original', pages: ['2-x'] } })).toMatchObject({ code: 'DOCUMENT_SPLIT_VALIDATION', parameter: 'pages' });
    expect(validateInstructions({ m: { robot: '/document/merge', use: ':original', output_password: 'secret' } })).toMatchObject({ code: 'DOCUMENT_MERGE_VALIDATION', parameter: 'output_password' });
  });

  it('is refused with <ROBOT>_TOOL_MISSING, saying what to install, where poppler is not installed', async () => {
    await withoutTools(() => {
      expect(validateInstructions({ t: { robot: '/document/thumbs', use: ':original' } })).toMatchObject({ code: 'DOCUMENT_THUMBS_TOOL_MISSING', message: expect.stringContaining('apt install poppler-utils') });
      expect(validateInstructions({ m: { robot: '/document/merge', use: ':original' } })).toMatchObject({ code: 'DOCUMENT_MERGE_TOOL_MISSING' });
    });
  });
});

describe('/document/ocr and /image/ocr (Tesseract)', () => {
  it('reads the words of every PDF page: lines with their page, confidence and box, as text, or in meta', async () => {
    const invoice = await pdfUpload('invoice.pdf', [{ lines: ['INVOICE NUMBER 4711', 'Total due 99 EUR'], width: 480, height: 220 }, { lines: ['Thank you'], width: 480, height: 160 }]);
    const json = await run({ ocr: { robot: '/document/ocr', use: ':original' } }, [invoice]);
    expect(json.outcome).toMatchObject({ ok: true });
    const lines = JSON.parse(await readFile(json.files[0]!.localPath, 'utf8')) as { text: string; page: number; confidence: number; box: { top: number } }[];
    expect(json.files[0]!.name).toBe('invoice.json');
    expect(lines.map((l) => [l.text, l.page])).toEqual([['INVOICE NUMBER 4711', 1], ['Total due 99 EUR', 1], ['Thank you', 2]]);
    expect(lines[0]!.confidence).toBeGreaterThan(50);
    expect(lines[1]!.box.top).toBeGreaterThan(lines[0]!.box.top);
    const text = await run({ ocr: { robot: '/document/ocr', use: ':original', format: 'text' } }, [invoice]);
    expect(text.files.map((f) => [f.name, f.mime])).toEqual([['invoice.txt', 'text/plain']]);
    expect(await readFile(text.files[0]!.localPath, 'utf8')).toContain('Total due 99 EUR');
    const meta = await run({ ocr: { robot: '/document/ocr', use: ':original', format: 'meta' } }, [invoice]);
    expect(meta.files.map((f) => [f.name, f.mime, f.meta.recognized_text, f.meta.page_count])).toEqual([['invoice.pdf', 'application/pdf', ['INVOICE NUMBER 4711', 'Total due 99 EUR', 'Thank you'], 2]]);
  }, 90_000);

  it('reads the words of an image (a page drawn by /document/thumbs, as webp too), granularity list', async () => {
    const drawn = await run(
      {
        page: { robot: '/document/thumbs', use: ':original', density: '150' },
        webp: { robot: '/image/resize', use: 'page', format: 'webp', width: 900 },
        ocr: { robot: '/image/ocr', use: ['page', 'webp'], granularity: 'list' },
      },
      [letter],
    );
    expect(drawn.outcome).toMatchObject({ ok: true });
    const results = drawn.files.filter((f) => f.ext === 'json');
    expect(results).toHaveLength(2);
    for (const f of results) expect(JSON.parse(await readFile(f.localPath, 'utf8'))).toEqual(['Dear reader']);
  }, 90_000);

  it('reads German with its letters (ß, ö, ü) where its language pack is installed, as the vendor detects the language without being told', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="900" height="160"><rect width="100%" height="100%" fill="#fff"/><text x="20" y="70" font-family="DejaVu Sans, sans-serif" font-size="44">Größe der Straße</text><text x="20" y="130" font-family="DejaVu Sans, sans-serif" font-size="44">Übung für Müller</text></svg>`;
    const path = join(dir, 'schild.png');
    await sharp(Buffer.from(svg)).png().toFile(path);
    const sign = await describeUpload({ localPath: path, name: 'schild.png', field: 'file' });
    const { outcome, files } = await run({ ocr: { robot: '/image/ocr', use: ':original', granularity: 'list' } }, [sign]);
    expect(outcome).toMatchObject({ ok: true });
    expect(JSON.parse(await readFile(files[0]!.localPath, 'utf8'))).toEqual(['Größe der Straße', 'Übung für Müller']);
  });

  it('refuses OCR at creation, saying what to install, where Tesseract has no English pack', async () => {
    const { dir: empty, cleanup: done } = await makeTempDir('tessdata-');
    const before = process.env.TESSDATA_PREFIX;
    process.env.TESSDATA_PREFIX = empty;
    try {
      expect(validateInstructions({ o: { robot: '/image/ocr', use: ':original' } })).toMatchObject({ code: 'IMAGE_OCR_TOOL_MISSING', message: expect.stringContaining('apt install tesseract-ocr-eng') });
    } finally {
      if (before === undefined) delete process.env.TESSDATA_PREFIX;
      else process.env.TESSDATA_PREFIX = before;
      await done();
    }
  });

  it('skips what it cannot read, and is refused with <ROBOT>_TOOL_MISSING where Tesseract is not installed', async () => {
    const notPdf = await run({ ocr: { robot: '/document/ocr', use: ':original' } }, [await textUpload(dir, 'plain.txt', 'words')]);
    expect(notPdf.outcome).toMatchObject({ ok: false, code: 'INVALID_INPUT_ERROR', message: expect.stringContaining('Not a PDF') });
    expect(validateInstructions({ o: { robot: '/image/ocr', use: ':original', format: 'xml' } })).toMatchObject({ code: 'IMAGE_OCR_VALIDATION', parameter: 'format' });
    await withoutTools(() => {
      expect(validateInstructions({ o: { robot: '/image/ocr', use: ':original' } })).toMatchObject({ code: 'IMAGE_OCR_TOOL_MISSING', message: expect.stringContaining('apt install tesseract-ocr') });
    });
  });
});
