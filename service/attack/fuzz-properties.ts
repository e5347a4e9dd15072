// The fuzzers, as fast-check properties over one FuzzTarget. Shared by the tests (fuzz-*.test.ts, a
// hundred-odd cases each, strict) and bench/fuzz-long.ts (10,000+ cases each, counting).
import fc from 'fast-check';
import sharp from 'sharp';
import { anyJson, deepJsonText, hostileName, likePattern, oddNumber, oddString, randomSteps, tusMetadata, tusNumber } from './arbitraries';
import { b64, multipart, type FuzzTarget } from './fuzz-target';

export interface Fuzzer {
  name: string;
  property(t: FuzzTarget, img: Buffer): fc.IAsyncPropertyWithHooks<unknown[]>;
}

/** A tiny real JPEG, so steps that run have something to work on. */
export const tinyJpeg = (): Promise<Buffer> => sharp({ create: { width: 8, height: 6, channels: 3, background: '#c04020' } }).jpeg().toBuffer();

const clip = (v: unknown): string => {
  const s = typeof v === 'string' ? v : (JSON.stringify(v) ?? String(v));
  return s.length > 300 ? `${s.slice(0, 300)}… (${s.length} chars)` : s;
};

/** Steps whose robots write files named after the input (and an archive named by `archive_name`). */
const namingSteps = (archiveName: string): Record<string, unknown> => ({
  ':original': { robot: '/upload/handle' },
  optimized: { use: ':original', robot: '/image/optimize' },
  resized: { use: ':original', robot: '/image/resize', width: 4, height: 4 },
  hashed: { use: ':original', robot: '/file/hash' },
  archived: { use: [':original', 'resized'], robot: '/file/compress', archive_name: archiveName },
});

/** A multipart body with the file name in the header as a client would put it: plain, or RFC 5987 `filename*`. */
function rawMultipart(fields: [string, string][], file: { name: string; data: Buffer; star: boolean }): { body: Buffer; type: string } {
  const boundary = `----fuzz${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of fields) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  const disposition = file.star
    ? `filename*=UTF-8''${encodeURIComponent(file.name)}`
    : `filename="${file.name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A')}"`;
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; ${disposition}\r\nContent-Type: image/jpeg\r\n\r\n`), file.data, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), type: `multipart/form-data; boundary=${boundary}` };
}

/** An Assembly waiting for one tus upload; its id and URL. */
async function tusAssembly(t: FuzzTarget, steps: Record<string, unknown>): Promise<{ id: string; url: string } | null> {
  const raw = JSON.stringify({ auth: t.authBlock(), steps });
  const a = await t.request('/assemblies', { method: 'POST', body: multipart(raw, { signature: t.sign(raw), fields: { num_expected_upload_files: '1' } }) });
  const id = a.json?.assembly_id;
  return typeof id === 'string' ? { id, url: String(a.json?.assembly_url) } : null;
}

/** Params nested `depth` deep at one place, valid elsewhere, so the nesting gets past the first checks. */
function deepParams(key: string, depth: number, kind: 'array' | 'object', where: string): string {
  const deep = deepJsonText(depth, kind);
  if (where === 'params') return deep;
  const steps = where === 'steps' ? deep : where === 'step-param' ? `{":original":{"robot":"/upload/handle"},"h":{"use":":original","robot":"/file/hash","x":${deep}}}` : '{":original":{"robot":"/upload/handle"}}';
  const auth = where === 'auth' ? `{"key":"${key}","x":${deep}}` : `{"key":"${key}"}`;
  return `{"auth":${auth},"steps":${steps}${where === 'fields' ? `,"fields":${deep}` : ''}${where === 'template_id' ? `,"template_id":${deep}` : ''}}`;
}

