import { mkdtemp } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostedDeployment } from '../../../service/testing/hosted-deployment';
import { PRESETS } from '../../../shared/api/presets';
import { startHostedWorkspace, type HostedWorkspace } from '../testing/hosted-workspace';
import { createWorkspaceClient } from '../workspaces/workspace-client';
import { NOT_VERIFIED_NOTE } from './assembly-check';
import { feedOf } from './draft-feed';
import { makeFiles, openEngine } from './testing/engine-fixture';

// A deployment that records no md5hash (the hosted-like TLS multi-host one, its API and regional hosts
// dropping the key from every answer): the transfer engine sends a drop there by tus and in the create
// request, and ends each file "unverified" with the reason said once, for the batch, not per file.
let hosted: HostedWorkspace;
let dir = '';
let d: HostedDeployment;
const steps = PRESETS.find((p) => p.id === 'store-originals')!.steps;

beforeAll(async () => {
  hosted = await startHostedWorkspace('hosted-nomd5');
  ({ dir, d } = hosted);
  for (const role of ['api', 'regional'] as const) d.fault(role, { kind: 'strip-json-keys', keys: ['md5hash'] });
});
afterAll(async () => {
  await hosted?.close();
});

describe('a deployment that sends no md5hash', () => {
  it('a drop sent there ends with every file "unverified" and the reason said once for its batch', async () => {
    const client = createWorkspaceClient(hosted.workspace, { getSecret: async () => d.service.authSecret }).api;
    const root = await mkdtemp(path.join(dir, 'in-'));
    const files = await makeFiles(root, [
      { relativePath: 'p/small-1.bin', size: 3_000 },
      { relativePath: 'p/small-2.bin', size: 5_000 },
      { relativePath: 'p/large.bin', size: 1_500_000 },
    ]);
    const service = { url: d.endpoint, authKey: d.service.authKey, authSecret: d.service.authSecret };
    const h = await openEngine(service, await mkdtemp(path.join(dir, 'data-')), { batchMode: 'per-drop', multipartMaxFileBytes: 1024 * 1024 }, {}, client);
    try {
      const t = await h.engine.start({ instructions: { steps }, feed: feedOf('p', files) });
      if (!t.ok) throw new Error(t.error.message);
      const done = await h.engine.settled(t.value.id);
      expect(done.state).toBe('done');
      const rows = h.engine.rows({ offset: 0, limit: 10 }).rows.sort((a, b) => a.relativePath.localeCompare(b.relativePath));
      expect(rows.map((r) => [r.relativePath, r.state, r.method, r.note])).toEqual([
        ['p/large.bin', 'unverified', 'tus', null],
        ['p/small-1.bin', 'unverified', 'multipart', null],
        ['p/small-2.bin', 'unverified', 'multipart', null],
      ]);
      const batches = h.engine.batchesOf(t.value.id);
      expect(batches.map((b) => b.note)).toEqual([NOT_VERIFIED_NOTE]);
      // The deployment really sent none: the key was stripped from its answers, which did reach core.
      expect(d.fronts.regional.counts['strip-json-keys'] + d.fronts.api.counts['strip-json-keys']).toBeGreaterThan(0);
    } finally {
      await h.close();
    }
  }, 60_000);
});
