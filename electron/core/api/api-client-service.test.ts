import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { createApiClient } from './api-client';

// The API client against the real local service with signatures required and a rate limit of one
// Assembly per minute. Sleeping is the one thing injected: the test records the waits instead of
// spending a minute in them.
let dir = '';
let service: LocalService;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-api-svc-'));
  service = await startLocalService({ dataDir: dir, port: 0, requireSignature: true, maxAssembliesPerMinute: 1 });
});
afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

const steps = { ':original': { robot: '/upload/handle' } };

describe('createApiClient against the local service', () => {
  it('is accepted with a correct signature and refused with INVALID_SIGNATURE otherwise', async () => {
    const bad = createApiClient({ endpoint: service.url, authKey: service.authKey, getSecret: async () => 'wrong-secret' });
    const refused = await bad.createAssembly({ instructions: { steps }, expectedUploads: 0 });
    expect(refused.ok || refused.error.code).toBe('INVALID_SIGNATURE');

    const good = createApiClient({ endpoint: service.url, authKey: service.authKey, getSecret: async () => service.authSecret });
    const created = await good.createAssembly({ instructions: { steps }, expectedUploads: 1 });
    expect(created.ok && created.value.ok).toBe('ASSEMBLY_UPLOADING');
    if (!created.ok) return;
    const status = await good.getAssembly(created.value.assembly_ssl_url!);
    expect(status.ok && status.value.assembly_id).toBe(created.value.assembly_id);
    const canceled = await good.cancelAssembly(created.value.assembly_ssl_url!);
    expect(canceled.ok && canceled.value.ok).toBe('ASSEMBLY_CANCELED');
  });

  it('waits info.retryIn on 413 RATE_LIMIT_REACHED, retries, and reports the code when the limit holds', async () => {
    const waits: number[] = [];
    const client = createApiClient({
      endpoint: service.url,
      authKey: service.authKey,
      getSecret: async () => service.authSecret,
      maxRetries: 2,
      sleep: async (ms) => void waits.push(ms),
    });
    const limited = await client.createAssembly({ instructions: { steps }, expectedUploads: 0 });
    expect(limited.ok).toBe(false);
    if (limited.ok) return;
    expect(limited.error).toMatchObject({ code: 'RATE_LIMIT_REACHED', httpCode: 413 });
    const retryIn = (limited.error.details?.info as { retryIn: number }).retryIn;
    expect(retryIn).toBeGreaterThan(0);
    expect(waits).toHaveLength(2);
    for (const ms of waits) {
      expect(ms).toBeGreaterThanOrEqual((retryIn - 1) * 1000);
      expect(ms).toBeLessThanOrEqual(retryIn * 1100);
    }
  });
});

describe('createApiClient: Assemblies with a client-chosen id', () => {
  let free: LocalService;
  beforeAll(async () => {
    free = await startLocalService({ dataDir: path.join(dir, 'ids'), port: 0 });
  });
  afterAll(() => free?.close());

  it('creates the Assembly under the id once, refuses the id a second time with DO_NOT_REUSE_ASSEMBLY_IDS, and rejects a malformed id before sending', async () => {
    const client = createApiClient({ endpoint: free.url, authKey: free.authKey, getSecret: async () => free.authSecret });
    const id = randomUUID().replace(/-/g, '');
    const files = [{ field: 'f', name: 'a.txt', data: new Blob(['hello']) }];
    const created = await client.createAssembly({ instructions: { steps }, expectedUploads: 0, files, assemblyId: id });
    expect(created.ok && created.value.assembly_id).toBe(id);
    expect(created.ok && created.value.assembly_ssl_url).toBe(`${free.url}/assemblies/${id}`);
    const again = await client.createAssembly({ instructions: { steps }, expectedUploads: 0, files, assemblyId: id });
    expect(again.ok || again.error).toMatchObject({ code: 'DO_NOT_REUSE_ASSEMBLY_IDS', httpCode: 400 });
    const malformed = await client.createAssembly({ instructions: { steps }, expectedUploads: 0, assemblyId: 'ABC-not-an-id' });
    expect(malformed.ok || malformed.error.code).toBe('INVALID_IPC_REQUEST');
    // Still the one Assembly, with the first request's file.
    const status = await client.getAssembly(`${free.url}/assemblies/${id}`);
    expect(status.ok && status.value.uploads?.map((u) => u.name)).toEqual(['a.txt']);
  });
});