const params: Fuzzer = {
  name: 'Assembly params',
  property: (t, img) =>
    fc.asyncProperty(
      fc.oneof(
        { weight: 4, arbitrary: fc.record({ auth: fc.oneof(anyJson, fc.record({ key: fc.oneof(fc.constant(t.authKey), oddString, anyJson), expires: fc.oneof(fc.constant(new Date(Date.now() + 3600_000).toISOString()), oddString, oddNumber, anyJson), max_size: fc.oneof(oddNumber, oddString), max_number_of_files: fc.oneof(oddNumber, oddString), nonce: anyJson, referer: fc.oneof(oddString, anyJson) }, { requiredKeys: [] })), steps: anyJson, fields: anyJson, template_id: fc.oneof(oddString, anyJson), notify_url: oddString, emit_execution_progress: anyJson }, { requiredKeys: [] }).map((p) => JSON.stringify(p)) },
        { weight: 2, arbitrary: anyJson.map((v) => JSON.stringify(v) ?? 'undefined') },
        { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
        { weight: 2, arbitrary: fc.record({ depth: fc.oneof(fc.integer({ min: 10, max: 1000 }), fc.integer({ min: 1000, max: 200_000 })), kind: fc.constantFrom('array' as const, 'object' as const), where: fc.constantFrom('params', 'steps', 'fields', 'auth', 'step-param', 'template_id') }).map(({ depth, kind, where }) => deepParams(t.authKey, depth, kind, where)) },
      ),
      fc.constantFrom('none', 'valid', 'junk'),
      fc.dictionary(fc.constantFrom('num_expected_upload_files', 'tus_num_expected_upload_files', 'x', 'fields'), fc.oneof(oddString, tusNumber), { maxKeys: 2 }),
      fc.boolean(),
      async (raw, sig, fields, withFile) => {
        await t.runCase(`params=${clip(raw)} signature=${sig} fields=${clip(fields)} file=${withFile}`, async () => {
          const signature = sig === 'valid' ? t.sign(raw) : sig === 'junk' ? 'sha384:deadbeef' : undefined;
          const a = await t.request('/assemblies', { method: 'POST', body: multipart(raw, { ...(signature ? { signature } : {}), fields, files: withFile ? [{ name: 'a.jpg', data: img }] : [] }) });
          if (a.status === 200 && typeof a.json?.assembly_id === 'string') {
            if (a.json.ok === 'ASSEMBLY_UPLOADING') await t.request(`/assemblies/${a.json.assembly_id}`, { method: 'DELETE' });
            else await t.waitForEnd(a.json.assembly_id);
          }
        });
      },
    ),
};

const steps: Fuzzer = {
  name: 'Assembly steps',
  property: (t, img) =>
    fc.asyncProperty(randomSteps, fc.boolean(), async (stepsValue, signed) => {
      const raw = JSON.stringify({ auth: t.authBlock(), steps: stepsValue });
      await t.runCase(`steps=${clip(stepsValue)}`, async () => {
        const a = await t.request('/assemblies', { method: 'POST', body: multipart(raw, { ...(signed ? { signature: t.sign(raw) } : {}), files: [{ name: 'in.jpg', data: img }] }) });
        if (a.status === 200 && typeof a.json?.assembly_id === 'string') await t.waitForEnd(a.json.assembly_id);
      });
    }),
};

const multipartNames: Fuzzer = {
  name: 'file names through multipart',
  property: (t, img) =>
    fc.asyncProperty(hostileName, hostileName, fc.boolean(), async (name, archiveName, star) => {
      await t.runCase(`multipart name=${JSON.stringify(name)} archive_name=${JSON.stringify(archiveName)} star=${star}`, async () => {
        const raw = JSON.stringify({ auth: t.authBlock(), steps: namingSteps(archiveName) });
        const form = rawMultipart([['params', raw], ['signature', t.sign(raw)]], { name, data: img, star });
        const a = await t.request('/assemblies', { method: 'POST', body: form.body, headers: { 'Content-Type': form.type } });
        if (a.status === 200 && typeof a.json?.assembly_id === 'string') await t.waitForEnd(a.json.assembly_id);
      });
    }),
};

const tusNames: Fuzzer = {
  name: 'file names through tus',
  property: (t, img) =>
    fc.asyncProperty(hostileName, hostileName, fc.constantFrom('filename', 'name'), async (name, archiveName, key) => {
      await t.runCase(`tus ${key}=${JSON.stringify(name)} archive_name=${JSON.stringify(archiveName)}`, async () => {
        const assembly = await tusAssembly(t, namingSteps(archiveName));
        if (!assembly) return;
        const meta = `assembly_url ${b64(assembly.url)},fieldname ${b64('file')},${key} ${b64(name)}`;
        await t.request('/resumable/files/', {
          method: 'POST',
          headers: { 'Tus-Resumable': '1.0.0', 'Upload-Length': String(img.length), 'Upload-Metadata': meta, 'Content-Type': 'application/offset+octet-stream' },
          body: img,
        });
        await t.waitForEnd(assembly.id);
      });
    }),
};

/** Valid values most of the time (so the request reaches the matching code), odd ones otherwise; or absent. */
const mostlyValid = <T, U>(valid: fc.Arbitrary<T>, odd: fc.Arbitrary<U>): fc.Arbitrary<T | U | undefined> =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 4, arbitrary: valid }, { weight: 1, arbitrary: odd });

