// assembly_execution_progress over a real update stream while ffmpeg really encodes (its -progress
// report drives the numbers), and per file for an image step over several files.
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeVideo } from '../robots/test-files';
import { buildForm, inOneHourIso, jpeg, postAssembly, readSse, startFixture, tempDir, type Fixture } from '../testing/service-fixture';

interface StepProgress {
  step: string;
  robot: string;
  state: 'waiting' | 'executing' | 'done';
  progress: number;
  files_done: number;
  files_total: number;
}
interface Progress {
  progress_combined: number;
  progress_per_original_file: { original_id: string; progress: number }[];
  progress_per_step: StepProgress[];
}

describe('emit_execution_progress', () => {
  let fx: Fixture;
  let dir: string;
  beforeAll(async () => {
    fx = await startFixture();
    dir = await tempDir('progress-src-');
  });
  afterAll(async () => {
    await fx.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const start = async (params: Record<string, unknown>, files: { name: string; data: Buffer; type: string }[]) => {
    const form = buildForm({
      params: { ...params, auth: { key: fx.service.authKey, expires: inOneHourIso() } },
      secret: fx.service.authSecret,
      fields: { num_expected_upload_files: '0' },
      files: files.map((f) => ({ field: 'file', ...f })),
    });
    const created = await postAssembly(fx.service.url, form);
    expect(created.status).toBe(200);
    return created.body;
  };

  it('reports a video encode moving from ffmpeg time, per original file and per step, then 100', async () => {
    const video = await readFile(await writeVideo(join(dir, 'long.mp4'), 40));
    const created = await start(
      {
        emit_execution_progress: true,
        steps: {
          ':original': { robot: '/upload/handle' },
          enc: { use: ':original', robot: '/video/encode', width: 640, height: 480 },
          thumbs: { use: 'enc', robot: '/video/thumbs', count: 1 },
        },
      },
      [{ name: 'long.mp4', data: video, type: 'video/mp4' }],
    );
    const events = await readSse(String(created.update_stream_url)).done;
    const names = events.map((e) => e.event === 'message' ? e.data : e.event);
    expect(names.at(-1)).toBe('assembly_finished');
    const progress = events.filter((e) => e.event === 'assembly_execution_progress').map((e) => JSON.parse(e.data) as Progress);
    const during = progress.filter((p) => p.progress_combined > 0 && p.progress_combined < 100);
    // A value strictly between 33 and 66 while the encode runs: only ffmpeg's own report can produce it
    // (the steps alone give 33, 66, 100 for this three-step Assembly). How many such values arrive depends
    // on how fast the machine encodes (events are sent at most every PROGRESS_EMIT_INTERVAL_MS).
    const values = new Set(during.map((p) => p.progress_combined));
    expect([...values].some((v) => v > 33 && v < 66), JSON.stringify(progress)).toBe(true);
    // Per step (the local service's addition): in order, the encode moving on its own while thumbs waits.
    for (const p of progress) expect(p.progress_per_step.map((s) => s.step)).toEqual([':original', 'enc', 'thumbs']);
    const encoding = progress.filter((p) => p.progress_per_step[1]!.state === 'executing' && p.progress_per_step[1]!.progress > 0 && p.progress_per_step[1]!.progress < 100);
    expect(encoding.length, JSON.stringify(progress.map((p) => p.progress_per_step))).toBeGreaterThan(0);
    for (const p of encoding) {
      const [original, enc, thumbs] = p.progress_per_step;
      expect(original).toMatchObject({ robot: '/upload/handle', state: 'done', progress: 100, files_done: 1, files_total: 1 });
      expect(enc).toMatchObject({ robot: '/video/encode', files_done: 0, files_total: 1 });
      expect(thumbs).toEqual({ step: 'thumbs', robot: '/video/thumbs', state: 'waiting', progress: 0, files_done: 0, files_total: 0 });
    }
    const encodeValues = progress.map((p) => p.progress_per_step[1]!.progress);
    expect(encodeValues).toEqual([...encodeValues].sort((a, b) => a - b));
    expect(progress.at(-1)!.progress_per_step.every((s) => s.state === 'done' && s.progress === 100 && s.files_done === s.files_total)).toBe(true);
    const combined = progress.map((p) => p.progress_combined);
    expect(combined).toEqual([...combined].sort((a, b) => a - b)); // never goes back
    const status = (await (await fetch(String(created.assembly_ssl_url))).json()) as { uploads: { original_id: string }[]; progress_combined: number };
    const originalId = status.uploads[0]!.original_id;
    const perFile = during.map((p) => p.progress_per_original_file.find((f) => f.original_id === originalId)?.progress);
    expect(perFile.every((v) => typeof v === 'number' && v > 0 && v <= 100)).toBe(true);
    expect(progress.at(-1)!.progress_combined).toBe(100);
    expect(status.progress_combined).toBe(100);
  }, 90_000);

  it('sends no progress events without emit_execution_progress', async () => {
    const created = await start({ steps: { ':original': { robot: '/upload/handle' }, r: { use: ':original', robot: '/image/resize', width: 20 } } }, [
      { name: 'a.jpg', data: await jpeg(200, 100), type: 'image/jpeg' },
    ]);
    const events = await readSse(String(created.update_stream_url)).done;
    expect(events.some((e) => e.event === 'assembly_execution_progress')).toBe(false);
  });
});
