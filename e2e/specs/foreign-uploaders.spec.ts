import { expect, test, type Page } from '@playwright/test';
import { build } from 'esbuild';
import fc from 'fast-check';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { startLocalService, type LocalService } from '../../service/index';
import { fileName } from '../../service/testing/file-names';
import { repoPath, screenshotPath } from '../fixtures/paths';

// A web site on another origin uploads to the local service with the real browser clients, unmodified
// (Uppy's Transloadit plugin and tus-js-client): every request they make is cross-origin, so each one
// passes the browser's CORS preflight or the file fails as a "network error".

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Another site</title></head><body>
<h1>Uppy</h1><input id="uppy-files" type="file" multiple><button id="uppy-upload">Upload with Uppy</button>
<p id="uppy-assembly"></p><p id="uppy-canceled"></p><p id="uppy-complete"></p><p id="uppy-results-state"></p><p id="uppy-error" role="alert"></p><ul id="uppy-results"></ul>
<h1>tus-js-client</h1><input id="tus-files" type="file" multiple><button id="tus-upload">Upload with tus-js-client</button>
<p id="tus-results-state"></p><p id="tus-error" role="alert"></p><ul id="tus-results"></ul>
<script src="uploaders.js"></script></body></html>`;

let dir: string;
let service: LocalService;
let site: Server;
let siteUrl: string;

/** Serves the bundled page from its own loopback port: another origin than the service's. */
async function serveSite(root: string): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const name = req.url === '/' ? 'index.html' : (req.url ?? '').slice(1);
    if (name !== 'index.html' && name !== 'uploaders.js') return void res.writeHead(404).end();
    readFile(path.join(root, name)).then(
      (body) => res.writeHead(200, { 'Content-Type': name.endsWith('.js') ? 'text/javascript' : 'text/html' }).end(body),
      () => res.writeHead(500).end(),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

test.beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'foreign-uploaders-'));
  await build({
    entryPoints: [repoPath('e2e/fixtures/foreign-page/uploaders.js')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    outfile: path.join(dir, 'site', 'uploaders.js'),
    logLevel: 'error',
  });
  await writeFile(path.join(dir, 'site', 'index.html'), PAGE);
  await Promise.all(
    ['red', 'teal', 'gold'].map((colour, i) =>
      sharp({ create: { width: 400 + i * 100, height: 300, channels: 3, background: colour } })
        .jpeg()
        .toFile(path.join(dir, `photo-${colour}.jpg`)),
    ),
  );
  ({ server: site, url: siteUrl } = await serveSite(path.join(dir, 'site')));
});

test.beforeEach(async () => {
  service = await startLocalService({ dataDir: path.join(dir, `service-${Date.now()}`) });
});
test.afterEach(async () => {
  await service.close();
});
test.afterAll(async () => {
  await new Promise((resolve) => site.close(resolve));
  await rm(dir, { recursive: true, force: true });
});

/** Requests the browser failed (a refused preflight shows as net::ERR_FAILED), not the ones a client ended itself. */
function watchFailures(page: Page, failed: string[]): void {
  page.on('requestfailed', (r) => {
    const why = r.failure()?.errorText ?? '';
    // Uppy closes its update stream once the Assembly is done, and cancelling ends uploads: ERR_ABORTED.
    if (why !== 'net::ERR_ABORTED') failed.push(`${r.method()} ${r.url()} ${why}`);
  });
}

const photos = (...colours: string[]): string[] => colours.map((c) => path.join(dir, `photo-${c}.jpg`));

test('Uppy with the Transloadit plugin on another site uploads, the Assembly completes and its results arrive', async ({ page }) => {
  const failed: string[] = [];
  watchFailures(page, failed);
  await page.goto(siteUrl);
  expect(new URL(siteUrl).origin).not.toBe(new URL(service.url).origin);
  await page.evaluate((opts) => (globalThis as unknown as { startUppy(o: unknown): void }).startUppy(opts), { service: service.url, authKey: service.authKey });
  await page.locator('#uppy-files').setInputFiles(photos('red', 'teal', 'gold'));
  await page.getByRole('button', { name: 'Upload with Uppy' }).click();

  await expect(page.locator('#uppy-complete')).toHaveText('3 uploaded, 0 failed');
  await expect(page.locator('#uppy-results-state')).toHaveText('ASSEMBLY_COMPLETED');
  await expect(page.locator('#uppy-results li')).toHaveCount(3);
  await expect(page.locator('#uppy-results')).toContainText('small: photo-red.jpg 64x48');
  await expect(page.locator('#uppy-results')).toContainText('small: photo-gold.jpg 64x32');
  await expect(page.locator('#uppy-error')).toHaveText('');
  expect(failed).toEqual([]);
  await page.screenshot({ path: screenshotPath('foreign-uploaders-uppy.png') });
});

test('tus-js-client on another site creates an Assembly, uploads with X-Request-ID and gets the results', async ({ page }) => {
  const failed: string[] = [];
  watchFailures(page, failed);
  const requestIds: string[] = [];
  page.on('request', (r) => {
    const id = r.headers()['x-request-id'];
    if (id && r.url().includes('/resumable/files')) requestIds.push(id);
  });
  await page.goto(siteUrl);
  await page.evaluate((opts) => (globalThis as unknown as { startTus(o: unknown): void }).startTus(opts), { service: service.url, authKey: service.authKey });
  await page.locator('#tus-files').setInputFiles(photos('teal', 'gold'));
  await page.getByRole('button', { name: 'Upload with tus-js-client' }).click();

  await expect(page.locator('#tus-results-state')).toHaveText('ASSEMBLY_COMPLETED');
  await expect(page.locator('#tus-results li')).toHaveCount(2);
  await expect(page.locator('#tus-results')).toContainText('small: photo-teal.jpg 64x38');
  await expect(page.locator('#tus-error')).toHaveText('');
  // Both the creating POST and the PATCH of each file carried the header the preflight must allow.
  expect(requestIds.length).toBeGreaterThanOrEqual(4);
  expect(failed).toEqual([]);
});

test('Uppy on another site cancels its Assembly (a preflighted DELETE) and the service stops it', async ({ page }) => {
  const failed: string[] = [];
  watchFailures(page, failed);
  await page.goto(siteUrl);
  await page.evaluate((opts) => (globalThis as unknown as { startUppy(o: unknown): void }).startUppy(opts), {
    service: service.url,
    authKey: service.authKey,
    cancelWhenCreated: true,
  });
  await page.locator('#uppy-files').setInputFiles(photos('red'));
  await page.getByRole('button', { name: 'Upload with Uppy' }).click();

  await expect(page.locator('#uppy-canceled')).toHaveText('Assembly canceled');
  const id = (await page.locator('#uppy-assembly').textContent()) ?? '';
  const status = (await (await fetch(`${service.url}/assemblies/${id}`)).json()) as { ok?: string };
  expect(status.ok).toBe('ASSEMBLY_CANCELED');
  await expect(page.locator('#uppy-error')).toHaveText('');
  expect(failed).toEqual([]);
});

test('Uppy with the Transloadit plugin sends names nobody chose: each file is in the Assembly once, its name byte for byte, its size and md5', async ({ page }) => {
  test.setTimeout(300_000);
  const failed: string[] = [];
  watchFailures(page, failed);
  await page.goto(siteUrl);
  const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
  const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
  await fc.assert(
    fc.asyncProperty(fc.uniqueArray(fileName, { minLength: 1, maxLength: 4, selector: (n) => n }), async (names) => {
      // Sizes apart: Uppy refuses a second file whose name matches another's without case (its file ids).
      const files = names.map((name, i) => ({ name, bytes: randomBytes(1 + i * 997 + (name.length % 500)) }));
      const sent = await page.evaluate((o) => (globalThis as unknown as { uppyUpload(o: unknown): Promise<{ assemblyId: string | null; failed: string[] }> }).uppyUpload(o), {
        service: service.url,
        authKey: service.authKey,
        steps: { ':original': { robot: '/upload/handle' } },
        files: files.map((f) => ({ name: f.name, base64: f.bytes.toString('base64') })),
      });
      expect(sent.failed).toEqual([]);
      const status = (await (await fetch(`${service.url}/assemblies/${sent.assemblyId ?? ''}`)).json()) as { ok?: string; uploads?: Array<{ name: string; size: number; md5hash: string }> };
      expect(status.ok).toBe('ASSEMBLY_COMPLETED');
      expect((status.uploads ?? []).map((u) => `${hex(u.name)}|${u.size}|${u.md5hash}`).sort()).toEqual(files.map((f) => `${hex(f.name)}|${f.bytes.length}|${md5(f.bytes)}`).sort());
    }),
    { numRuns: Number(process.env.ASSEMBLYLINE_FUZZ_RUNS ?? 15), endOnFailure: true },
  );
  expect(failed).toEqual([]);
});
