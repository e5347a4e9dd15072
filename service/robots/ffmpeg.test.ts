import { describe, expect, it } from 'vitest';
import { FFMPEG_MISSING, runFfmpeg } from './ffmpeg';
import { withoutTools } from './test-files';

describe('ffmpeg as a system requirement', () => {
  it('a machine without ffmpeg gets a step error that says to install it, not "spawn ffmpeg ENOENT"', async () => {
    const outcome = await withoutTools(() => runFfmpeg(['-version'], new AbortController().signal));
    expect(outcome).toEqual({ ok: false, aborted: false, message: FFMPEG_MISSING });
    expect(FFMPEG_MISSING).toMatch(/apt install ffmpeg/);
  });

  it('with ffmpeg on PATH the same call succeeds', async () => {
    expect(await runFfmpeg(['-f', 'lavfi', '-i', 'anullsrc', '-t', '0.1', '-f', 'null', '-'], new AbortController().signal)).toEqual({ ok: true });
  });
});
