import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../api/api-client';
import { createForkServiceProcess, sourceServiceEntry } from './fork-service-process';
import { superviseLocalService } from './supervisor';

// Issue 25: the embedded service in its real child process requires signatures. Its port is reachable by
// every web page and process on the machine; the app, its only client, always signs.
let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-svc-sign-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('the embedded service', () => {
  it('refuses an Assembly that carries only the Auth Key, and takes the app\'s signed one', async () => {
    const supervisor = superviseLocalService({ process: createForkServiceProcess({ entry: sourceServiceEntry() }), dataDir: path.join(dir, 'svc'), log: () => undefined });
    try {
      const ready = await supervisor.firstStart;
      // What a web page that learned the key would send (a simple multipart POST needs no preflight).
      const form = new FormData();
      form.set('params', JSON.stringify({ auth: { key: ready.authKey }, steps: { ':original': { robot: '/upload/handle' } } }));
      const page = await fetch(`${ready.url}/assemblies`, { method: 'POST', body: form, headers: { Origin: 'https://evil.example' } });
      expect(page.status).toBe(401);
      expect(((await page.json()) as { error: string }).error).toBe('NO_SIGNATURE_FIELD');
      const api = createApiClient({ endpoint: ready.url, authKey: ready.authKey, getSecret: async () => ready.authSecret });
      const signed = await api.request('POST', '/assemblies', { steps: { ':original': { robot: '/upload/handle' } } });
      expect(signed.ok && String(signed.value.ok)).toMatch(/^ASSEMBLY_(EXECUTING|COMPLETED)$/);
    } finally {
      await supervisor.close();
    }
  }, 60_000);
});
