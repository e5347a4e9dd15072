import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import busboy from 'busboy';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { readDisposition } from '../../../service/testing/part-names';
import { COPIES_AND_APOSTROPHES, fileName, fileNames } from '../../../service/testing/file-names';
import { createApiClient, type ApiClient } from './api-client';
import { fileDisposition } from './multipart-stream';

/** What busboy alone (a strict reader, as many servers use) makes of a part with this disposition. */
function busboyName(disposition: string): Promise<string | undefined> {
  const boundary = 'b0und';
  const body = Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: `), Buffer.from(disposition, 'utf8'), Buffer.from(`\r\n\r\nx\r\n--${boundary}--\r\n`)]);
  return new Promise((resolve, reject) => {
    let name: string | undefined;
    const bb = busboy({ headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, preservePath: true, defParamCharset: 'utf8' });
    bb.on('file', (_f, stream, info) => {
      name = info.filename;
      stream.resume();
    });
    bb.on('close', () => resolve(name));
    bb.on('error', reject);
    Readable.from([body]).pipe(bb);
  });
}

describe("the multipart encoder's file names", () => {
  it('writes every name so that busboy alone, the service, and a reader of `filename` only all read it back', async () => {
    await fc.assert(
      fc.asyncProperty(fileName, async (name) => {
        const disposition = fileDisposition('file_0', name);
        // A part header is one line of the body: no CR or LF may be in it.
        expect(disposition).not.toMatch(/[\r\n]/);
        expect(await busboyName(disposition)).toBe(name);
        const wire = Buffer.from(disposition, 'utf8').toString('latin1');
        const read = readDisposition(wire);
        expect(read.ok && read.disposition).toEqual({ type: 'form-data', name: 'file_0', filename: name });
        // Without filename*: the quoted name, read as a browser's (its %22 is a quote).
        fc.pre(!/%(22|0d|0a)/i.test(name));
        const plain = readDisposition(wire.replace(/; filename\*=.*$/, ''), { browser: true });
        expect(plain.ok && plain.disposition.filename).toBe(name);
      }),
      { numRuns: 300 },
    );
  });
});

describe('names through the API client into the local service', () => {
  let dir = '';
  let service: LocalService;
  let api: ApiClient;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'al-multipart-names-'));
    service = await startLocalService({ dataDir: dir, port: 0 });
    api = createApiClient({ endpoint: service.url, authKey: service.authKey, getSecret: async () => service.authSecret });
  });
  afterAll(async () => {
    await service?.close();
    await rm(dir, { recursive: true, force: true });
  });

  const send = async (names: readonly string[]) => {
    const created = await api.createAssembly({
      instructions: { steps: { ':original': { robot: '/upload/handle' } } },
      expectedUploads: 0,
      streamFiles: names.map((name, i) => ({ field: `file_${i}`, name, mime: null, open: () => Readable.from([Buffer.from(`bytes of ${i}`)]) })),
    });
    if (!created.ok) throw new Error(created.error.message);
    return created.value;
  };

  it('delivers plain.txt, holiday (1).jpg, it\'s *cool*!.txt and ü €.txt — all four, not two (issue 24)', async () => {
    const names = ['plain.txt', 'holiday (1).jpg', "it's *cool*!.txt", 'ü €.txt'];
    const status = await send(names);
    expect((status.uploads ?? []).map((u) => [u.field, u.name, u.size])).toEqual(names.map((n, i) => [`file_${i}`, n, `bytes of ${i}`.length]));
  });

  it('delivers names that differ only in case, of the same size, each under its own name (Uppy would keep one)', async () => {
    const names = ['Photo.JPG', 'photo.jpg', 'PHOTO.jpg', '\u212A.txt', 'k.txt'];
    const status = await send(names);
    expect((status.uploads ?? []).map((u) => [u.name, u.size])).toEqual(names.map((n, i) => [n, `bytes of ${i}`.length]));
  });

  it('delivers the names every OS gives to copies, and names nobody chose, each once under its own name', async () => {
    expect((await send(COPIES_AND_APOSTROPHES)).uploads?.map((u) => u.name)).toEqual([...COPIES_AND_APOSTROPHES]);
    await fc.assert(
      fc.asyncProperty(fileNames(1, 40), async (names) => {
        const status = await send(names);
        expect((status.uploads ?? []).map((u) => u.name)).toEqual(names);
      }),
      { numRuns: 15 },
    );
  });
});
