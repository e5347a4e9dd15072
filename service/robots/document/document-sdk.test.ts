// The document robots (/document/thumbs, merge, split, ocr, convert) and the file robots /file/compress,
// /file/decompress and /file/preview through the vendor's own Node SDK (@transloadit/node) against the
// local service over real HTTP: one Assembly on real PDFs, Markdown and a PNG, and every result fetched
// from its URL and read again (pages by pdftotext, pixels by sharp, the archive unpacked by the service).

import { execFile } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Transloadit } from '@transloadit/node';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFixture, tempDir, type Fixture } from '../../testing/service-fixture';
import { writeImage, writeTextPdf } from '../test-files';

const exec = promisify(execFile);

/** The text of each page of a PDF, by Poppler's pdftotext (pages end with a form feed). */
async function pagesOf(path: string): Promise<string[]> {
  const { stdout } = await exec('pdftotext', ['-layout', path, '-']);
  return stdout.split('\f').slice(0, -1).map((t) => t.replace(/\s+/g, ' ').trim());
}

const download = async (url: string, path: string): Promise<string> => {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  await writeFile(path, Buffer.from(await res.arrayBuffer()));
  return path;
};

describe('the vendor Node SDK drives the document and file robots', () => {
  let fx: Fixture;
  let dir: string;
  beforeAll(async () => {
    fx = await startFixture({ requireSignature: true });
    dir = await tempDir('sdk-documents-');
  });
  afterAll(async () => {
    await fx.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('draws, merges, splits, reads, converts, packs, unpacks and previews through @transloadit/node', async () => {
    const small = { width: 360, height: 200 };
    const report = await writeTextPdf(join(dir, 'report.pdf'), [{ lines: ['Page one'], ...small }, { lines: ['Page two'], ...small }, { lines: ['Page three'], ...small }], 'Report');
    const letter = await writeTextPdf(join(dir, 'letter.pdf'), [{ lines: ['Dear reader'], ...small }], 'Letter');
    const notes = join(dir, 'notes.md');
    await writeFile(notes, '# Minutes\n\nWe agreed on *three* things.\n');
    const photo = await writeImage(join(dir, 'photo.png'), { width: 64, height: 48 });
    const client = new Transloadit({ authKey: fx.service.authKey, authSecret: fx.service.authSecret, endpoint: fx.service.url });
    const only = (field: string) => ({ steps: [{ name: ':original', fields: field }] });
    const status = await client.createAssembly({
      files: { report, letter, notes, photo },
      params: {
        steps: {
          ':original': { robot: '/upload/handle' },
          thumbs: { robot: '/document/thumbs', use: only('report'), width: 120, height: 120, trim_whitespace: false },
          merged: { robot: '/document/merge', use: { steps: [{ name: ':original', fields: 'report', as: 'document_2' }, { name: ':original', fields: 'letter', as: 'document_1' }], bundle_steps: true } },
          cut: { robot: '/document/split', use: only('report'), pages: '2-3' },
          read: { robot: '/document/ocr', use: only('letter'), format: 'text' },
          html: { robot: '/document/convert', use: only('notes'), format: 'html' },
          photo_pdf: { robot: '/document/convert', use: only('photo'), format: 'pdf' },
          packed: { robot: '/file/compress', use: { steps: [{ name: ':original', fields: ['report', 'letter'] }], bundle_steps: true }, format: 'zip', archive_name: 'papers', file_layout: 'simple', result: true },
          unpacked: { robot: '/file/decompress', use: 'packed' },
          preview: { robot: '/file/preview', use: only('report'), width: 150, height: 100 },
        },
      } as never,
      waitForCompletion: true,
    });
    expect(status.ok, JSON.stringify(status.message ?? status.error)).toBe('ASSEMBLY_COMPLETED');
    const results = status.results!;
    const sizes = Object.fromEntries((status.uploads ?? []).map((u) => [u.name, u.size]));

    // One PNG per page, each fitted into 120 × 120, numbered from 0.
    const thumbs = results.thumbs!;
    expect(thumbs.map((t) => t.meta?.thumb_index)).toEqual([0, 1, 2]);
    for (const t of thumbs) {
      expect(t.mime).toBe('image/png');
      const { width, height } = await sharp(await download(t.ssl_url!, join(dir, `thumb-${t.meta?.thumb_index}.png`))).metadata();
      expect([width, height]).toEqual([t.meta?.width, t.meta?.height]);
      expect(Math.max(width!, height!)).toBe(120);
    }

    // The letter first (document_1), then the report's three pages.
    expect(results.merged!.map((f) => [f.name, f.meta?.page_count])).toEqual([['letter.pdf', 4]]);
    expect(await pagesOf(await download(results.merged![0]!.ssl_url!, join(dir, 'merged.pdf')))).toEqual(['Dear reader', 'Page one', 'Page two', 'Page three']);
    expect(results.cut!.map((f) => f.meta?.page_count)).toEqual([2]);
    expect(await pagesOf(await download(results.cut![0]!.ssl_url!, join(dir, 'cut.pdf')))).toEqual(['Page two', 'Page three']);

    // Tesseract read the letter's words from its pixels.
    expect(results.read!.map((f) => [f.name, f.mime])).toEqual([['letter.txt', 'text/plain']]);
    expect(await (await fetch(results.read![0]!.ssl_url!)).text()).toContain('Dear reader');

    // Markdown rendered to HTML; the PNG became a one-page PDF.
    expect(results.html!.map((f) => [f.name, f.mime])).toEqual([['notes.html', 'text/html']]);
    const html = await (await fetch(results.html![0]!.ssl_url!)).text();
    expect(html).toMatch(/<h1[^>]*>Minutes<\/h1>/);
    expect(html).toContain('<em>three</em>');
    expect(results.photo_pdf!.map((f) => [f.name, f.mime, f.meta?.page_count])).toEqual([['photo.pdf', 'application/pdf', 1]]);

    // One zip of both PDFs, unpacked again: the same names and sizes as uploaded.
    expect(results.packed!.map((f) => [f.name, f.mime])).toEqual([['papers.zip', 'application/zip']]);
    expect(results.unpacked!.map((f) => [f.name, f.size]).sort()).toEqual([['letter.pdf', sizes['letter.pdf']], ['report.pdf', sizes['report.pdf']]]);

    // A preview of the PDF's first page, 150 × 100.
    const preview = results.preview!;
    expect(preview.map((f) => [f.name, f.mime, f.meta?.width, f.meta?.height])).toEqual([['report.png', 'image/png', 150, 100]]);
    const drawn = await sharp(await download(preview[0]!.ssl_url!, join(dir, 'preview.png'))).metadata();
    expect([drawn.width, drawn.height]).toEqual([150, 100]);
  }, 120_000);
});
