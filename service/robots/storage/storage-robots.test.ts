// The storage and import robots against real servers on loopback: s3rver (S3 and its siblings), Debian's
// pyftpdlib (FTP), OpenSSH (SFTP) and a plain HTTP server, through real Assemblies over real HTTP.
// The promise attacked: a file stored comes back through the import with its bytes and its name; a
// credential's secret goes only to the host saved with it; a failure says what and where.

import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams } from '../../auth/signature';
import { startFtpServer, type FtpServer } from '../../testing/ftp-server';
import { startS3Server, type S3Server } from '../../testing/s3-server';
import { buildForm, inOneHourIso, postAssembly, startFixture, waitForEnd, type Fixture } from '../../testing/service-fixture';
import { signedCall } from '../../testing/signed-call';
import { startSftpServer, type SftpServer } from '../../testing/sftp-server';

let fx: Fixture;
let s3: S3Server;
let ftp: FtpServer;
let sftp: SftpServer;
let web: Server;
let webUrl: string;
let nonce = 0;

const md5 = (b: Uint8Array): string => createHash('md5').update(b).digest('hex');

beforeAll(async () => {
  [fx, s3, ftp, sftp] = await Promise.all([startFixture({ jobSlots: 4 }), startS3Server(['media', 'other']), startFtpServer(), startSftpServer()]);
  web = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const body = Buffer.from(`bytes of ${url.pathname}`.padEnd(100, '.'));
    if (url.pathname.startsWith('/hop/')) {
      const left = Number(url.pathname.slice(5));
      res.writeHead(302, { location: left > 0 ? `/hop/${left - 1}` : '/photos/final.txt' }).end();
    } else if (url.pathname === '/to-metadata') res.writeHead(301, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
    else if (url.pathname === '/named') res.writeHead(200, { 'content-disposition': `attachment; filename="fallback.txt"; filename*=UTF-8''${encodeURIComponent('Überschrift (1).txt')}` }).end(body);
    else if (url.pathname === '/missing') res.writeHead(404).end('no');
    else if (url.pathname === '/needs-token') res.writeHead(req.headers['x-token'] === 'let-me-in' ? 200 : 403).end(body);
    else if (url.pathname === '/ranged') {
      const all = Buffer.from('0123456789abcdefghij');
      const m = /bytes=(\d+)-(\d*)/.exec(String(req.headers.range ?? ''));
      if (!m) res.writeHead(200).end(all);
      else {
        const start = Number(m[1]);
        const end = m[2] ? Number(m[2]) : all.length - 1;
        res.writeHead(206, { 'content-range': `bytes ${start}-${end}/${all.length}` }).end(all.subarray(start, end + 1));
      }
    } else res.writeHead(200, { 'content-type': 'text/plain' }).end(body);
  });
  await new Promise<void>((r) => web.listen(0, '127.0.0.1', r));
  webUrl = `http://127.0.0.1:${(web.address() as { port: number }).port}`;
}, 60_000);

afterAll(async () => {
  await new Promise((r) => web.close(r));
  await Promise.all([fx.stop(), s3.stop(), ftp.stop(), sftp.stop()]);
});

interface FileRecord {
  name: string;
  size: number;
  md5hash: string;
  url: string;
  ssl_url: string;
  signed_url?: string;
  import_url?: string;
  meta: Record<string, unknown>;
}

/** One Assembly: the files uploaded by multipart (params and signature first, as the SDKs send them). */
async function run(steps: Record<string, unknown>, files: { name: string; data: Uint8Array }[] = []): Promise<Record<string, unknown>> {
  const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: inOneHourIso() }, nonce: `storage-${++nonce}`, steps });
  const form = buildForm({ params, fields: { signature: signParams(params, fx.service.authSecret, 'sha384') }, files: files.map((f, i) => ({ field: `file${i}`, ...f })) });
  const created = await postAssembly(fx.service.url, form);
  if (created.status !== 200) return created.body;
  return waitForEnd(String(created.body.assembly_ssl_url), 60_000);
}

