import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { HostedDeployment } from '../../../service/testing/hosted-deployment';
import type { ProxiedRequest } from '../../../service/testing/fault-proxy';
import type { AssemblyStatus } from '../../../shared/api/assembly-status';
import type { AssemblyUpdate, FollowState } from '../../../shared/ipc/assembly-models';
import { createAssemblyFollower } from '../assemblies/assembly-follower';
import { startHostedWorkspace, type HostedWorkspace } from '../testing/hosted-workspace';
import { uploadTus } from '../transfers/tus-worker';
import { systemClock } from '../uploads/clock';
import { createWorkspaceClient } from '../workspaces/workspace-client';
import type { StoredWorkspace } from '../workspaces/workspace-store';
import { watchAssembly } from './assembly-watcher';

// How core follows an Assembly on a deployment like the hosted one (TLS, status and update streams on the
// regional host, tus on its own, 20 ms round trips) when that host rate-limits status fetches, drops the
// update stream midway, or lets it go silent: the Assembly is followed to its end, the waits are as long
// as the deployment asked, and what changed is said (FollowState) rather than reported as an error.
let hosted: HostedWorkspace;
let dir = '';
let d: HostedDeployment;
let workspace: StoredWorkspace;

beforeAll(async () => {
  hosted = await startHostedWorkspace('hosted-follow', { rttMs: 20 });
  ({ dir, d, workspace } = hosted);
});
afterEach(() => d.clearFaults());
afterAll(async () => {
  await hosted?.close();
});

const api = () => createWorkspaceClient(workspace, { getSecret: async () => d.service.authSecret, maxRetries: 2 }).api;
const isStatusGet = (req: ProxiedRequest) => req.method === 'GET' && req.url.startsWith('/assemblies/');
const isStreamGet = (req: ProxiedRequest) => req.method === 'GET' && !req.url.startsWith('/assemblies/');

/** An Assembly waiting for one tus upload, and a function that sends it. */
async function waitingAssembly(): Promise<{ status: AssemblyStatus; send: () => Promise<unknown> }> {
  const created = await api().createAssembly({ instructions: { steps: { ':original': { robot: '/upload/handle' } } }, expectedUploads: 1 });
  if (!created.ok) throw new Error(created.error.message);
  const status = created.value;
  const file = path.join(dir, `${status.assembly_id}.bin`);
  const bytes = randomBytes(40_000);
  await writeFile(file, bytes);
  const send = () =>
    uploadTus({
      path: file, name: 'a.bin', size: bytes.length, relativePath: 'a.bin', tusUrl: status.tus_url!, assemblyUrl: status.assembly_ssl_url!,
      uploadUrl: null, chunkSize: 64 * 1024, stallMs: 30_000, bucket: null, clock: systemClock,
      onUploadUrl: () => undefined, onProgress: () => undefined, transport: api().transport,
    }).done;
  return { status, send };
}

const waitFor = async (check: () => boolean, ms = 20_000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('following an Assembly on a deployment like the hosted one', () => {
  it('status fetches rate-limited by the regional host (429, then 413 RATE_LIMIT_REACHED) wait as long as asked, are said as a wait, and the Assembly is followed to its end', async () => {
    const { status, send } = await waitingAssembly();
    // Every status GET the regional host sees, when; the first 6 are refused (3 × 429, 3 × 413), each asking for 250 ms.
    const seen: number[] = [];
    d.fault('regional', { kind: 'status-429', retryIn: 0.25 }, { times: 3, match: (req) => isStatusGet(req) && seen.push(performance.now()) > 0 });
    d.fault('regional', { kind: 'status-413', retryIn: 0.25 }, { times: 3, match: isStatusGet });
    const updates: AssemblyUpdate[] = [];
    const follower = createAssemblyFollower((u) => updates.push(u));
    const client = api();
    try {
      expect(follower.follow('ws:a', status, (url, hooks) => client.getAssembly(url, hooks), client.transport.fetch)).toBe(true);
      await waitFor(() => d.fronts.regional.counts['status-413'] === 3);
      await send();
      await waitFor(() => updates.some((u) => u.status?.ok === 'ASSEMBLY_COMPLETED'));
    } finally {
      follower.close();
    }
    expect(d.fronts.regional.counts['status-429']).toBe(3);
    // Each refused fetch was retried no sooner than the 250 ms it was asked to wait (lower bounds only).
    const refused = seen.slice(0, 6);
    for (let i = 1; i < refused.length; i++) expect(refused[i]! - refused[i - 1]!).toBeGreaterThanOrEqual(240);
    const follows = updates.flatMap((u) => (u.follow ? [u.follow] : []));
    const waits = follows.filter((f) => f.rateLimitedMs !== null).map((f) => f.rateLimitedMs!);
    expect(waits.length).toBeGreaterThan(0);
    for (const ms of waits) expect(ms).toBeGreaterThanOrEqual(250);
    // The wait ended once a fetch was answered; no update carried an error status.
    expect(follows.at(-1)?.rateLimitedMs ?? null).toBeNull();
    expect(updates.every((u) => !u.status?.error)).toBe(true);
  });

  it('an update stream the regional host drops midway: the watcher says so and polls, and the Assembly keeps moving to its end', async () => {
    const { status, send } = await waitingAssembly();
    d.fault('regional', { kind: 'cut-response', afterBytes: 1 }, { match: isStreamGet });
    const statuses: string[] = [];
    const follows: FollowState[] = [];
    const client = api();
    const before = d.fronts.regional.counts.forwarded;
    const watcher = watchAssembly({ initial: status, getStatus: (url, hooks) => client.getAssembly(url, hooks), fetch: client.transport.fetch, onStatus: (s) => statuses.push(String(s.ok)), onFollow: (f) => follows.push(f), pollIntervalMs: 150 });
    await waitFor(() => follows.some((f) => f.reason === 'stream-dropped'));
    expect(watcher.mode()).toBe('polling');
    await send();
    const last = await watcher.done;
    expect(last.ok).toBe('ASSEMBLY_COMPLETED');
    expect(statuses).toContain('ASSEMBLY_UPLOADING');
    expect(statuses.at(-1)).toBe('ASSEMBLY_COMPLETED');
    expect(d.fronts.regional.counts['cut-response']).toBeGreaterThan(0);
    // Polls (status GETs) reached the regional host after the stream was cut.
    expect(d.fronts.regional.counts.forwarded - before).toBeGreaterThan(2);
  });

  it('an update stream that goes silent (open, no byte, no heartbeat): polled beside it until the Assembly ends', async () => {
    const { status, send } = await waitingAssembly();
    d.fault('regional', { kind: 'stall-response', afterBytes: 0 }, { match: isStreamGet });
    const statuses: string[] = [];
    const follows: FollowState[] = [];
    const client = api();
    const watcher = watchAssembly({
      initial: status, getStatus: (url, hooks) => client.getAssembly(url, hooks), fetch: client.transport.fetch,
      onStatus: (s) => statuses.push(String(s.ok)), onFollow: (f) => follows.push(f), pollIntervalMs: 150, stallMs: 400,
    });
    await waitFor(() => follows.some((f) => f.reason === 'stream-stalled'));
    // It had opened: the stream was followed first, then the silence was noticed.
    expect(follows.map((f) => f.via)).toEqual(['stream', 'polling']);
    expect(watcher.mode()).toBe('polling');
    await send();
    const last = await watcher.done;
    expect(last.ok).toBe('ASSEMBLY_COMPLETED');
    expect(statuses.at(-1)).toBe('ASSEMBLY_COMPLETED');
    expect(d.fronts.regional.counts['stall-response']).toBe(1);
  });
});
