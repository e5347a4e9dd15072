import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PRESETS } from '../../../shared/api/presets';
import type { RunProgress } from '../../../shared/ipc/models';
import type { ServiceStatus } from '../../../shared/ipc/service-models';
import { createServer } from 'node:net';
import { createCore, type Core } from '../create-core';
import { createForkServiceProcess, sourceServiceEntry } from './fork-service-process';
import { superviseLocalService } from './supervisor';
import { dispatch } from '../ipc/dispatch';
import { createRecordingDesktop } from '../ports/recording-desktop';
import { createUnavailableSecretStore } from '../vault/unavailable-secret-store';

// The embedded service runs in a real child process that core supervises. These tests kill it (kill -9)
// and freeze it (SIGSTOP, a hung service) and watch what the app does.
const MiB = 1024 * 1024;
const storeOriginals = PRESETS.find((p) => p.id === 'store-originals')!;
let dir = '';
let bigFile = '';
let bigMd5 = '';
const bigSize = 64 * MiB;
const open: Core[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-svc-proc-'));
  bigFile = path.join(dir, 'big.bin');
  const out = createWriteStream(bigFile);
  const hash = createHash('md5');
  for (let written = 0; written < bigSize; written += MiB) {
    const chunk = randomBytes(MiB);
    hash.update(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  bigMd5 = hash.digest('hex');
}, 60_000);

afterEach(async () => {
  for (const core of open.splice(0)) await core.close();
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function startCore(name: string): Promise<{ core: Core; statuses: ServiceStatus[] }> {
  const core = await createCore({
    dataDir: path.join(dir, name),
    downloadsDir: path.join(dir, name, 'downloads'),
    secretStore: createUnavailableSecretStore('No OS keyring is available (test).'),
    desktop: createRecordingDesktop(),
    host: 'browser',
    version: 'test',
    upload: { chunkSize: MiB },
    localService: { supervision: { healthIntervalMs: 250, healthTimeoutMs: 500, maxHealthFailures: 2, backoffBaseMs: 200 } },
  });
  open.push(core);
  const statuses: ServiceStatus[] = [];
  core.onEvent((name, payload) => name === 'service:status' && statuses.push(payload as ServiceStatus));
  return { core, statuses };
}

function until<T>(core: Core, pick: (name: string, payload: unknown) => T | undefined, timeoutMs: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`nothing after ${timeoutMs} ms`)), timeoutMs);
    const off = core.onEvent((name, payload) => {
      const hit = pick(name, payload);
      if (hit === undefined) return;
      clearTimeout(timer);
      off();
      resolve(hit);
    });
  });
}

const phaseIs = (phase: ServiceStatus['phase']) => (name: string, payload: unknown) =>
  name === 'service:status' && (payload as ServiceStatus).phase === phase ? (payload as ServiceStatus) : undefined;

