// Issue 24, "the vendor's clients too": names nobody chose, sent by the vendor's own Node SDK
// (@transloadit/node, unmodified: files by path, over tus) and by the multipart writer it carries
// (`form-data` 4: WHATWG's spelling, `"` CR LF as `%22 %0D %0A`), into the real local
// service. Every file must be in the service's record once: its name byte for byte, its size and md5.
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import path from 'node:path';
import { Transloadit } from '@transloadit/node';
import fc from 'fast-check';
import FormData from 'form-data';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams } from './auth/signature';
import { fileName, whatwgReadable } from './testing/file-names';
import { inOneHourIso, startFixture, tempDir, waitForEnd, type Fixture } from './testing/service-fixture';

let fx: Fixture;
let dir = '';
beforeAll(async () => {
  fx = await startFixture({ requireSignature: true });
  dir = await tempDir('sdk-names-');
});
afterAll(async () => {
  await fx.stop();
  await rm(dir, { recursive: true, force: true });
});

const STEPS = { ':original': { robot: '/upload/handle' } };
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
/** Files of one folder: distinct names (by bytes: NFC and NFD are two), a few KiB each at most. */
const folderOf = (name: fc.Arbitrary<string>) => fc.uniqueArray(fc.record({ name, size: fc.integer({ min: 0, max: 4_096 }) }), { minLength: 1, maxLength: 5, selector: (f) => f.name });
const folder = folderOf(fileName);
/** form-data writes WHATWG's spelling, which cannot carry a name already holding `%22` or `\\` (file-names.ts). */
const formFolder = folderOf(fileName.filter(whatwgReadable));

interface Sent {
  name: string;
  size: number;
  md5: string;
  file: string;
}

async function writeFolder(specs: ReadonlyArray<{ name: string; size: number }>, at: string): Promise<Sent[]> {
  await mkdir(at, { recursive: true });
  return Promise.all(
    specs.map(async (s) => {
      const bytes = randomBytes(s.size);
      const file = path.join(at, s.name);
      await writeFile(file, bytes);
      return { name: s.name, size: s.size, md5: md5(bytes), file };
    }),
  );
}

/** The service's record of the Assembly: each upload as name bytes | size | md5. */
const recorded = (status: { uploads?: Array<{ name?: string | null; size?: number | null; md5hash?: string | null }> | null }) => (status.uploads ?? []).map((u) => `${hex(u.name ?? '')}|${String(u.size)}|${String(u.md5hash)}`).sort();
const expected = (files: readonly Sent[]) => files.map((f) => `${hex(f.name)}|${String(f.size)}|${f.md5}`).sort();

describe("names nobody chose, through the vendor's clients", () => {
  it('@transloadit/node (files by path, over tus): every name arrives once, with its bytes', async () => {
    const client = new Transloadit({ authKey: fx.service.authKey, authSecret: fx.service.authSecret, endpoint: fx.service.url });
    let run = 0;
    await fc.assert(
      fc.asyncProperty(folder, async (specs) => {
        const files = await writeFolder(specs, path.join(dir, `tus-${String(run++)}`));
        // Labels are the SDK's field names; the name it sends is the file's own (basename of its path).
        const status = await client.createAssembly({ files: Object.fromEntries(files.map((f, i) => [`file_${String(i)}`, f.file])), params: { steps: STEPS }, waitForCompletion: true });
        expect(status.ok).toBe('ASSEMBLY_COMPLETED');
        expect(recorded(status)).toEqual(expected(files));
      }),
      { numRuns: Number(process.env.ASSEMBLYLINE_FUZZ_RUNS ?? 20), endOnFailure: true },
    );
  }, 300_000);

  it("the SDK's multipart writer (form-data: %22 for a quote, no Sec-Fetch-Mode): every name arrives once, with its bytes", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(formFolder, async (specs) => {
        const files = await writeFolder(specs, path.join(dir, `form-${String(run++)}`));
        const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: inOneHourIso() }, steps: STEPS });
        const form = new FormData();
        form.append('params', params);
        form.append('signature', signParams(params, fx.service.authSecret, 'sha384'));
        for (const [i, f] of files.entries()) form.append(`file_${String(i)}`, await readFile(f.file), { filename: f.name });
        const created = await new Promise<{ status: number; body: Record<string, unknown> }>((resolve, reject) => {
          const req = request(new URL('/assemblies', fx.service.url), { method: 'POST', headers: form.getHeaders({ 'Content-Length': String(form.getLengthSync()) }) }, (res) => {
            const chunks: Buffer[] = [];
            res.on('data', (c: Buffer) => chunks.push(c));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> }));
          });
          req.on('error', reject);
          form.pipe(req);
        });
        expect([created.status, created.body.error ?? null]).toEqual([200, null]);
        const status = await waitForEnd(String(created.body.assembly_ssl_url));
        expect(status.ok).toBe('ASSEMBLY_COMPLETED');
        expect(recorded(status as Parameters<typeof recorded>[0])).toEqual(expected(files));
      }),
      { numRuns: Number(process.env.ASSEMBLYLINE_FUZZ_RUNS ?? 20), endOnFailure: true },
    );
  }, 300_000);
});
