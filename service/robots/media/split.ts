// /video/split and /audio/split: each `segments` entry ({from, to}, seconds or timecodes) becomes its own
// file, cut with a re-encode so it starts exactly at `from` (not at the keyframe before it).

import { describeResult, type StoredFile } from '../file-record';
import { outputDir, outputFile } from '../output-path';
import type { RobotJob, RobotRunner } from '../robot-types';
import { wrongKind } from '../unsuitable-input';
import { AAC, MP4_VIDEO, audioOutput, even, ffmpegStep, secs } from './media-job';
import { durationOf, hasAudio, isVideo, parseTime } from './media-inputs';

const split = async (job: RobotJob, kind: 'video' | 'audio') => {
  const { robot, params, input, outDir } = job;
  if (kind === 'video' ? !isVideo(input) : !hasAudio(input)) return wrongKind(kind === 'video' ? 'a video' : 'audio', robot, input.mime);
  const prefix = robot.replace(/^\//, '').replace(/\//g, '_').toUpperCase();
  const duration = durationOf(input);
  const segments = (params.segments as { from: unknown; to: unknown }[]).map((s) => ({ from: parseTime(s.from)!, to: parseTime(s.to)! }));
  for (const [i, s] of segments.entries()) {
    if (duration !== null && s.from >= duration) {
      return { ok: false as const, code: `${prefix}_VALIDATION`, message: `segments[${i}] starts at ${s.from} s, but "${input.name}" is ${duration} s long.` };
    }
  }
  const cut = segments.map((s) => ({ ...s, to: duration === null ? s.to : Math.min(s.to, duration) }));
  const total = cut.reduce((n, s) => n + (s.to - s.from), 0);
  const audio = audioOutput(params);
  const ext = kind === 'video' ? 'mp4' : audio.ext;
  const dir = await outputDir(outDir, input.id);
  const files: StoredFile[] = [];
  let before = 0;
  for (const [i, s] of cut.entries()) {
    const name = `${input.basename}_${i + 1}.${ext}`;
    const target = outputFile(dir, `${input.basename}_${i + 1}`, `.${ext}`);
    const size = kind === 'video' && (params.width != null || params.height != null) ? scaleArgs(params) : [];
    const codecs = kind === 'video' ? ['-map', '0:v:0', '-map', '0:a:0?', ...size, ...MP4_VIDEO, ...AAC] : ['-map', '0:a:0', '-vn', ...audio.args];
    const done = before;
    const failed = await ffmpegStep(
      ['-ss', secs(s.from), '-i', input.localPath, '-t', secs(s.to - s.from), ...codecs, target],
      { ...job, onProgress: job.onProgress && ((f: number) => job.onProgress!((done + f * (s.to - s.from)) / total)) },
      s.to - s.from,
      `Cutting segment ${i + 1} of "${input.name}"`,
    );
    if (failed) return failed;
    before += s.to - s.from;
    files.push(await describeResult(input, target, name, { segment_index: i, segment_from: s.from, segment_to: s.to }));
  }
  return { ok: true as const, files };
};

/** `width`/`height`: the video scaled to fit that box (the other side kept in proportion, made even). */
function scaleArgs(params: Record<string, unknown>): string[] {
  const w = params.width != null ? even(Number(params.width)) : -2;
  const h = params.height != null ? even(Number(params.height)) : -2;
  return ['-vf', w > 0 && h > 0 ? `scale=${w}:${h}:force_original_aspect_ratio=decrease,scale=trunc(iw/2)*2:trunc(ih/2)*2` : `scale=${w}:${h}`];
}

export const runVideoSplit: RobotRunner = (job) => split(job, 'video');
export const runAudioSplit: RobotRunner = (job) => split(job, 'audio');
