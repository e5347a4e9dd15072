// Templates over real HTTP on the local service: CRUD, every list parameter, built-ins, and Assemblies
// that run a Template, with the error codes of the spec and service-facts.md §10.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams } from '../auth/signature';
import { jpeg, postAssembly, startFixture, waitForEnd, type Fixture } from '../testing/service-fixture';

let fx: Fixture;
let key: string;
let secret: string;
let nonce = 0;

beforeAll(async () => {
  fx = await startFixture();
  key = fx.service.authKey;
  secret = fx.service.authSecret;
});
afterAll(() => fx.stop());

const expires = (): string => new Date(Date.now() + 3600_000).toISOString();

/** A signed form, as the SDKs send it: params with auth.key/expires and a fresh nonce, and its signature. */
function signed(extra: Record<string, unknown>, opts: { sign?: boolean } = {}): Record<string, string> {
  const params = JSON.stringify({ auth: { key, expires: expires() }, nonce: `n-${++nonce}-${Date.now()}`, ...extra });
  return opts.sign === false ? { params } : { params, signature: signParams(params, secret, 'sha384') };
}

async function call(method: string, path: string, extra: Record<string, unknown> = {}, opts: { sign?: boolean } = {}) {
  const fields = signed(extra, opts);
  const url = new URL(path, fx.service.url);
  let body: URLSearchParams | undefined;
  if (method === 'GET') for (const [k, v] of Object.entries(fields)) url.searchParams.set(k, v);
  else body = new URLSearchParams(fields);
  const res = await fetch(url, { method, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const steps = { ':original': { robot: '/upload/handle' }, small: { robot: '/image/resize', use: ':original', width: 64, height: 64, resize_strategy: 'fit' } };

async function create(name: string, content: unknown = { steps }, extra: Record<string, unknown> = {}) {
  const res = await call('POST', '/templates', { name, template: JSON.stringify(content), ...extra });
  expect(res.body.ok, JSON.stringify(res.body)).toBe('TEMPLATE_CREATED');
  return res.body;
}

describe('Templates CRUD', () => {
  it('creates (template as string or object), reads, edits and deletes a Template with the spec records', async () => {
    const made = await create('resize-small', { steps, allow_steps_override: true });
    expect(made.id).toMatch(/^[0-9a-f]{32}$/);
    expect(made).toMatchObject({ name: 'resize-small', require_signature_auth: 0, content: { steps } });

    const asObject = await call('POST', '/templates', { name: 'object-form', template: { steps } });
    expect(asObject.body).toMatchObject({ ok: 'TEMPLATE_CREATED', content: { steps } });

    const found = await call('GET', `/templates/${String(made.id)}`);
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ ok: 'TEMPLATE_FOUND', id: made.id, name: 'resize-small', require_signature_auth: 0, assembly_status_expiry: null, transcoding_result_expiry: null });
    expect(typeof found.body.message).toBe('string');

    const edited = await call('PUT', `/templates/${String(made.id)}`, { name: 'resize-tiny', require_signature_auth: 1 });
    expect(edited.body).toMatchObject({ ok: 'TEMPLATE_UPDATED', id: made.id, name: 'resize-tiny', require_signature_auth: 1, content: { steps } });

    const deleted = await call('DELETE', `/templates/${String(made.id)}`);
    expect(deleted.body).toEqual({ ok: 'TEMPLATE_DELETED', message: 'Your template was successfully deleted.' });
    const gone = await call('GET', `/templates/${String(made.id)}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error).toBe('TEMPLATE_NOT_FOUND');
    expect((await call('DELETE', `/templates/${String(made.id)}`)).body.error).toBe('TEMPLATE_NOT_FOUND');
  });

  it('requires a signature, and refuses bad names, bad JSON, bad flags and steps that could never run', async () => {
    const unsigned = await call('POST', '/templates', { name: 'x', template: '{}' }, { sign: false });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error).toBe('NO_SIGNATURE_FIELD');

    const cases: Array<[Record<string, unknown>, string]> = [
      [{ template: '{}' }, 'INVALID_TEMPLATE_FIELD'],
      [{ name: '', template: '{}' }, 'INVALID_TEMPLATE_FIELD'],
      [{ name: 'x'.repeat(256), template: '{}' }, 'INVALID_TEMPLATE_FIELD'],
      [{ name: 'no-content' }, 'INVALID_TEMPLATE_FIELD'],
      [{ name: 'bad-json', template: '{"steps": ' }, 'TEMPLATE_INVALID_JSON'],
      [{ name: 'bad-flag', template: '{}', require_signature_auth: 2 }, 'INVALID_TEMPLATE_FIELD'],
      [{ name: 'bad-robot', template: JSON.stringify({ steps: { ':original': { robot: '/upload/handle' }, x: { robot: '/no/such', use: ':original' } } }) }, 'ASSEMBLY_STEP_UNKNOWN_ROBOT'],
      [{ name: 'bad-use', template: JSON.stringify({ steps: { ':original': { robot: '/upload/handle' }, x: { robot: '/image/resize', use: 'nope' } } }) }, 'ASSEMBLY_STEP_UNKNOWN_USE'],
      [{ name: 'loop', template: JSON.stringify({ steps: { a: { robot: '/image/resize', use: 'b' }, b: { robot: '/image/resize', use: 'a' } } }) }, 'ASSEMBLY_INFINITE'],
    ];
    for (const [extra, code] of cases) {
      const res = await call('POST', '/templates', extra);
      expect(res.status, code).toBe(400);
      expect(res.body.error, JSON.stringify(extra).slice(0, 60)).toBe(code);
    }
    // The error says where: the step and the parameter, so an editor can mark the line.
    const tooWide = await call('POST', '/templates', { name: 'too-wide', template: JSON.stringify({ steps: { ':original': { robot: '/upload/handle' }, small: { robot: '/image/resize', use: ':original', width: 99999 } } }) });
    expect(tooWide.body).toMatchObject({ error: 'IMAGE_RESIZE_VALIDATION', step: 'small', parameter: 'width' });
    expect(tooWide.body.message).toContain('width must be a whole number from 1 to 25000 (got 99999)');
    // A name the robot does not take is refused as the vendor refuses it, with the name it was likely meant to be.
    const misspelled = await call('POST', '/templates', { name: 'misspelled', template: JSON.stringify({ steps: { ':original': { robot: '/upload/handle' }, small: { robot: '/image/resize', use: ':original', heigth: 200 } } }) });
    expect(misspelled.status).toBe(400);
    expect(misspelled.body).toMatchObject({ error: 'IMAGE_RESIZE_VALIDATION', step: 'small', parameter: 'heigth' });
    expect(misspelled.body.message).toContain('"heigth" is not a parameter of /image/resize. Did you mean "height"?');
    const s3 = await call('POST', '/templates', { name: 'youtube', template: JSON.stringify({ steps: { ':original': { robot: '/upload/handle' }, kept: { robot: '/youtube/store', use: ':original' } } }) });
    expect(s3.body).toMatchObject({ error: 'ASSEMBLY_STEP_UNKNOWN_ROBOT', step: 'kept', parameter: 'robot' });
    expect((await call('POST', '/templates', { name: 'flag', template: JSON.stringify({ allow_steps_override: 'no' }) })).body).toMatchObject({ error: 'INVALID_TEMPLATE_FIELD', parameter: 'allow_steps_override' });
    // Any JSON value is content.
    expect((await call('POST', '/templates', { name: 'a-number', template: '42' })).body).toMatchObject({ ok: 'TEMPLATE_CREATED', content: 42 });
    // An id longer than 32 characters never exists.
    expect((await call('GET', `/templates/${'a'.repeat(33)}`)).body.error).toBe('TEMPLATE_NOT_FOUND');
  });
});

describe('GET /templates', () => {
  let ids: Record<string, string> = {};
  beforeAll(async () => {
    // Own service so the list holds only what this block made.
    await fx.stop();
    fx = await startFixture();
    key = fx.service.authKey;
    secret = fx.service.authSecret;
    ids = {};
    for (const name of ['alpha-photos', 'beta_video', 'Gamma photos', 'delta%promo']) {
      ids[name] = String((await create(name)).id);
      await new Promise((r) => setTimeout(r, 1100)); // distinct `created` seconds
    }
  });

  const list = async (extra: Record<string, unknown>) => {
    const res = await call('GET', '/templates', extra);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return { names: (res.body.items as Array<{ name: string }>).map((t) => t.name), count: res.body.count as number, items: res.body.items as Array<Record<string, unknown>> };
  };

  it('defaults: newest first, no built-ins, count = total', async () => {
    const all = await list({});
    expect(all.names).toEqual(['delta%promo', 'Gamma photos', 'beta_video', 'alpha-photos']);
    expect(all.count).toBe(4);
    expect(all.items[0]).toMatchObject({ id: ids['delta%promo'], require_signature_auth: 0, content: { steps } });
    expect(all.items[0]!.created).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
  });

  it('sorts by name, id, created and modified, in both orders', async () => {
    expect((await list({ sort: 'name', order: 'asc' })).names).toEqual(['alpha-photos', 'beta_video', 'delta%promo', 'Gamma photos']);
    expect((await list({ sort: 'name', order: 'desc' })).names).toEqual(['Gamma photos', 'delta%promo', 'beta_video', 'alpha-photos']);
    expect((await list({ sort: 'created', order: 'asc' })).names[0]).toBe('alpha-photos');
    const byId = (await list({ sort: 'id', order: 'asc' })).items.map((t) => t.id as string);
    expect(byId).toEqual([...byId].sort());
    await call('PUT', `/templates/${ids['beta_video']!}`, { description: 'touched' });
    expect((await list({ sort: 'modified', order: 'desc' })).names[0]).toBe('beta_video');
    expect((await list({ sort: 'last_used', order: 'desc' })).count).toBe(4);
  });

  it('pages with page and pagesize, sharing count', async () => {
    const p1 = await list({ pagesize: 3, page: 1 });
    const p2 = await list({ pagesize: 3, page: 2 });
    expect([p1.names.length, p2.names.length, p1.count, p2.count]).toEqual([3, 1, 4, 4]);
    expect(new Set([...p1.names, ...p2.names]).size).toBe(4);
    expect((await list({ pagesize: 3, page: 3 })).names).toEqual([]);
  });

  it('filters names with SQL LIKE keywords (% and _ wildcards, case-insensitive, arrays joined with commas)', async () => {
    expect((await list({ keywords: 'photos' })).names.sort()).toEqual(['Gamma photos', 'alpha-photos']);
    expect((await list({ keywords: 'GAMMA' })).names).toEqual(['Gamma photos']);
    // `_` is any one character: "a p", "a-p" and also "a%p".
    expect((await list({ keywords: 'a_p' })).names.sort()).toEqual(['Gamma photos', 'alpha-photos', 'delta%promo']);
    expect((await list({ keywords: 'beta%video' })).names).toEqual(['beta_video']);
    expect((await list({ keywords: ['alpha', 'photos'] })).names).toEqual([]); // one pattern: "%alpha,photos%"
    expect((await list({ keywords: 'nothing-like-this' })).count).toBe(0);
  });

  it('filters by creation date with fromdate and todate', async () => {
    const items = (await list({ sort: 'created', order: 'asc' })).items;
    const third = items[2]!.created as string;
    expect((await list({ fromdate: third, sort: 'created', order: 'asc' })).names).toEqual(['Gamma photos', 'delta%promo']);
    expect((await list({ todate: third, sort: 'created', order: 'asc' })).names).toEqual(['alpha-photos', 'beta_video', 'Gamma photos']);
    expect((await list({ fromdate: third, todate: third })).names).toEqual(['Gamma photos']);
  });

  it('includes built-ins first, sharing the pagination, with all five include_builtin values', async () => {
    const all = await list({ include_builtin: 'all' });
    const builtins = all.items.filter((t) => String(t.id).startsWith('builtin/'));
    expect(all.items.slice(0, builtins.length)).toEqual(builtins);
    expect(all.count).toBe(builtins.length + 4);
    expect(builtins.map((t) => t.id)).toContain('builtin/image-resize@0.0.1');
    expect(builtins.map((t) => t.id)).toContain('builtin/image-resize@0.0.2');
    expect(builtins[0]).toMatchObject({ name: expect.stringMatching(/^builtin\//), builtin_version: expect.any(String) });

    const latest = await list({ include_builtin: 'latest' });
    const latestIds = latest.items.filter((t) => String(t.id).startsWith('builtin/')).map((t) => t.id);
    expect(latestIds).toContain('builtin/image-resize@0.0.2');
    expect(latestIds).not.toContain('builtin/image-resize@0.0.1');
    expect(latest.count).toBe(latestIds.length + 4);

    const onlyAll = await list({ include_builtin: 'exclusively-all' });
    expect(onlyAll.count).toBe(builtins.length);
    expect(onlyAll.items.every((t) => String(t.id).startsWith('builtin/'))).toBe(true);
    expect((await list({ include_builtin: 'exclusively-latest' })).count).toBe(latestIds.length);
    expect((await list({ include_builtin: 'none' })).count).toBe(4);

    // Built-in slugs match keywords by case-insensitive substring; they are not date-filtered.
    expect((await list({ include_builtin: 'exclusively-all', keywords: 'RESIZE' })).items.map((t) => t.id)).toEqual(['builtin/image-resize@0.0.2', 'builtin/image-resize@0.0.1']);
    expect((await list({ include_builtin: 'exclusively-all', fromdate: '2099-01-01 00:00:00' })).count).toBe(builtins.length);
    // Built-ins take the first slots of page 1.
    const firstPage = await list({ include_builtin: 'all', pagesize: builtins.length + 1 });
    expect(firstPage.names[builtins.length]).toBe('delta%promo');
  });

  it('answers TEMPLATE_LIST_ERROR (400) for every bad parameter', async () => {
    const bad: Record<string, unknown>[] = [
      { page: 0 },
      { page: 'x' },
      { pagesize: 0 },
      { pagesize: 851 },
      { sort: 'size' },
      { order: 'up' },
      { fromdate: '2026-13-01 00:00:00' },
      { fromdate: 'yesterday' },
      { todate: '2026-01-01T00:00:00Z' },
      { keywords: [1, 2] },
      { keywords: { a: 1 } },
      { include_builtin: 'some' },
    ];
    for (const extra of bad) {
      const res = await call('GET', '/templates', extra);
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body).toMatchObject({ error: 'TEMPLATE_LIST_ERROR', http_code: 400 });
    }
    expect((await call('GET', '/templates', { pagesize: 850 })).status).toBe(200);
  });
});

describe('Built-in Templates', () => {
  it('reads a built-in by version, by @latest and without a version, and refuses to change one', async () => {
    const v1 = await call('GET', '/templates/builtin/image-resize@0.0.1');
    expect(v1.body).toMatchObject({ ok: 'TEMPLATE_FOUND', id: 'builtin/image-resize@0.0.1', builtin_version: '0.0.1' });
    expect((await call('GET', '/templates/builtin/image-resize@latest')).body.id).toBe('builtin/image-resize@0.0.2');
    expect((await call('GET', '/templates/builtin/image-resize')).body.id).toBe('builtin/image-resize@0.0.2');
    expect((await call('GET', '/templates/builtin/image-resize@9.9.9')).body.error).toBe('TEMPLATE_NOT_FOUND');
    const edit = await call('PUT', '/templates/builtin/image-resize@0.0.1', { name: 'mine' });
    expect(edit.status).toBe(403);
    expect(edit.body.error).toBe('TEMPLATE_BUILTIN_READ_ONLY');
  });
});

describe('Assemblies with template_id', () => {
  async function run(params: Record<string, unknown>, opts: { sign?: boolean; fields?: Record<string, string> } = {}) {
    const fields = signed(params, opts);
    // params and signature exactly as signed, then the fields, then the file (the service wants params and
    // signature before any file part).
    const form = new FormData();
    form.set('params', fields.params!);
    if (fields.signature) form.set('signature', fields.signature);
    for (const [k, v] of Object.entries(opts.fields ?? {})) form.set(k, v);
    form.append('file', new Blob([new Uint8Array(await jpeg(400, 200))], { type: 'image/jpeg' }), 'p.jpg');
    return postAssembly(fx.service.url, form);
  }

  it('runs the Template, merges request fields over its content, and records template_id and last_used', async () => {
    const t = await create('with-fields', { steps, fields: { project: 'template', keep: 'yes' } });
    const created = await run({ template_id: t.id, fields: { project: 'request' } });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    expect(done.template_id).toBe(t.id);
    expect(done.fields).toMatchObject({ project: 'request', keep: 'yes' });
    const small = (done.results as Record<string, Array<{ meta: { width: number } }>>).small!;
    expect(small[0]!.meta.width).toBe(64);
    expect(JSON.parse(String(done.params))).not.toHaveProperty('steps'); // only the request's own params
    const read = await call('GET', `/templates/${String(t.id)}`);
    expect(read.body.last_used).toMatch(/^\d{4}-/);
  });

  it('lets request steps override the Template, unless allow_steps_override is false', async () => {
    const open = await create('overridable', { steps });
    const override = { small: { width: 32 } };
    const merged = await waitForEnd(String((await run({ template_id: open.id, steps: override })).body.assembly_ssl_url));
    expect((merged.results as Record<string, Array<{ meta: { width: number } }>>).small![0]!.meta.width).toBe(32);

    const closed = await create('locked', { steps, allow_steps_override: false });
    const denied = await run({ template_id: closed.id, steps: override });
    expect(denied.status).toBe(400);
    expect(denied.body.error).toBe('TEMPLATE_DENIES_STEPS_OVERRIDE');
    // null steps are "not given": allowed.
    expect((await run({ template_id: closed.id, steps: null })).status).toBe(200);
  });

  it('enforces require_signature_auth, auth.max_size from the Template, and TEMPLATE_NOT_FOUND', async () => {
    const strict = await create('strict', { steps }, { require_signature_auth: 1 });
    const unsigned = await run({ template_id: strict.id }, { sign: false });
    expect(unsigned.status).toBe(401);
    expect(unsigned.body.error).toBe('NO_SIGNATURE_FIELD');
    expect((await run({ template_id: strict.id })).status).toBe(200);

    const tiny = await create('tiny-limit', { steps, auth: { max_size: 10 } });
    const limited = await run({ template_id: tiny.id });
    const end = await waitForEnd(String(limited.body.assembly_ssl_url));
    expect(end.error ?? limited.body.error).toBe('MAX_SIZE_EXCEEDED');

    const missing = await run({ template_id: 'f'.repeat(32) });
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe('TEMPLATE_NOT_FOUND');
  });

  it('runs a built-in by @latest: non-images are skipped, images resized', async () => {
    const created = await run({ template_id: 'builtin/image-resize@latest' });
    const done = await waitForEnd(String(created.body.assembly_ssl_url));
    expect(done.ok).toBe('ASSEMBLY_COMPLETED');
    expect(done.template_id).toBe('builtin/image-resize@0.0.2');
    expect((done.results as Record<string, unknown[]>).resized).toHaveLength(1);
  });
});