/** Templates named so that LIKE patterns have something to (not) match. */
async function seedTemplates(t: FuzzTarget): Promise<void> {
  for (const name of ['holiday photos', 'thumbs_100%', 'Ünïcödé', 'a'.repeat(200)]) {
    const raw = JSON.stringify({ auth: t.authBlock(), name, template: { steps: { ':original': { robot: '/upload/handle' } } } });
    const made = await t.request('/templates', { method: 'POST', body: new URLSearchParams({ params: raw, signature: t.sign(raw) }) });
    if (made.status !== 200) throw new Error(`could not seed the Template "${name}": ${made.status} ${made.text.slice(0, 200)}`);
  }
}

const listQueries: Fuzzer = {
  name: 'Template keywords and list query parameters',
  property: (t) => {
    let seeded = false;
    return fc
      .asyncProperty(
        fc.constantFrom('/templates', '/assemblies'),
        fc.record(
          {
            keywords: fc.oneof({ weight: 6, arbitrary: likePattern }, { weight: 2, arbitrary: fc.array(likePattern, { maxLength: 4 }) }, { weight: 1, arbitrary: anyJson }),
            keyword: likePattern,
            page: mostlyValid(fc.nat({ max: 5 }).map((n) => n + 1), fc.oneof(oddNumber, oddString)),
            pagesize: mostlyValid(fc.integer({ min: 1, max: 850 }), fc.oneof(oddNumber, oddString)),
            sort: mostlyValid(fc.constantFrom('created', 'modified', 'name', 'id'), oddString),
            order: mostlyValid(fc.constantFrom('asc', 'desc'), oddString),
            type: mostlyValid(fc.constantFrom('all', 'failed', 'completed'), oddString),
            fromdate: mostlyValid(fc.constantFrom('2020-01-01 00:00:00', '2020-01-01T00:00:00Z'), oddString),
            todate: mostlyValid(fc.constantFrom('2099-01-01 00:00:00'), oddString),
            include_builtin: mostlyValid(fc.constantFrom('none', 'latest', 'all', 'exclusively-latest', 'exclusively-all'), oddString),
            assembly_id: oddString,
          },
          { requiredKeys: [] },
        ),
        fc.boolean(),
        async (path, query, inQueryString) => {
          await t.runCase(`GET ${path} ${clip(query)}`, async () => {
            const present = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined));
            const raw = JSON.stringify({ auth: t.authBlock(), ...present });
            const url = new URL(path, t.url);
            url.searchParams.set('params', raw);
            url.searchParams.set('signature', t.sign(raw));
            // Some clients put list params next to params in the query string.
            if (inQueryString) for (const [k, v] of Object.entries(present)) url.searchParams.set(k, typeof v === 'string' ? v : JSON.stringify(v));
            await t.request(url.pathname + url.search);
          });
        },
      )
      .beforeEach(async () => {
        if (!seeded) await seedTemplates(t);
        seeded = true;
      });
  },
};

const statsTime = mostlyValid(fc.integer({ min: 1_700_000_000, max: 1_900_000_000 }), fc.oneof(oddNumber, oddString, fc.constantFrom('2026-11-01 00:00:00', '2026-02-31 00:00:00', 'NOW()', '')));

