// A /file/filter `regex` condition is user input run against file names: `^(a+)+$` against
// "aaa…a!" backtracked for ever and froze the service. The service runs in its own process here, so
// without the time limit this test fails on a timeout instead of hanging with the service.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_SECRET_ENV } from '../cli-secret';
import { buildForm, tempDir } from '../testing/service-fixture';
import { spawnService, type ServiceProcess } from '../testing/service-process';
import { filterRegexMatches } from './filter-regex';

const KEY = 'filter-key';
const SECRET = 'filter-secret-0123456789';
let svc: ServiceProcess;
let dataDir = '';

beforeAll(async () => {
  dataDir = await tempDir('svc-filter-');
  svc = await spawnService(['--port', '0', '--data-dir', dataDir, '--auth-key', KEY], { [AUTH_SECRET_ENV]: SECRET });
});
afterAll(async () => {
  await svc?.kill();
  await rm(dataDir, { recursive: true, force: true });
});

async function statusOf(url: string): Promise<Record<string, unknown>> {
  const until = Date.now() + 10_000;
  for (;;) {
    const body = (await (await fetch(url, { signal: AbortSignal.timeout(3000) })).json()) as Record<string, unknown>;
    if (body.error || (body.ok !== 'ASSEMBLY_UPLOADING' && body.ok !== 'ASSEMBLY_EXECUTING')) return body;
    if (Date.now() > until) throw new Error(`still ${String(body.ok)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('/file/filter regex conditions', () => {
  it('stops a catastrophic pattern with FILE_FILTER_VALIDATION, and the service keeps answering', async () => {
    const name = `${'a'.repeat(40)}!`;
    const steps = {
      ':original': { robot: '/upload/handle' },
      only_a: { robot: '/file/filter', use: ':original', accepts: [['${file.basename}', 'regex', '^(a+)+$']], error_on_decline: true },
    };
    const params = JSON.stringify({ auth: { key: KEY, expires: new Date(Date.now() + 600_000).toISOString() }, steps });
    // Signed before the file part: the service authenticates before it accepts files.
    const form = buildForm({ params, secret: SECRET, files: [{ field: 'file', name: `${name}.txt`, data: new TextEncoder().encode('hello') }] });
    const started = performance.now();
    const created = (await (await fetch(`${svc.url}/assemblies`, { method: 'POST', body: form, signal: AbortSignal.timeout(5000) })).json()) as Record<string, unknown>;
    const end = await statusOf(String(created.assembly_ssl_url));
    expect(end.error).toBe('FILE_FILTER_VALIDATION');
    expect(String(end.message)).toMatch(/took longer than 100 ms/);
    expect(performance.now() - started).toBeLessThan(5000);
    expect((await fetch(`${svc.url}/`, { signal: AbortSignal.timeout(2000) })).status).toBe(200);
  });

  it('keeps ordinary patterns as they were: case-insensitive, /…/flags literals', () => {
    expect(filterRegexMatches('IMAGE', 'image/png')).toBe(true);
    expect(filterRegexMatches('/^PHOTO\\.(png|jpg)$/', 'photo.JPG')).toBe(true);
    expect(filterRegexMatches('^video', 'image/png')).toBe(false);
    expect(() => filterRegexMatches('([a-z', 'x')).toThrow();
  });
});
