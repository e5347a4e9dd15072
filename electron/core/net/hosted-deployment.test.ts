import { createHash, randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HostedDeployment } from '../../../service/testing/hosted-deployment';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import { startHostedWorkspace, type HostedWorkspace } from '../testing/hosted-workspace';
import { downloadToDir } from '../files/download';
import { matchInputs } from '../results-mirror/mirror-plan';
import { mirrorResults } from '../results-mirror/mirror-run';
import { uploadTus } from '../transfers/tus-worker';
import { systemClock } from '../uploads/clock';
import { watchAssembly } from '../watch/assembly-watcher';
import { testConnection } from '../workspaces/connection-test';
import { createWorkspaceClient } from '../workspaces/workspace-client';
import type { StoredWorkspace } from '../workspaces/workspace-store';
import { TLS_CERT_UNTRUSTED, parseCaPem } from './transport';

// The app's core against a deployment like the hosted one (service/testing/hosted-deployment.ts): HTTPS
// signed by a CA made for this run, the API, the regional status host, tus and result files each on its own
// loopback address, 20 ms added to every request. Core trusts the CA only through the workspace's CA file.
let hosted: HostedWorkspace;
let dir = '';
let d: HostedDeployment;
let workspace: StoredWorkspace;

beforeAll(async () => {
  hosted = await startHostedWorkspace('hosted', { rttMs: 20 });
  ({ dir, d, workspace } = hosted);
});
afterAll(async () => {
  await hosted?.close();
});

const clientOf = (w: StoredWorkspace) => createWorkspaceClient(w, { getSecret: async () => d.service.authSecret, maxRetries: 3 }).api;
const hostOf = (url: string | undefined | null) => (url ? new URL(url).host : null);

describe('a deployment like the hosted one', () => {
  it('a certificate the app does not trust is said to be one, at the connection test and at any request', async () => {
    const untrusted = { ...workspace, caPem: null };
    const report = await testConnection({ workspace: untrusted, secret: d.service.authSecret });
    expect(report.ok).toBe(false);
    expect(report.checks[0]).toMatchObject({ id: 'reach', status: 'fail', code: TLS_CERT_UNTRUSTED });
    expect(report.checks[0]!.message).toMatch(/does not trust the certificate of https:\/\/127\.0\.0\.2:\d+.*CA file/);
    const refused = await clientOf(untrusted).request('GET', '/templates');
    expect(refused.ok || refused.error).toMatchObject({ code: TLS_CERT_UNTRUSTED, message: expect.stringMatching(/does not trust the certificate/) });
  });

  it('with its CA file the workspace connects, and only that workspace trusts the CA', async () => {
    const report = await testConnection({ workspace, secret: d.service.authSecret });
    expect(report.checks.filter((c) => c.status === 'fail')).toEqual([]);
    expect(report.ok).toBe(true);
    expect(parseCaPem(d.caPem)).toMatchObject({ ok: true, value: { info: { subject: 'Assemblyline Hosted Test CA' } } });
    // Another workspace (no CA file) on the same machine still refuses the certificate.
    const other = await clientOf({ ...workspace, id: 'other', caPem: null }).request('GET', '/templates');
    expect(other.ok).toBe(false);
  });

  it('an Assembly lives on the regional host, uploads go to the tus host, results come from the results host, all over TLS', async () => {
    const api = clientOf(workspace);
    const steps = { ':original': { robot: '/upload/handle' }, kept: { robot: '/file/filter', use: ':original', accepts: [['${file.size}', '>', 0]] } };
    const created = await api.createAssembly({ instructions: { steps }, expectedUploads: 1 });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    const status = created.value;
    expect(hostOf(status.assembly_ssl_url)).toBe(hostOf(d.fronts.regional.url));
    expect(hostOf(status.update_stream_url)).toBe(hostOf(d.fronts.regional.url));
    expect(hostOf(status.tus_url)).toBe(hostOf(d.fronts.tus.url));
    expect(status.assembly_ssl_url).toMatch(/^https:/);

    // The watcher follows the update stream on the regional host (through the workspace's CA) while tus sends the file.
    const statuses: AssemblyStatus[] = [];
    const watcher = watchAssembly({ initial: status, getStatus: (url) => api.getAssembly(url), fetch: api.transport.fetch, onStatus: (s) => statuses.push(s), pollIntervalMs: 60_000 });
    const bytes = randomBytes(300_000);
    const file = path.join(dir, 'big.bin');
    await writeFile(file, bytes);
    const md5 = createHash('md5').update(bytes).digest('hex');
    let uploadUrl = '';
    const outcome = await uploadTus({
      path: file, name: 'big.bin', size: bytes.length, relativePath: 'big.bin', tusUrl: status.tus_url!, assemblyUrl: status.assembly_ssl_url!,
      uploadUrl: null, chunkSize: 128 * 1024, stallMs: 30_000, bucket: null, clock: systemClock,
      onUploadUrl: (u) => void (uploadUrl = u), onProgress: () => undefined, transport: api.transport,
    }).done;
    expect(outcome).toEqual({ kind: 'uploaded', md5 });
    expect(hostOf(uploadUrl)).toBe(hostOf(d.fronts.tus.url));
    const last = await watcher.done;
    // Ended through the stream (polling would have waited a minute), never by a status fetch that failed.
    expect(last.ok).toBe('ASSEMBLY_COMPLETED');
    const result = last.results?.kept?.[0];
    expect(hostOf(result?.ssl_url)).toBe(hostOf(d.fronts.results.url));
    const saved = await downloadToDir(result!.ssl_url!, path.join(dir, 'out'), 'big.bin', { fetch: api.transport.fetch });
    expect(createHash('md5').update(await readFile(saved)).digest('hex')).toBe(md5);
    expect(d.fronts.regional.counts.forwarded).toBeGreaterThan(0);
    expect(d.fronts.results.counts.forwarded).toBe(1);

    // "Save results to folder" goes through the workspace's CA too; without it the file is said to be untrusted.
    const sources = [{ assemblyId: last.assembly_id!, status: last, inputs: matchInputs(null, last) }];
    const mirrored = await mirrorResults(sources, { outputDir: path.join(dir, 'mirror'), layout: 'flat', conflict: 'skip', fetch: api.transport.fetch });
    expect(mirrored).toMatchObject({ written: 1, verified: 1, failed: 0 });
    const refused = await mirrorResults(sources, { outputDir: path.join(dir, 'mirror-untrusted'), layout: 'flat', conflict: 'skip' });
    expect(refused).toMatchObject({ written: 0, failed: 1, errors: [{ code: TLS_CERT_UNTRUSTED, message: expect.stringMatching(/does not trust the certificate/) }] });
  });

  it('status fetches the regional host rate-limits (429, info.retryIn) are waited out, then answered', async () => {
    const api = clientOf(workspace);
    const created = await api.createAssembly({ instructions: { steps: { ':original': { robot: '/upload/handle' } } }, expectedUploads: 0 });
    expect(created.ok).toBe(true);
    if (!created.ok) return;
    const before = d.fronts.regional.counts['status-429'];
    d.fault('regional', { kind: 'status-429', retryIn: 0.05 }, { times: 2 });
    try {
      const status = await api.getAssembly(created.value.assembly_ssl_url!);
      expect(status.ok && status.value.assembly_id).toBe(created.value.assembly_id);
      expect(d.fronts.regional.counts['status-429'] - before).toBe(2);
    } finally {
      d.clearFaults();
    }
  });
});