const results = (status: Record<string, unknown>, step: string): FileRecord[] => ((status.results as Record<string, FileRecord[]> | undefined)?.[step] ?? []);
const s3Inline = (): Record<string, unknown> => ({ bucket: 'media', key: s3.key, secret: s3.secret, host: s3.endpoint });
const s3Sdk = (): S3Client => new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: s3.key, secretAccessKey: s3.secret } });

async function objectBytes(bucket: string, key: string): Promise<Buffer> {
  const client = s3Sdk();
  try {
    const got = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return Buffer.from(await got.Body!.transformToByteArray());
  } finally {
    client.destroy();
  }
}

describe('/s3/store and /s3/import against a real S3 server', () => {
  it('stores each upload at its path, with the object URL in the result, and imports the folder back byte for byte', async () => {
    const files = [
      { name: 'IMG_1234 (1).jpg', data: Buffer.from('first file, a copy of a copy') },
      { name: "O'Brien headshot.png", data: Buffer.from('second file') },
      { name: 'ü €.txt', data: Buffer.from('third') },
    ];
    const stored = await run({ ':original': { robot: '/upload/handle' }, exported: { robot: '/s3/store', use: ':original', ...s3Inline(), path: 'round-trip/${file.name}', acl: 'public-read' } }, files);
    expect(stored.ok, JSON.stringify(stored.message)).toBe('ASSEMBLY_COMPLETED');
    const exported = results(stored, 'exported');
    expect(exported.map((r) => r.name).sort()).toEqual(files.map((f) => f.name).sort());
    for (const f of files) {
      expect(md5(await objectBytes('media', `round-trip/${f.name}`)), f.name).toBe(md5(f.data));
      const record = exported.find((r) => r.name === f.name)!;
      expect(record.url).toBe(`${s3.endpoint}/media/round-trip/${encodeURIComponent(f.name)}`);
      // The result's URL is the object's: it serves the same bytes.
      expect(md5(new Uint8Array(await (await fetch(record.url)).arrayBuffer()))).toBe(md5(f.data));
    }

    const imported = await run({ fetched: { robot: '/s3/import', ...s3Inline(), path: 'round-trip/' } });
    expect(imported.ok, JSON.stringify(imported.message)).toBe('ASSEMBLY_COMPLETED');
    const back = results(imported, 'fetched');
    expect(back.map((r) => [r.name, r.md5hash, r.size]).sort()).toEqual(files.map((f) => [f.name, md5(f.data), f.data.length]).sort());
  });

  it('a name nobody chose goes in and comes back the same (property)', async () => {
    // Names as users have them: printable text without a slash, spaces and dots at either end included. (No
    // `"`: a browser-style form writes it as %22, and reading multipart names is attacked by the upload tests.)
    const name = fc.string({ unit: fc.constantFrom(...Array.from('aZ09 ()[]{}\'!#$%&+,;=@^`~_-.é€ü中😀\u200b')), minLength: 1, maxLength: 40 }).filter((n) => !/^\.{1,2}$/.test(n) && n.trim() !== '');
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(name, { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 3000 }), async (names, size) => {
        const folder = `prop-${++nonce}`;
        const files = names.map((n, i) => ({ name: n, data: Buffer.alloc(size + i, i + 1) }));
        const stored = await run({ ':original': { robot: '/upload/handle' }, exported: { robot: '/s3/store', use: ':original', ...s3Inline(), path: `${folder}/\${file.name}` } }, files);
        expect(stored.ok, JSON.stringify(stored.message)).toBe('ASSEMBLY_COMPLETED');
        const imported = await run({ fetched: { robot: '/s3/import', ...s3Inline(), path: `${folder}/` } });
        expect(imported.ok, JSON.stringify(imported.message)).toBe('ASSEMBLY_COMPLETED');
        const back = results(imported, 'fetched').map((r) => [r.name, r.md5hash]);
        expect(back.sort()).toEqual(files.map((f) => [f.name, md5(f.data)]).sort());
      }),
      { numRuns: 12 },
    );
  });

  it('takes its keys and endpoint from Template credentials, and refuses a step that would send them elsewhere', async () => {
    const made = await signedCall(fx.service, 'POST', '/template_credentials', { name: 'media-bucket', type: 's3', content: { ...s3Inline(), bucket_region: 'us-east-1' } });
    expect(made.body.ok).toBe('TEMPLATE_CREDENTIALS_CREATED');
    const viaCredentials = await run({ ':original': { robot: '/upload/handle' }, exported: { robot: '/s3/store', use: ':original', credentials: 'media-bucket', path: 'via-credentials/a.txt', bucket: 'other' } }, [{ name: 'a.txt', data: Buffer.from('kept') }]);
    expect(viaCredentials.ok, JSON.stringify(viaCredentials.message)).toBe('ASSEMBLY_COMPLETED');
    // The step may choose another bucket of the same account…
    expect((await objectBytes('other', 'via-credentials/a.txt')).toString()).toBe('kept');
    // …but not another server: the credentials' secret would go there.
    const moved = await run({ ':original': { robot: '/upload/handle' }, exported: { robot: '/s3/store', use: ':original', credentials: 'media-bucket', host: 'http://127.0.0.1:9' } }, [{ name: 'a.txt', data: Buffer.from('x') }]);
    expect(moved.error).toBe('S3_STORE_VALIDATION');
    expect(String(moved.message)).toContain('host comes from the Template credentials "media-bucket"');
  });

  it('says when the keys are wrong, the bucket does not exist, and when the root holds objects outside a folder (NoSuchKey)', async () => {
    // s3rver checks the access key, not SigV4 signatures: an unknown key is the refusal it can give.
    const wrongKeys = await run({ ':original': { robot: '/upload/handle' }, exported: { robot: '/s3/store', use: ':original', ...s3Inline(), key: 'NOT-A-KEY' } }, [{ name: 'a.txt', data: Buffer.from('x') }]);
    expect(wrongKeys.error).toBe('S3_STORE_ACCESS_DENIED');
    expect(String(wrongKeys.message)).toContain('bucket media');
    const noBucket = await run({ fetched: { robot: '/s3/import', ...s3Inline(), bucket: 'does-not-exist', path: 'x/' } });
    expect(noBucket.error).toBe('S3_IMPORT_NOT_FOUND');
    expect(String(noBucket.message)).toContain('NoSuchBucket');
    const client = s3Sdk();
    await client.send(new PutObjectCommand({ Bucket: 'other', Key: 'loose.txt', Body: 'at the root' }));
    client.destroy();
    const root = await run({ fetched: { robot: '/s3/import', ...s3Inline(), bucket: 'other', path: '/', recursive: true } });
    expect(root.error).toBe('S3_IMPORT_NOT_FOUND');
    expect(String(root.message)).toContain('NoSuchKey');
    const missing = await run({ fetched: { robot: '/s3/import', ...s3Inline(), path: 'no/such/object.jpg' } });
    expect(missing.error).toBe('S3_IMPORT_NOT_FOUND');
    expect(String(missing.message)).toContain('no/such/object.jpg');
  });

  it('sets headers and signs URLs (sign_urls_for); MinIO and DigitalOcean take the same path with their own parameter names', async () => {
    const stored = await run(
      {
        ':original': { robot: '/upload/handle' },
        exported: { robot: '/s3/store', use: ':original', ...s3Inline(), path: 'headers/${file.name}', headers: { 'Cache-Control': 'max-age=60', 'x-amz-meta-origin': 'assemblyline' }, sign_urls_for: 600 },
        minio: { robot: '/minio/store', use: ':original', bucket: 'media', key: s3.key, secret: s3.secret, host: s3.endpoint, path: 'minio/${file.name}' },
        spaces: { robot: '/digitalocean/store', use: ':original', space: 'media', key: s3.key, secret: s3.secret, host: s3.endpoint, path: 'spaces/${file.name}' },
      },
      [{ name: 'clip.txt', data: Buffer.from('headers and signatures') }],
    );
    expect(stored.ok, JSON.stringify(stored.message)).toBe('ASSEMBLY_COMPLETED');
    const client = s3Sdk();
    const head = await client.send(new HeadObjectCommand({ Bucket: 'media', Key: 'headers/clip.txt' }));
    client.destroy();
    expect(head.CacheControl).toBe('max-age=60');
    expect(head.Metadata).toMatchObject({ origin: 'assemblyline' });
    const signedUrl = results(stored, 'exported')[0]!.signed_url!;
    expect(signedUrl).toContain('X-Amz-Signature=');
    expect(await (await fetch(signedUrl)).text()).toBe('headers and signatures');
    expect((await objectBytes('media', 'minio/clip.txt')).toString()).toBe('headers and signatures');
    expect((await objectBytes('media', 'spaces/clip.txt')).toString()).toBe('headers and signatures');
  });

  it('refuses bad parameters when the Assembly is created, with the robot\'s validation code', async () => {
    const badAcl = await run({ ':original': { robot: '/upload/handle' }, exported: { robot: '/s3/store', use: ':original', ...s3Inline(), acl: 'everyone' } });
    expect(badAcl.error).toBe('S3_STORE_VALIDATION');
    expect(String(badAcl.message)).toContain('acl must be one of');
    const noPath = await run({ fetched: { robot: '/wasabi/import', bucket: 'media', key: 'k', secret: 's' } });
    expect(noPath.error).toBe('WASABI_IMPORT_VALIDATION');
    expect(String(noPath.message)).toContain('path is required');
  });
});

