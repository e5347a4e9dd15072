// /html/convert through the real pipeline with the machine's Chromium: pages served by an HTTP server on
// 127.0.0.1 started by the test, drawn as PNG, JPEG and PDF and read back by sharp and poppler; every request
// the page makes goes through the service's address policy (names resolved by test-files' intranetLookup).
import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateInstructions } from '../../instructions/validate-instructions';
import { executeSteps, type ExecuteContext } from '../execute-steps';
import { describeUpload, type StoredFile } from '../file-record';
import { intranetLookup, makeTempDir } from '../test-files';

const exec = promisify(execFile);

let dir: string;
let cleanup: () => Promise<void>;
let server: Server;
let base: string;
const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
let red: Buffer;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('html-convert-'));
  red = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#ff0000' } }).png().toBuffer();
  server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    if (req.url === '/red.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(red);
    if (req.url === '/moved') return res.writeHead(302, { location: '/tall' }).end();
    if (req.url === '/tall') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html><body style="margin:0"><h1 style="margin:0;height:1800px">Quarterly report</h1></body></html>');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await new Promise((r) => server.close(r));
  await cleanup();
});

async function run(steps: ExecuteContext['steps'], uploads: StoredFile[] = []) {
  const results: StoredFile[] = [];
  const outcome = await executeSteps({
    assemblyId: '4'.repeat(32), steps, uploads, fields: {}, signal: new AbortController().signal,
    workDir: await mkdtemp(join(dir, 'w-')),
    network: { policy: {}, lookup: intranetLookup },
    onResult: (_step, file) => results.push(file),
  });
  return { outcome, files: results };
}

describe('/html/convert', () => {
  it('draws a URL (after its redirect) as a full page at width, or its top at width × height; headers go to its own site', async () => {
    const { outcome, files } = await run({
      full: { robot: '/html/convert', url: `${base}/moved`, width: 800, headers: { Authorization: 'Bearer page-token' } },
      top: { robot: '/html/convert', url: `${base}/tall`, width: 640, height: 300, fullpage: false, format: 'jpg' },
    });
    expect(outcome, JSON.stringify(outcome)).toMatchObject({ ok: true });
    expect(files.map((f) => [f.name, f.mime, f.meta.width, f.meta.height])).toEqual([
      ['127.0.0.1.png', 'image/png', 800, 1800],
      ['127.0.0.1.jpg', 'image/jpeg', 640, 300],
    ]);
    expect(seen.find((s) => s.path === '/tall' && s.headers.authorization === 'Bearer page-token')).toBeDefined();
  });

  it('draws an uploaded HTML file with its pictures; one on a private address is never fetched, and no local file is read', async () => {
    const html = `<html><body style="margin:0;background:#fff"><img src="${base}/red.png" style="display:block"><img src="http://intranet.test/secret.png" style="display:block;width:200px;height:100px"><iframe src="file:///etc/hostname" style="display:block;border:0"></iframe></body></html>`;
    const path = join(dir, 'page.html');
    await writeFile(path, html);
    const upload = await describeUpload({ localPath: path, name: 'page.html', field: 'file' });
    const before = seen.length;
    const { outcome, files } = await run({ shot: { robot: '/html/convert', use: ':original', width: 400, fullpage: false, height: 300 } }, [upload]);
    expect(outcome).toMatchObject({ ok: true });
    expect(files.map((f) => [f.name, f.meta.width, f.meta.height])).toEqual([['page.png', 400, 300]]);
    const { data, info } = await sharp(files[0]!.localPath).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const rgb = (x: number, y: number) => [...data.subarray((y * info.width + x) * 3, (y * info.width + x) * 3 + 3)];
    expect(rgb(100, 50)).toEqual([255, 0, 0]);
    // The private-network picture was refused: nothing drawn where it would be (white or a broken-image box, never red).
    expect(rgb(100, 150)).not.toEqual([255, 0, 0]);
    expect(seen.slice(before).map((s) => s.path)).toEqual(['/red.png']);
  });

  it('prints a page as PDF, and refuses a URL on a private network and a non-web URL', async () => {
    const pdf = await run({ print: { robot: '/html/convert', url: `${base}/tall`, format: 'pdf' } });
    expect(pdf.outcome, JSON.stringify(pdf.outcome)).toMatchObject({ ok: true });
    expect(pdf.files.map((f) => [f.mime, typeof f.meta.page_count])).toEqual([['application/pdf', 'number']]);
    const { stdout } = await exec('pdftotext', [pdf.files[0]!.localPath, '-']);
    expect(stdout).toContain('Quarterly report');
    const lan = await run({ shot: { robot: '/html/convert', url: 'http://intranet.test/admin' } });
    expect(lan.outcome).toMatchObject({ ok: false, code: 'HTML_CONVERT_ERROR', message: expect.stringContaining('private-network address') });
    expect(validateInstructions({ s: { robot: '/html/convert', url: 'file:///etc/passwd' } })).toMatchObject({ code: 'HTML_CONVERT_VALIDATION', parameter: 'url' });
    expect(validateInstructions({ s: { robot: '/html/convert', url: `${base}/tall`, wait_until: 'idle' } })).toMatchObject({ code: 'HTML_CONVERT_VALIDATION', parameter: 'wait_until' });
  });
});
