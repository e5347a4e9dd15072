// PDFs with words on their pages, written by hand for the document robots' tests (Helvetica, one of the
// 14 standard fonts every reader has; offsets computed, so poppler and ExifTool accept them).

import { writeFile } from 'node:fs/promises';

export interface PdfPage {
  /** Lines of text, drawn large from the top left. */
  lines: string[];
  width?: number;
  height?: number;
}

const escapePdf = (s: string): string => s.replace(/[\\()]/g, (c) => `\\${c}`);

/** A PDF whose pages carry `lines` in 36 pt Helvetica, black on white, 72 pt from the top left. */
export async function writeTextPdf(path: string, pages: readonly PdfPage[], title = 'Words'): Promise<string> {
  const n = pages.length;
  // 1 catalog, 2 pages, 3 font, then per page: the page and its content stream, then the info.
  const pageObj = (i: number) => 4 + i * 2;
  const objects: string[] = [
    '<</Type/Catalog/Pages 2 0 R>>',
    `<</Type/Pages/Kids[${pages.map((_, i) => `${pageObj(i)} 0 R`).join(' ')}]/Count ${n}>>`,
    '<</Type/Font/Subtype/Type1/BaseFont/Helvetica/Encoding/WinAnsiEncoding>>',
  ];
  for (const [i, page] of pages.entries()) {
    const w = page.width ?? 612;
    const h = page.height ?? 792;
    const text = page.lines.map((line, j) => `BT /F1 36 Tf 72 ${h - 108 - j * 48} Td (${escapePdf(line)}) Tj ET`).join('\n');
    objects.push(`<</Type/Page/Parent 2 0 R/MediaBox[0 0 ${w} ${h}]/Resources<</Font<</F1 3 0 R>>>>/Contents ${pageObj(i) + 1} 0 R>>`);
    objects.push(`<</Length ${Buffer.byteLength(text)}>>stream\n${text}\nendstream\n`);
  }
  objects.push(`<</Producer(Assemblyline tests)/Title(${escapePdf(title)})>>`);
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj${o}endobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer<</Size ${objects.length + 1}/Root 1 0 R/Info ${objects.length} 0 R>>\nstartxref\n${xref}\n%%EOF\n`;
  await writeFile(path, body);
  return path;
}