describe('/http/import against a real HTTP server', () => {
  it('imports URLs (a list, redirects followed, Content-Disposition names, headers), each file with its bytes', async () => {
    const status = await run({
      fetched: { robot: '/http/import', url: [`${webUrl}/photos/a.txt`, `${webUrl}/hop/3`, `${webUrl}/named`] },
      secret: { robot: '/http/import', url: `${webUrl}/needs-token`, headers: ['X-Token: let-me-in'] },
      ranged: { robot: '/http/import', url: `${webUrl}/ranged`, range: ['2-4', '8-9'], force_name: 'slice.bin' },
    });
    expect(status.ok, JSON.stringify(status.message)).toBe('ASSEMBLY_COMPLETED');
    expect(results(status, 'fetched').map((r) => r.name)).toEqual(['a.txt', 'final.txt', 'Überschrift (1).txt']);
    expect(results(status, 'fetched')[0]!.md5hash).toBe(md5(Buffer.from('bytes of /photos/a.txt'.padEnd(100, '.'))));
    expect(results(status, 'fetched')[1]!.import_url).toBe(`${webUrl}/photos/final.txt`);
    expect(results(status, 'secret')).toHaveLength(1);
    // Two ranges: each at its offset, zero bytes between them (the vendor's rule).
    const slice = results(status, 'ranged')[0]!;
    expect(slice.name).toBe('slice.bin');
    expect(md5(new Uint8Array(await (await fetch(slice.url)).arrayBuffer()))).toBe(md5(Buffer.concat([Buffer.alloc(2), Buffer.from('234'), Buffer.alloc(3), Buffer.from('89')])));
  });

  it('never connects to cloud metadata or private addresses, not even through a redirect', async () => {
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://10.1.2.3/x', 'http://[::ffff:169.254.169.254]/', `${webUrl}/to-metadata`]) {
      const status = await run({ fetched: { robot: '/http/import', url } });
      expect(status.error, url).toBe('HTTP_IMPORT_FAILURE');
      expect(String(status.message), url).toMatch(/metadata address|private-network address/);
      expect(String(status.message), url).toContain('does not import from there');
    }
  });

  it('fails naming each URL that failed, stops at max_file_size, and imports the rest with ignore_errors', async () => {
    const both = await run({ fetched: { robot: '/http/import', url: [`${webUrl}/missing`, `${webUrl}/ok.txt`] } });
    expect(both.error).toBe('HTTP_IMPORT_FAILURE');
    expect(String(both.message)).toContain(`${webUrl}/missing: the server answered 404`);
    const tooBig = await run({ fetched: { robot: '/http/import', url: `${webUrl}/big.txt`, max_file_size: 10 } });
    expect(tooBig.error).toBe('HTTP_IMPORT_FAILURE');
    expect(String(tooBig.message)).toContain('larger than max_file_size (10 bytes)');
    const gone = await run({ fetched: { robot: '/http/import', url: `${webUrl}/missing` } });
    expect(gone.error).toBe('HTTP_IMPORT_NOT_FOUND');
    const lenient = await run({ fetched: { robot: '/http/import', url: `${webUrl}/missing|${webUrl}/ok.txt`, ignore_errors: ['import'] } });
    expect(lenient.ok, JSON.stringify(lenient.message)).toBe('ASSEMBLY_COMPLETED');
    expect(results(lenient, 'fetched').map((r) => r.name)).toEqual(['ok.txt']);
  });
});

