import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import { PRESETS } from '../../../shared/api/presets';
import { ok } from '../../../shared/result';
import { createApiClient } from '../api/api-client';
import { createCoreEvents } from '../events';
import { createTransferEngine } from '../transfers/transfer-engine';
import { createRunManager } from './run-manager';

// Finding 7: a throw in the work that follows an upload (cleaning up a staged copy whose name was too
// long) surfaced as an unhandled rejection and ended the app. It now ends nowhere but in a report.
const storeOriginals = PRESETS.find((p) => p.id === 'store-originals')!;
let dir = '';
let service: LocalService;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-run-errors-'));
  service = await startLocalService({ dataDir: path.join(dir, 'service') });
});

afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('a run whose follow-up work throws', () => {
  it('still completes, reports the error, and leaves no unhandled rejection', async () => {
    const file = path.join(dir, 'photo.jpg');
    await writeFile(file, 'not really a jpeg, but bytes');
    const api = createApiClient({ endpoint: service.url, authKey: service.authKey, getSecret: async () => service.authSecret });
    const reported: string[] = [];
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const events = createCoreEvents();
      const runs = createRunManager({
        events,
        clientFor: () => ok({ workspaceId: 'w', api }),
        onFinished: () => {
          throw Object.assign(new Error('ENAMETOOLONG: name too long, rm'), { code: 'ENAMETOOLONG' });
        },
        reportError: (code, message) => reported.push(`${code}: ${message}`),
      });
      const engine = createTransferEngine({ dataDir: path.join(dir, 'data'), events, clientFor: () => ok({ workspaceId: 'w', api }), runs });
      await engine.restore();
      const start = await engine.startRun({ files: [{ path: file, relativePath: 'photo.jpg', name: 'photo.jpg', size: 28, mime: null }], instructions: { steps: storeOriginals.steps } });
      expect(start.ok).toBe(true);
      if (!start.ok) return;
      const final = await runs.settled(start.value.runId);
      expect(final.ok && final.value.state).toBe('ASSEMBLY_COMPLETED');
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(rejections).toEqual([]);
      expect(reported).toEqual(['INTERNAL_ERROR: ENAMETOOLONG: name too long, rm']);
      await engine.close();
      await runs.close();
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });
});

describe('a run whose Assembly fails on the service', () => {
  it("carries the status record's code, message and step, not the HTTP 200 the status came with", async () => {
    const file = path.join(dir, 'big.jpg');
    await writeFile(file, 'x'.repeat(2048));
    const api = createApiClient({ endpoint: service.url, authKey: service.authKey, getSecret: async () => service.authSecret });
    const events = createCoreEvents();
    const runs = createRunManager({ events, clientFor: () => ok({ workspaceId: 'w', api }) });
    const engine = createTransferEngine({ dataDir: path.join(dir, 'data-failing'), events, clientFor: () => ok({ workspaceId: 'w', api }), runs });
    await engine.restore();
    const steps = {
      ':original': { robot: '/upload/handle' },
      small_only: { robot: '/file/filter', use: ':original', accepts: [['${file.size}', '<', 1024]], error_on_decline: true, error_msg: 'Files must be under 1 KB.' },
    };
    const start = await engine.startRun({ files: [{ path: file, relativePath: 'big.jpg', name: 'big.jpg', size: 2048, mime: null }], instructions: { steps } });
    expect(start.ok).toBe(true);
    if (!start.ok) return;
    const final = await runs.settled(start.value.runId);
    expect(final.ok).toBe(true);
    if (!final.ok) return;
    expect(final.value.state).toBe('FILE_FILTER_DECLINED_FILE');
    expect(final.value.error).toMatchObject({ code: 'FILE_FILTER_DECLINED_FILE', message: 'Files must be under 1 KB.', details: { step: 'small_only' } });
    expect(final.value.error?.httpCode).toBeUndefined();
    await engine.close();
    await runs.close();
  });
});

