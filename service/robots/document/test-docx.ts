// A Word document (.docx) written by the tests: the three parts a DOCX needs (content types, the package's
// relationship to its main part, the document with one paragraph per line), zipped by our own zip writer.

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeZip } from '../archive-writers';

const escapeXml = (s: string): string => s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);

const PARTS = (lines: string[]): Record<string, string> => ({
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
  '_rels/.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${lines.map((l) => `<w:p><w:r><w:t xml:space="preserve">${escapeXml(l)}</w:t></w:r></w:p>`).join('')}</w:body></w:document>`,
});

/** Writes a .docx at `path` with one paragraph per line; returns the path. */
export async function writeDocx(path: string, lines: string[]): Promise<string> {
  const parts = await mkdtemp(join(dirname(path), '.docx-'));
  try {
    const entries = await Promise.all(
      Object.entries(PARTS(lines)).map(async ([name, body], i) => {
        const localPath = join(parts, String(i));
        await writeFile(localPath, body);
        return { name, localPath, size: Buffer.byteLength(body) };
      }),
    );
    await writeZip(path, entries, 6, new AbortController().signal);
    return path;
  } finally {
    await rm(parts, { recursive: true, force: true });
  }
}