/** GET /assembly_stats params and GET /bill/{month} paths: odd times, regions, granularities and months. */
const accountReads: Fuzzer = {
  name: 'statistics params and bill months',
  property: (t) =>
    fc.asyncProperty(
      fc.record(
        {
          since: statsTime,
          until: statsTime,
          region: mostlyValid(fc.constantFrom('local', 'all', 'eu-west-1'), fc.oneof(oddString, oddNumber)),
          granularity: mostlyValid(fc.integer({ min: 1, max: 200_000 }), fc.oneof(oddNumber, oddString)),
        },
        { requiredKeys: [] },
      ),
      fc.oneof(fc.constantFrom('2026-11', '2000-01', '1999-12', '2026-13', '9999-12'), oddString.map((v) => encodeURIComponent(String(v)))),
      async (query, month) => {
        await t.runCase(`GET /assembly_stats ${clip(query)}`, async () => {
          const raw = JSON.stringify({ auth: t.authBlock(), ...Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined)) });
          await t.request(`/assembly_stats?${new URLSearchParams({ params: raw, signature: t.sign(raw) })}`);
        });
        await t.runCase(`GET /bill/${clip(month)}`, async () => {
          const raw = JSON.stringify({ auth: t.authBlock() });
          await t.request(`/bill/${month}?${new URLSearchParams({ params: raw, signature: t.sign(raw) })}`);
        });
      },
    ),
};

/** Stands for the Assembly's URL in generated metadata; replaced once the Assembly exists. */
const ASSEMBLY_URL = 'http://assembly.placeholder/assemblies/0';

const TUS_METHODS = ['POST', 'PATCH', 'HEAD', 'DELETE', 'OPTIONS', 'GET', 'PUT'] as const;

const tusHeaders: Fuzzer = {
  name: 'tus headers',
  property: (t, img) =>
    fc.asyncProperty(
      fc.array(
        fc.record(
          {
            method: fc.constantFrom(...TUS_METHODS),
            target: fc.constantFrom('collection', 'own', 'foreign', 'junk'),
            resumable: fc.oneof(fc.constant('1.0.0'), fc.constantFrom('0.2.2', '', '1.0', 'x')),
            length: tusNumber,
            offset: tusNumber,
            metadata: fc.option(tusMetadata(ASSEMBLY_URL), { nil: undefined }),
            defer: fc.constantFrom('1', '0', 'x'),
            concat: fc.constantFrom('partial', 'final;/resumable/files/x', 'final; ', 'junk'),
            contentType: fc.constantFrom('application/offset+octet-stream', 'text/plain', ''),
            body: fc.nat(64),
          },
          { requiredKeys: ['method', 'target'] },
        ),
        { minLength: 1, maxLength: 4 },
      ),
      fc.string({ maxLength: 40 }),
      async (requests, junkId) => {
        await t.runCase(`tus ${clip(requests)} junkId=${JSON.stringify(junkId)}`, async () => {
          const assembly = await tusAssembly(t, { ':original': { robot: '/upload/handle' } });
          if (!assembly) return;
          let own: string | null = null;
          for (const r of requests) {
            const metadata = r.metadata === undefined ? `assembly_url ${b64(assembly.url)}` : r.metadata.split(b64(ASSEMBLY_URL)).join(b64(assembly.url));
            const headers: Record<string, string> = {};
            if (r.resumable !== undefined) headers['Tus-Resumable'] = r.resumable;
            if (r.length !== undefined) headers['Upload-Length'] = r.length;
            if (r.offset !== undefined) headers['Upload-Offset'] = r.offset;
            if (r.defer !== undefined) headers['Upload-Defer-Length'] = r.defer;
            if (r.concat !== undefined) headers['Upload-Concat'] = r.concat;
            if (r.contentType !== undefined && r.contentType !== '') headers['Content-Type'] = r.contentType;
            headers['Upload-Metadata'] = metadata;
            const path =
              r.target === 'collection' ? '/resumable/files/'
              : r.target === 'own' && own ? own
              : r.target === 'foreign' ? `/resumable/files/${assembly.id}_${'0'.repeat(32)}`
              : `/resumable/files/${encodeURIComponent(junkId)}`;
            const sendsBody = r.method === 'POST' || r.method === 'PATCH' || r.method === 'PUT';
            const a = await t.request(path, { method: r.method, headers, ...(sendsBody ? { body: img.subarray(0, r.body ?? 0) } : {}) });
            const location = /\/resumable\/files\/[^/]+$/.exec(a.headers.get('location') ?? '')?.[0];
            if (location) own = location;
          }
          await t.request(`/assemblies/${assembly.id}`, { method: 'DELETE' });
        });
      },
    ),
};

export const FUZZERS: readonly Fuzzer[] = [params, steps, multipartNames, tusNames, listQueries, accountReads, tusHeaders];