describe('the embedded service in its own process', () => {
  it('restarts a killed service on the same port, and a run that was uploading completes', async () => {
    const { core, statuses } = await startCore('kill');
    const url = core.localServiceUrl;
    const firstPid = core.localServicePid()!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(firstPid).not.toBe(process.pid);

    // kill -9 the service once the first megabytes are confirmed.
    const killedAt = until(
      core,
      (name, payload) => {
        if (name !== 'run:progress' || (payload as RunProgress).totals.bytesUploaded < 2 * MiB) return undefined;
        process.kill(firstPid, 'SIGKILL');
        return (payload as RunProgress).totals.bytesUploaded;
      },
      30_000,
    );
    const start = await core.handlers['runs:start']({
      files: [{ handle: core.files.register(bigFile), relativePath: 'big.bin', name: 'big.bin', size: bigSize, mime: null }],
      instructions: { steps: storeOriginals.steps },
    });
    expect(start.ok).toBe(true);
    if (!start.ok) return;
    expect(await killedAt).toBeLessThan(bigSize);

    const final = await core.runs.settled(start.value.runId);
    expect(final.ok).toBe(true);
    if (!final.ok) return;
    expect(final.value.error).toBeNull();
    expect(final.value.state).toBe('ASSEMBLY_COMPLETED');
    expect(final.value.files[0]).toMatchObject({ state: 'uploaded', bytesUploaded: bigSize });
    // One upload in the Assembly, byte for byte the file on disk.
    expect(final.value.status?.uploads).toHaveLength(1);
    expect(final.value.status?.uploads?.[0]).toMatchObject({ size: bigSize, md5hash: bigMd5 });

    // The page was told, and the service came back where it was.
    const phases = statuses.map((s) => s.phase);
    expect(phases).toContain('restarting');
    expect(phases.lastIndexOf('running')).toBeGreaterThan(phases.indexOf('restarting'));
    expect(statuses.find((s) => s.phase === 'restarting')?.message).toMatch(/SIGKILL/);
    expect(core.localServiceUrl).toBe(url);
    expect(core.localServicePid()).not.toBe(firstPid);
    const status = await core.handlers['service:status']({});
    expect(status.ok && status.value).toMatchObject({ phase: 'running', url, restarts: 1 });
  }, 120_000);

  it('stays responsive while the service hangs, reports it, and replaces it', async () => {
    const { core } = await startCore('hang');
    const hungPid = core.localServicePid()!;
    const notResponding = until(core, phaseIs('unresponsive'), 20_000);
    process.kill(hungPid, 'SIGSTOP');
    try {
      // Handlers that need only core answer at once, whatever the service does.
      let worst = 0;
      for (let i = 0; i < 150; i++) {
        for (const call of [() => core.handlers['app:info']({}), () => core.handlers['workspaces:list']({}), () => core.handlers['service:status']({})]) {
          const t0 = performance.now();
          const result = await call();
          worst = Math.max(worst, performance.now() - t0);
          expect(result.ok).toBe(true);
        }
      }
      expect(worst).toBeLessThan(100);

      const reported = await notResponding;
      expect(reported.message).toMatch(/not responding/);
      const back = await until(core, phaseIs('running'), 30_000);
      expect(back.restarts).toBe(1);
      expect(core.localServicePid()).not.toBe(hungPid);
      // The hung one was killed, not left behind.
      expect(() => process.kill(hungPid, 0)).toThrow();
      // The new service serves the Local workspace again.
      const templates = await dispatch(core.handlers, 'templates:list', {});
      expect(templates.ok).toBe(true);
    } finally {
      try {
        process.kill(hungPid, 'SIGKILL');
      } catch {
        // Already gone (the supervisor killed it).
      }
    }
  }, 90_000);

  it('keeps trying its port with backoff while something else holds it, says why, and starts once it is free', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    const statuses: ServiceStatus[] = [];
    const supervisor = superviseLocalService({
      process: createForkServiceProcess({ entry: sourceServiceEntry() }),
      dataDir: path.join(dir, 'busy-port'),
      port,
      backoffBaseMs: 100,
      onStatus: (status) => statuses.push(status),
      log: () => undefined,
    });
    try {
      await expect(supervisor.firstStart).rejects.toThrow(/EADDRINUSE/);
      await expect.poll(() => statuses.find((s) => s.phase === 'restarting')?.message, { timeout: 20_000 }).toMatch(/could not start: .*EADDRINUSE/);
      await new Promise<void>((resolve) => blocker.close(() => resolve()));
      await expect.poll(() => supervisor.status().phase, { timeout: 30_000, interval: 100 }).toBe('running');
      expect(supervisor.current()?.url).toBe(`http://127.0.0.1:${port}`);
      const delays = statuses.filter((s) => s.phase === 'restarting').map((s) => s.retryInMs);
      expect(delays[0]).toBe(100);
    } finally {
      blocker.close();
      await supervisor.close();
    }
  }, 60_000);
});