describe('/ftp/store and /ftp/import against a real FTP server', () => {
  const ftpInline = () => ({ host: ftp.host, port: ftp.port, user: ftp.user, password: ftp.password });

  it('stores files into folders it makes (an empty folder of the path dropped, as S3 does), with url_template URLs, and imports the folder back', async () => {
    const files = [
      { name: 'scan(3).pdf', data: Buffer.from('%PDF-1.4 not really') },
      { name: 'holiday (copy).JPG', data: Buffer.alloc(70_000, 7) },
    ];
    const stored = await run({ ':original': { robot: '/upload/handle' }, exported: { robot: '/ftp/store', use: ':original', ...ftpInline(), path: 'incoming/${file.meta.relative_path}/2026/${file.name}', url_template: 'https://cdn.example.com/{PATH}' } }, files);
    expect(stored.ok, JSON.stringify(stored.message)).toBe('ASSEMBLY_COMPLETED');
    for (const f of files) expect(md5(readFileSync(join(ftp.root, 'incoming', '2026', f.name))), f.name).toBe(md5(f.data));
    expect(results(stored, 'exported').map((r) => r.url).sort()).toEqual(files.map((f) => `https://cdn.example.com/incoming/2026/${encodeURIComponent(f.name)}`).sort());

    await signedCall(fx.service, 'POST', '/template_credentials', { name: 'ftp-archive', type: 'ftp', content: ftpInline() });
    const imported = await run({ fetched: { robot: '/ftp/import', credentials: 'ftp-archive', path: 'incoming/2026/' } });
    expect(imported.ok, JSON.stringify(imported.message)).toBe('ASSEMBLY_COMPLETED');
    expect(results(imported, 'fetched').map((r) => [r.name, r.md5hash]).sort()).toEqual(files.map((f) => [f.name, md5(f.data)]).sort());
  });

  it('says when the password is wrong and when a file is not there', async () => {
    const wrong = await run({ ':original': { robot: '/upload/handle' }, exported: { robot: '/ftp/store', use: ':original', ...ftpInline(), password: 'nope' } }, [{ name: 'a.txt', data: Buffer.from('x') }]);
    expect(wrong.error).toBe('FTP_STORE_ACCESS_DENIED');
    expect(String(wrong.message)).toContain(`${ftp.user}@${ftp.host}:${ftp.port}`);
    const missing = await run({ fetched: { robot: '/ftp/import', ...ftpInline(), path: 'nowhere/file.txt' } });
    expect(missing.error).toBe('FTP_IMPORT_NOT_FOUND');
    expect(String(missing.message)).toContain('nowhere/file.txt');
    // A failed download leaves no half file behind in the Assembly's results.
    expect(results(missing, 'fetched')).toEqual([]);
  });
});

