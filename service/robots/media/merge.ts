// /video/merge: still images and an audio track into a video (each image for its share of the audio, its
// `image_durations` entry, `duration` / images, or 1/`framerate` seconds), or a video with an audio track
// (mixed in, or replacing its sound with `replace_audio`; `audio_delay`, `loop`). /audio/merge: audio files
// played at once (`duration` first/longest/shortest, `volume` average or sum, `loop`).
// Roles come from `as` ("video", "audio", "image"), else from each file's type.

import { describeResult, type StoredFile } from '../file-record';
import { outputDir, outputFile } from '../output-path';
import type { BundleJob, BundleRunner, RobotFileOutcome } from '../robot-types';
import { unsuitable } from '../unsuitable-input';
import { AAC, MP4_VIDEO, audioOutput, boolParam, even, ffmpegStep, numParam, secs } from './media-job';
import { durationOf, hasAudio, isImage, isVideo, joinOrder, roleKind, withRoles } from './media-inputs';

type Role = 'video' | 'audio' | 'image';

function classify(job: BundleJob): Record<Role, StoredFile[]> {
  const out: Record<Role, StoredFile[]> = { video: [], audio: [], image: [] };
  for (const { file, role } of joinOrder(withRoles(job.params.use, job.inputs), job.params.sort_by)) {
    // A role the file can play (`as: "image"` on an image); else the file's own type decides.
    const kind = roleKind(role);
    const fits = (kind === 'video' && isVideo(file)) || (kind === 'image' && isImage(file)) || (kind === 'audio' && hasAudio(file));
    const as: Role | null = fits ? (kind as Role) : isVideo(file) ? 'video' : isImage(file) ? 'image' : hasAudio(file) ? 'audio' : null;
    if (as) out[as].push(file);
  }
  return out;
}

/** 1/framerate seconds: "1/5" → 5, 2 → 0.5. */
function secondsPerImage(framerate: unknown): number {
  const m = typeof framerate === 'string' ? /^(\d+)(?:\/(\d+))?$/.exec(framerate.trim()) : null;
  const rate = typeof framerate === 'number' ? framerate : m ? Number(m[1]) / Number(m[2] ?? 1) : 1 / 5;
  return rate > 0 ? 1 / rate : 5;
}

/** A filter that fits any picture into w × h, padded with `background` (rrggbb[aa]; black by default). */
const fitInto = (w: number, h: number, background: unknown): string => {
  const color = typeof background === 'string' && /^#?[0-9a-f]{6}([0-9a-f]{2})?$/i.test(background) ? `0x${background.replace('#', '').slice(0, 6)}` : 'black';
  return `scale=${w}:${h}:force_original_aspect_ratio=decrease,pad=${w}:${h}:(ow-iw)/2:(oh-ih)/2:color=${color},setsar=1`;
};

