// Finding 2 of issue 10: `keywords` of many `%` froze the whole service (the LIKE matcher built a regex
// that backtracked for ever). The service runs in its own process here, so the test fails on a timeout
// instead of hanging with it, and kills it afterwards.
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signParams } from '../auth/signature';
import { AUTH_SECRET_ENV } from '../cli-secret';
import { tempDir } from '../testing/service-fixture';
import { spawnService, type ServiceProcess } from '../testing/service-process';

const KEY = 'freeze-key';
const SECRET = 'freeze-secret-0123456789';
let svc: ServiceProcess;
let dataDir = '';
let nonce = 0;

beforeAll(async () => {
  dataDir = await tempDir('svc-like-');
  svc = await spawnService(['--port', '0', '--data-dir', dataDir, '--auth-key', KEY], { [AUTH_SECRET_ENV]: SECRET });
});
afterAll(async () => {
  await svc?.kill();
  await rm(dataDir, { recursive: true, force: true });
});

function signed(extra: Record<string, unknown>): Record<string, string> {
  const params = JSON.stringify({ auth: { key: KEY, expires: new Date(Date.now() + 600_000).toISOString(), nonce: `n${++nonce}` }, ...extra });
  return { params, signature: signParams(params, SECRET) };
}

describe('GET /templates keywords', () => {
  it('answers a pattern of many % against long names within a second, and the service stays up', async () => {
    for (const name of ['a'.repeat(200), `${'a'.repeat(100)}-photos`]) {
      const made = await fetch(`${svc.url}/templates`, { method: 'POST', body: new URLSearchParams(signed({ name, template: { steps: { ':original': { robot: '/upload/handle' } } } })) });
      expect(((await made.json()) as { ok: string }).ok).toBe('TEMPLATE_CREATED');
    }
    const list = async (keywords: string) => {
      const url = new URL('/templates', svc.url);
      for (const [k, v] of Object.entries(signed({ keywords }))) url.searchParams.set(k, v);
      const started = performance.now();
      const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
      const body = (await res.json()) as { count: number; items: { name: string }[] };
      return { ms: performance.now() - started, status: res.status, body };
    };
    const none = await list(`${'%'.repeat(12)}x`);
    expect(none.status).toBe(200);
    expect(none.body.count).toBe(0);
    expect(none.ms).toBeLessThan(1000);
    const some = await list(`${'a%'.repeat(12)}photos`);
    expect(some.body.items.map((t) => t.name)).toEqual([`${'a'.repeat(100)}-photos`]);
    expect(some.ms).toBeLessThan(1000);
    expect((await fetch(`${svc.url}/`, { signal: AbortSignal.timeout(2000) })).status).toBe(200);
  });

  it('refuses a keywords pattern longer than a search box holds with TEMPLATE_LIST_ERROR', async () => {
    const url = new URL('/templates', svc.url);
    for (const [k, v] of Object.entries(signed({ keywords: 'a'.repeat(1001) }))) url.searchParams.set(k, v);
    const res = await fetch(url);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: 'TEMPLATE_LIST_ERROR', http_code: 400 });
  });
});