describe('/sftp/import against a real SFTP server', () => {
  it('imports a file and, recursively, a folder, with the bytes on the server', async () => {
    const dir = join(sftp.root, 'to-import');
    mkdirSync(join(dir, 'deeper'), { recursive: true });
    writeFileSync(join(dir, 'top.txt'), 'top level');
    writeFileSync(join(dir, 'deeper', 'inner (1).txt'), 'one level down');
    const inline = { host: sftp.host, port: sftp.port, user: sftp.user, private_key: sftp.privateKey };
    const flat = await run({ fetched: { robot: '/sftp/import', ...inline, path: `${dir}/` } });
    expect(flat.ok, JSON.stringify(flat.message)).toBe('ASSEMBLY_COMPLETED');
    expect(results(flat, 'fetched').map((r) => r.name)).toEqual(['top.txt']);
    const deep = await run({ fetched: { robot: '/sftp/import', ...inline, path: `${dir}/`, recursive: true } });
    expect(results(deep, 'fetched').map((r) => [r.name, r.md5hash]).sort()).toEqual([
      ['inner (1).txt', md5(Buffer.from('one level down'))],
      ['top.txt', md5(Buffer.from('top level'))],
    ]);
    const wrongKey = await run({ fetched: { robot: '/sftp/import', ...inline, private_key: sftp.wrongKey, path: `${dir}/top.txt` } });
    expect(wrongKey.error).toBe('SFTP_IMPORT_ACCESS_DENIED');
    expect(existsSync(join(dir, 'top.txt'))).toBe(true);
  });
});

