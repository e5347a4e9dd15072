// A run of a Template that does not ask for `emit_execution_progress`: the app asks for it itself, and the
// run's own watcher forwards the service's `assembly_execution_progress` as `assembly:updated` (what the
// Assembly view shows per step), from a real ffmpeg encode on the real local service.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService, type LocalService } from '../../../service/index';
import type { AssemblyUpdate } from '../../../shared/ipc/assembly-models';
import { ok } from '../../../shared/result';
import { createApiClient } from '../api/api-client';
import { createCoreEvents } from '../events';
import { createTemplate } from '../templates/template-api';
import { createTransferEngine } from '../transfers/transfer-engine';
import { createRunManager } from './run-manager';

/** A test-pattern H.264 video of `seconds`, made by ffmpeg (long enough for ffmpeg to report progress). */
const writeVideo = (file: string, seconds: number) =>
  new Promise<string>((resolve, reject) =>
    execFile('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc=duration=${String(seconds)}:size=320x240:rate=10`, '-c:v', 'libx264', '-pix_fmt', 'yuv420p', file], (error) =>
      error ? reject(error) : resolve(file),
    ),
  );

let dir = '';
let service: LocalService;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'al-run-progress-'));
  service = await startLocalService({ dataDir: path.join(dir, 'service') });
});

afterAll(async () => {
  await service?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('execution progress of a run', () => {
  it('reaches the app as assembly:updated from the encoder report while the video encodes, then the run completes', async () => {
    const file = await writeVideo(path.join(dir, 'clip.mp4'), 60);
    const size = (await stat(file)).size;
    const api = createApiClient({ endpoint: service.url, authKey: service.authKey, getSecret: async () => service.authSecret });
    const template = await createTemplate(api, {
      name: 'encode',
      content: { steps: { ':original': { robot: '/upload/handle' }, encoded: { use: ':original', robot: '/video/encode', width: 640, height: 480, result: true } } },
    });
    expect(template.ok).toBe(true);
    if (!template.ok) return;
    const events = createCoreEvents();
    const updates: AssemblyUpdate[] = [];
    events.on((name, payload) => {
      if (name === 'assembly:updated') updates.push(payload as AssemblyUpdate);
    });
    const runs = createRunManager({ events, clientFor: () => ok({ workspaceId: 'w', api }) });
    const engine = createTransferEngine({ dataDir: path.join(dir, 'data'), events, clientFor: () => ok({ workspaceId: 'w', api }), runs });
    await engine.restore();
    try {
      const start = await engine.startRun({ files: [{ path: file, relativePath: 'clip.mp4', name: 'clip.mp4', size, mime: 'video/mp4' }], instructions: { template_id: template.value.id } });
      expect(start.ok).toBe(true);
      if (!start.ok) return;
      const final = await runs.settled(start.value.runId);
      expect(final.ok && final.value.state).toBe('ASSEMBLY_COMPLETED');
      const assemblyId = final.ok ? final.value.assemblyId : null;
      const combined = updates.filter((u) => u.assemblyId === assemblyId && u.progress).map((u) => u.progress!.combined);
      // A value strictly between 50 (the first of the two steps done) and 100: only ffmpeg's own report gives
      // one. How many arrive depends on the machine's speed (a 60 s clip keeps the encode busy for a while).
      expect(combined.some((v) => v > 50 && v < 100), JSON.stringify(combined)).toBe(true);
      expect(combined).toEqual([...combined].sort((a, b) => a - b));
    } finally {
      await engine.close();
      await runs.close();
    }
  }, 120_000);
});