export const runVideoMerge: BundleRunner = async (job): Promise<RobotFileOutcome> => {
  const { params, outDir } = job;
  const roles = classify(job);
  const audio = roles.audio[0] ?? null;
  const video = roles.video[0] ?? null;
  const delay = Math.max(0, numParam(params.audio_delay, 0));
  const loop = boolParam(params.loop);
  const explicitDuration = params.duration !== undefined && params.duration !== null ? numParam(params.duration, 5) : null;
  const delayed = delay > 0 ? `adelay=${Math.round(delay * 1000)}:all=1,` : '';

  if (video) {
    if (!audio) return unsuitable('/video/merge needs an audio file to add to the video (or images and an audio file)');
    const vDur = durationOf(video) ?? 0;
    const aDur = (durationOf(audio) ?? 0) + delay;
    const total = explicitDuration ?? (loop ? Math.max(vDur, aDur) : Math.max(vDur, aDur));
    const w = even(numParam(params.width, Number(video.meta.width) || 640));
    const h = even(numParam(params.height, Number(video.meta.height) || 360));
    const loopVideo = loop && vDur < total ? ['-stream_loop', '-1'] : [];
    const loopAudio = loop && aDur < total ? ['-stream_loop', '-1'] : [];
    // A video shorter than the result holds its last frame.
    const hold = !loop && vDur < total ? `,tpad=stop_mode=clone:stop_duration=${secs(total - vDur)}` : '';
    const graph = [`[0:v:0]${fitInto(w, h, params.background)},format=yuv420p${hold}[v]`];
    if (boolParam(params.replace_audio) || !hasAudio(video)) graph.push(`[1:a:0]${delayed}aresample=44100[a]`);
    else graph.push(`[1:a:0]${delayed}aresample=44100[new]`, '[0:a:0]aresample=44100[old]', '[old][new]amix=inputs=2:duration=longest:normalize=0[a]');
    const dir = await outputDir(outDir, video.id);
    const target = outputFile(dir, video.basename, '.mp4');
    const failed = await ffmpegStep(
      [...loopVideo, '-i', video.localPath, ...loopAudio, '-i', audio.localPath, '-filter_complex', graph.join(';'), '-map', '[v]', '-map', '[a]', '-t', secs(total), ...MP4_VIDEO, ...AAC, target],
      job, total, `Merging "${video.name}" with "${audio.name}"`,
    );
    if (failed) return failed;
    return { ok: true, files: [await describeResult(video, target, `${video.basename}.mp4`)] };
  }

  const images = roles.image;
  if (images.length === 0) return unsuitable('/video/merge needs images and an audio file, or a video and an audio file');
  const durations = Array.isArray(params.image_durations) && params.image_durations.length > 0
    ? images.map((_, i) => numParam((params.image_durations as unknown[])[i], numParam((params.image_durations as unknown[]).at(-1), 5)))
    : explicitDuration !== null
      ? images.map(() => explicitDuration / images.length)
      : audio && durationOf(audio)
        ? images.map(() => (durationOf(audio)! + delay) / images.length)
        : images.map(() => secondsPerImage(params.framerate));
  const total = durations.reduce((a, b) => a + b, 0);
  const first = images[0]!;
  const w = even(numParam(params.width, Number(first.meta.width) || 640));
  const h = even(numParam(params.height, Number(first.meta.height) || 360));
  const inputs = images.flatMap((img, i) => ['-f', 'image2', '-loop', '1', '-framerate', '25', '-t', secs(durations[i]!), '-i', img.localPath]);
  const graph = images.map((_, i) => `[${i}:v:0]${fitInto(w, h, params.background)},fps=25,format=yuv420p[v${i}]`);
  graph.push(`${images.map((_, i) => `[v${i}]`).join('')}concat=n=${images.length}:v=1:a=0[v]`);
  const maps = ['-map', '[v]'];
  if (audio) {
    if (loop) inputs.push('-stream_loop', '-1');
    inputs.push('-i', audio.localPath);
    graph.push(`[${images.length}:a:0]${delayed}aresample=44100[a]`);
    maps.push('-map', '[a]', ...AAC);
  }
  const lead = audio ?? first;
  const dir = await outputDir(outDir, lead.id);
  const target = outputFile(dir, first.basename, '.mp4');
  const failed = await ffmpegStep([...inputs, '-filter_complex', graph.join(';'), ...maps, '-t', secs(total), ...MP4_VIDEO, target], job, total, `Merging ${images.length} image(s)${audio ? ` with "${audio.name}"` : ''}`);
  if (failed) return failed;
  return { ok: true, files: [await describeResult(lead, target, `${first.basename}.mp4`)] };
};

export const runAudioMerge: BundleRunner = async (job): Promise<RobotFileOutcome> => {
  const { params, outDir } = job;
  const files = joinOrder(withRoles(params.use, job.inputs), 'import_order').map((r) => r.file).filter((f) => hasAudio(f) && durationOf(f) !== null);
  if (files.length === 0) return unsuitable('Not audio: /audio/merge needs audio files to mix');
  const lead = files[0]!;
  const durations = files.map((f) => durationOf(f)!);
  const mode = String(params.duration ?? 'longest');
  const target = mode === 'first' ? durations[0]! : mode === 'shortest' ? Math.min(...durations) : Math.max(...durations);
  const loop = boolParam(params.loop);
  const inputs = files.flatMap((f, i) => [...(loop && durations[i]! < target ? ['-stream_loop', '-1'] : []), '-i', f.localPath]);
  const normalize = params.volume === 'sum' ? 0 : 1;
  const graph = `${files.map((_, i) => `[${i}:a:0]aresample=44100[a${i}];`).join('')}${files.map((_, i) => `[a${i}]`).join('')}amix=inputs=${files.length}:duration=${mode}:normalize=${normalize}:dropout_transition=0[out]`;
  const out = audioOutput(params);
  const dir = await outputDir(outDir, lead.id);
  const path = outputFile(dir, lead.basename, `.${out.ext}`);
  const failed = await ffmpegStep([...inputs, '-filter_complex', graph, '-map', '[out]', '-t', secs(target), ...out.args, path], job, target, `Mixing ${files.length} audio files`);
  if (failed) return failed;
  return { ok: true, files: [await describeResult(lead, path, `${lead.basename}.${out.ext}`)] };
};
