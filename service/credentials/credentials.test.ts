// Template credentials over real HTTP, and /sftp/store exporting to a real OpenSSH server on loopback.
import { execFileSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams } from '../auth/signature';
import { buildForm, jpeg, postAssembly, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';
import { startSftpServer, type SftpServer } from '../testing/sftp-server';

let fx: Fixture;
let sftp: SftpServer;
let nonce = 0;

beforeAll(async () => {
  // Four slots: the jobs of one step write to the server side by side.
  [fx, sftp] = await Promise.all([startFixture({ jobSlots: 4 }), startSftpServer()]);
});
afterAll(async () => {
  await Promise.all([fx.stop(), sftp.stop()]);
});

function signed(extra: Record<string, unknown>): Record<string, string> {
  const params = JSON.stringify({ auth: { key: fx.service.authKey, expires: new Date(Date.now() + 3600_000).toISOString() }, nonce: `c-${++nonce}`, ...extra });
  return { params, signature: signParams(params, fx.service.authSecret, 'sha384') };
}

async function call(method: string, path: string, extra: Record<string, unknown> = {}) {
  const fields = signed(extra);
  const url = new URL(path, fx.service.url);
  let body: URLSearchParams | undefined;
  if (method === 'GET') for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
  else body = new URLSearchParams(fields);
  const res = await fetch(url, { method, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const sftpContent = () => ({ host: sftp.host, port: sftp.port, user: sftp.user, private_key: sftp.privateKey });

describe('Template credentials', () => {
  it('creates, lists, reads by id and by name, edits and deletes, with the spec records', async () => {
    const created = await call('POST', '/template_credentials', { name: 'backup-server', type: 'sftp', content: sftpContent() });
    expect(created.body.ok).toBe('TEMPLATE_CREDENTIALS_CREATED');
    const credential = created.body.credential as Record<string, unknown>;
    expect(credential).toMatchObject({ name: 'backup-server', type: 'sftp', content: sftpContent(), account_id: expect.any(String), deleted: null });
    expect(JSON.parse(String(credential.stringified))).toEqual(sftpContent());
    for (const key of ['id', 'created', 'modified']) expect(credential[key]).toBeTruthy();

    const list = await call('GET', '/template_credentials');
    expect(list.body.ok).toBe('TEMPLATE_CREDENTIALS_FOUND');
    expect((list.body.credentials as Array<{ name: string }>).map((c) => c.name)).toContain('backup-server');
    expect((await call('GET', `/template_credentials/${String(credential.id)}`)).body.credential).toMatchObject({ name: 'backup-server' });
    expect((await call('GET', '/template_credentials/backup-server')).body.credential).toMatchObject({ id: credential.id });

    const edited = await call('PUT', '/template_credentials/backup-server', { content: JSON.stringify({ ...sftpContent(), port: 2222 }) });
    expect(edited.body).toMatchObject({ ok: 'TEMPLATE_CREDENTIALS_UPDATED', credential: { content: { port: 2222 } } });

    expect((await call('DELETE', '/template_credentials/backup-server')).body.ok).toBe('TEMPLATE_CREDENTIALS_DELETED');
    const gone = await call('GET', `/template_credentials/${String(credential.id)}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('TEMPLATE_CREDENTIALS_NOT_READ');
  });

  it('accepts the names the real service accepts (prod_sftp, media-s3) and renames to them', async () => {
    for (const [name, type] of [['prod_sftp', 'sftp'], ['media-s3', 's3'], ['YOUR_S3_CREDENTIALS', 's3']] as const) {
      const created = await call('POST', '/template_credentials', { name, type, content: {} });
      expect(created.status, name).toBe(200);
      expect(created.body).toMatchObject({ ok: 'TEMPLATE_CREDENTIALS_CREATED', credential: { name, type } });
      expect((await call('GET', `/template_credentials/${name}`)).body.credential).toMatchObject({ name });
    }
    const renamed = await call('PUT', '/template_credentials/prod_sftp', { name: 'prod_sftp_2' });
    expect(renamed.body).toMatchObject({ ok: 'TEMPLATE_CREDENTIALS_UPDATED', credential: { name: 'prod_sftp_2' } });
    const refused = await call('PUT', '/template_credentials/prod_sftp_2', { name: 'prod sftp' });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toBe('TEMPLATE_CREDENTIALS_INVALID');
    expect(String(refused.body.message)).toContain('cannot contain spaces');
    for (const name of ['prod_sftp_2', 'media-s3', 'YOUR_S3_CREDENTIALS']) await call('DELETE', `/template_credentials/${name}`);
  });

  it('refuses bad names, types, content and a taken name, and requires a signature', async () => {
    for (const extra of [
      { name: 'abc', type: 'sftp', content: {} },
      { name: 'has space', type: 'sftp', content: {} },
      { name: 'dots.and/slashes', type: 'sftp', content: {} },
      { name: 42, type: 'sftp', content: {} },
      { name: 'good-name', type: 'floppy', content: {} },
      // Any JSON value is content (next test), but text that starts like JSON must be JSON, and content is required.
      { name: 'good-name', type: 'sftp', content: '{"host": "a",' },
      { name: 'good-name', type: 'sftp', content: ' [1, 2' },
      { name: 'good-name', type: 'sftp' },
    ]) {
      const res = await call('POST', '/template_credentials', extra);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.error).toBe('TEMPLATE_CREDENTIALS_INVALID');
      if (typeof extra.name === 'string' && extra.name !== 'good-name') expect(String(res.body.message)).toContain('latin letters, digits, dashes (-) and underscores (_)');
    }
    await call('POST', '/template_credentials', { name: 'taken-name', type: 'sftp', content: {} });
    expect((await call('POST', '/template_credentials', { name: 'taken-name', type: 's3', content: {} })).body.error).toBe('TEMPLATE_CREDENTIALS_NAME_TAKEN');
    const unsigned = await fetch(new URL('/template_credentials', fx.service.url), { method: 'POST', body: new URLSearchParams({ params: JSON.stringify({ auth: { key: fx.service.authKey }, name: 'x-x-x-x', type: 'sftp', content: {} }) }) });
    expect(unsigned.status).toBe(401);
    expect(((await unsigned.json()) as { error: string }).error).toBe('NO_SIGNATURE_FIELD');
    expect((await call('GET', '/template_credentials/types')).body.types).toContain('sftp');
  });

  it('keeps content of any JSON type (the spec), reads it back as sent and edits between types', async () => {
    const values: [string, unknown][] = [
      ['api-token', 'sk-live-1234'],
      ['number-cred', 42],
      ['list-cred', [{ bucket: 'a' }, { bucket: 'b' }]],
      ['flag-cred', false],
      ['null-cred', null],
      ['text-with-brace', 'token } not json'],
    ];
    for (const [name, content] of values) {
      const created = await call('POST', '/template_credentials', { name, type: 'http', content });
      expect(created.body.ok, name).toBe('TEMPLATE_CREDENTIALS_CREATED');
      expect((created.body.credential as Record<string, unknown>).content, name).toEqual(content);
      const read = (await call('GET', `/template_credentials/${name}`)).body.credential as Record<string, unknown>;
      expect(read.content, name).toEqual(content);
      expect(read.stringified, name).toBe(JSON.stringify(content));
    }
    const listed = (await call('GET', '/template_credentials')).body.credentials as { name: string; content: unknown }[];
    expect(listed.find((c) => c.name === 'list-cred')?.content).toEqual([{ bucket: 'a' }, { bucket: 'b' }]);
    // A JSON text of an object or array is that value (form-encoded SDKs send objects so).
    const fromText = await call('POST', '/template_credentials', { name: 'from-text', type: 'http', content: '{"user": "me"}' });
    expect((fromText.body.credential as { content: unknown }).content).toEqual({ user: 'me' });
    // Edits change the type of the content; null is a value, leaving content out keeps it.
    expect((await call('PUT', '/template_credentials/api-token', { content: { token: 'sk-2' } })).body.credential).toMatchObject({ content: { token: 'sk-2' } });
    expect((await call('PUT', '/template_credentials/api-token', { content: null })).body.credential).toMatchObject({ content: null });
    const renamed = (await call('PUT', '/template_credentials/number-cred', { name: 'number-cred-2' })).body.credential as { content: unknown };
    expect(renamed.content).toBe(42);
  });
});

describe('/sftp/store', () => {
  // params and signature come before the file part, as the SDKs send them.
  const photo = async () => buildForm({ params: {}, fields: { signature: '' }, files: [{ field: 'file', name: 'sunset.jpg', data: await jpeg(320, 240), type: 'image/jpeg' }] });

  async function run(store: Record<string, unknown>, templateId?: string) {
    const form = await photo();
    const extra = templateId
      ? { template_id: templateId }
      : { steps: { ':original': { robot: '/upload/handle' }, exported: { robot: '/sftp/store', use: ':original', ...store } } };
    const fields = signed(extra);
    form.set('params', fields.params!);
    form.set('signature', fields.signature!);
    const created = await postAssembly(fx.service.url, form);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return waitForEnd(String(created.body.assembly_ssl_url));
  }

  it('exports with credentials named in a Template, and with dynamic parameters instead', async () => {
    await call('POST', '/template_credentials', { name: 'photo-archive', type: 'sftp', content: sftpContent() });
    const template = await call('POST', '/templates', {
      name: 'archive photos',
      template: JSON.stringify({ steps: { ':original': { robot: '/upload/handle' }, exported: { robot: '/sftp/store', use: ':original', credentials: 'photo-archive', path: `${sftp.root}/by-name/\${file.name}` } } }),
    });
    const viaName = await run({}, String(template.body.id));
    expect(viaName.ok, JSON.stringify(viaName.error ?? viaName.message)).toBe('ASSEMBLY_COMPLETED');
    const stored = join(sftp.root, 'by-name', 'sunset.jpg');
    expect(existsSync(stored)).toBe(true);
    const uploads = viaName.uploads as Array<{ md5hash: string; size: number }>;
    expect(readFileSync(stored).length).toBe(uploads[0]!.size);
    const result = (viaName.results as Record<string, Array<{ meta: { stored_path: string; stored_url: string } }>>).exported![0]!;
    expect(result.meta.stored_path).toBe(stored);

    const inline = await run({ ...sftpContent(), path: `${sftp.root}/inline/\${unique_prefix}/\${file.url_name}` });
    expect(inline.ok).toBe('ASSEMBLY_COMPLETED');
    const inlinePath = (inline.results as Record<string, Array<{ meta: { stored_path: string } }>>).exported![0]!.meta.stored_path;
    expect(inlinePath.startsWith(join(sftp.root, 'inline'))).toBe(true);
    expect(existsSync(inlinePath)).toBe(true);
  });

  it('exports a batch side by side into a folder that does not exist yet: every file arrives', async () => {
    const files = await Promise.all(Array.from({ length: 8 }, async (_, i) => ({ field: `file${i}`, name: `photo-${i}.jpg`, data: await jpeg(64 + i, 48), type: 'image/jpeg' })));
    const fields = signed({ steps: { ':original': { robot: '/upload/handle' }, exported: { robot: '/sftp/store', use: ':original', ...sftpContent(), path: `${sftp.root}/batch/2026/11/\${file.name}` } } });
    const created = await postAssembly(fx.service.url, buildForm({ params: fields.params!, fields: { signature: fields.signature! }, files }));
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.ok, JSON.stringify(done.message)).toBe('ASSEMBLY_COMPLETED');
    expect(readdirSync(join(sftp.root, 'batch', '2026', '11')).sort()).toEqual(files.map((f) => f.name).sort());
  });

  it('a write stuck on the server does not keep the Assembly executing once another file fails', async () => {
    // stuck.jpg's target is a FIFO nobody reads: the server blocks opening it, for good. bad.jpg's is a folder.
    const folder = join(sftp.root, 'stuck');
    mkdirSync(join(folder, 'bad.jpg'), { recursive: true });
    execFileSync('mkfifo', [join(folder, 'stuck.jpg')]);
    try {
      const files = await Promise.all(['stuck.jpg', 'bad.jpg'].map(async (name, i) => ({ field: `file${i}`, name, data: await jpeg(64, 48), type: 'image/jpeg' })));
      const fields = signed({ steps: { ':original': { robot: '/upload/handle' }, exported: { robot: '/sftp/store', use: ':original', ...sftpContent(), path: `${folder}/\${file.name}` } } });
      const created = await postAssembly(fx.service.url, buildForm({ params: fields.params!, fields: { signature: fields.signature! }, files }));
      const done = await waitForEnd(String(created.body.assembly_ssl_url));
      expect(done.error).toBe('SFTP_STORE_ERROR');
      expect(String(done.message)).toContain(`${folder}/bad.jpg`);
    } finally {
      // Let the server's blocked open() return, so its session can end.
      closeSync(openSync(join(folder, 'stuck.jpg'), constants.O_RDONLY | constants.O_NONBLOCK));
    }
  });

  it('fails the step with a clear error for a wrong key, an unknown credential and missing parameters', async () => {
    const wrong = await run({ host: sftp.host, port: sftp.port, user: sftp.user, private_key: sftp.wrongKey, path: `${sftp.root}/never.jpg` });
    expect(wrong.error).toBe('SFTP_STORE_AUTH_FAILED');
    expect(String(wrong.message)).toMatch(new RegExp(`could not log in to ${sftp.user}@127\\.0\\.0\\.1:${sftp.port}`));
    expect(existsSync(join(sftp.root, 'never.jpg'))).toBe(false);

    const unknown = await run({ credentials: 'no-such-thing' });
    expect(unknown.error).toBe('SFTP_STORE_VALIDATION');
    expect(String(unknown.message)).toMatch(/no Template credentials named "no-such-thing"/);

    const missing = await run({ host: sftp.host });
    expect(missing.error).toBe('SFTP_STORE_VALIDATION');

    // Content may be any JSON value, but /sftp/store needs its fields: said at the step, never a crash.
    await call('POST', '/template_credentials', { name: 'sftp-as-text', type: 'sftp', content: 'user@host' });
    const text = await run({ credentials: 'sftp-as-text' });
    expect(text.error).toBe('SFTP_STORE_VALIDATION');
    expect(String(text.message)).toMatch(/"sftp-as-text" hold a string, not the fields sftp needs/);
  });
});