describe('the vendor Node SDK drives the storage robots', () => {
  it('imports over HTTP, SFTP, FTP and S3 and stores to S3 and FTP, through @transloadit/node', async () => {
    const { Transloadit } = await import('@transloadit/node');
    const client = new Transloadit({ authKey: fx.service.authKey, authSecret: fx.service.authSecret, endpoint: fx.service.url });
    const dir = join(sftp.root, 'sdk');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'from-sftp.txt'), 'sftp bytes');
    const s3Conn = { bucket: 'media', key: s3.key, secret: s3.secret, host: s3.endpoint };
    const ftpConn = { host: ftp.host, port: ftp.port, user: ftp.user, password: ftp.password };
    const first = await client.createAssembly({
      params: {
        steps: {
          web: { robot: '/http/import', url: `${webUrl}/sdk/from-web.txt` },
          sftp_in: { robot: '/sftp/import', host: sftp.host, port: sftp.port, user: sftp.user, private_key: sftp.privateKey, path: `${dir}/from-sftp.txt` },
          to_s3: { robot: '/s3/store', use: ['web', 'sftp_in'], ...s3Conn, path: 'sdk/${file.name}' },
          to_ftp: { robot: '/ftp/store', use: ['web', 'sftp_in'], ...ftpConn, path: 'sdk/${file.name}' },
        },
      } as never,
      waitForCompletion: true,
    });
    expect(first.ok, JSON.stringify(first.message)).toBe('ASSEMBLY_COMPLETED');
    expect((await objectBytes('media', 'sdk/from-sftp.txt')).toString()).toBe('sftp bytes');
    expect(readFileSync(join(ftp.root, 'sdk', 'from-web.txt'), 'utf8')).toBe('bytes of /sdk/from-web.txt'.padEnd(100, '.'));
    const second = await client.createAssembly({
      params: { steps: { s3_in: { robot: '/s3/import', ...s3Conn, path: 'sdk/' }, ftp_in: { robot: '/ftp/import', ...ftpConn, path: 'sdk/' } } } as never,
      waitForCompletion: true,
    });
    expect(second.ok, JSON.stringify(second.message)).toBe('ASSEMBLY_COMPLETED');
    const names = (step: string) => (second.results?.[step] ?? []).map((r) => r.name).sort();
    expect(names('s3_in')).toEqual(['from-sftp.txt', 'from-web.txt']);
    expect(names('ftp_in')).toEqual(['from-sftp.txt', 'from-web.txt']);
  });
});
