// /video/concat and /audio/concat: the inputs one after the other, in the vendor's order (numbered `as`
// first, then `sort_by`), with fades between sections (`video_fade_seconds`, `audio_fade_seconds`, 1 s
// by default), `transition` crossfade or fade_to_black, and chapter markers. Inputs of other sizes are
// scaled into the first one's box (or width × height) and padded; inputs without sound get silence.

import { writeFile } from 'node:fs/promises';
import { describeResult } from '../file-record';
import { outputDir, outputFile, scratchFile } from '../output-path';
import type { BundleJob, BundleRunner, RobotFileOutcome } from '../robot-types';
import { unsuitable } from '../unsuitable-input';
import { AAC, MP4_VIDEO, audioOutput, boolParam, even, ffmpegStep, numParam, secs } from './media-job';
import { durationOf, hasAudio, isVideo, joinOrder, withRoles } from './media-inputs';

const AUDIO_FORMAT = 'aresample=44100,aformat=sample_fmts=fltp:channel_layouts=stereo';

/** Fades at the joins: out at the end of every part but the last, in at the start of every part but the first. */
function fades(kind: 'video' | 'audio', i: number, n: number, duration: number, seconds: number): string {
  const d = Math.min(seconds, duration / 2);
  if (!(d > 0)) return '';
  const filter = kind === 'video' ? 'fade' : 'afade';
  const parts = [];
  if (i > 0) parts.push(`${filter}=t=in:st=0:d=${secs(d)}`);
  if (i < n - 1) parts.push(`${filter}=t=out:st=${secs(duration - d)}:d=${secs(d)}`);
  return parts.map((p) => `,${p}`).join('');
}

/** ffmetadata with one chapter per part, titled with its basename. */
const chapters = (parts: { title: string; start: number; end: number }[]): string =>
  `;FFMETADATA1\n${parts.map((p) => `[CHAPTER]\nTIMEBASE=1/1000\nSTART=${Math.round(p.start * 1000)}\nEND=${Math.round(p.end * 1000)}\ntitle=${p.title.replace(/[=;#\\\n]/g, (c) => (c === '\n' ? ' ' : `\\${c}`))}\n`).join('')}`;

async function concat(job: BundleJob, kind: 'video' | 'audio'): Promise<RobotFileOutcome> {
  const { robot, params, outDir } = job;
  const ordered = joinOrder(withRoles(params.use, job.inputs), params.sort_by).map((r) => r.file);
  const usable = ordered.filter((f) => (kind === 'video' ? isVideo(f) : hasAudio(f)) && durationOf(f) !== null);
  if (usable.length === 0) return unsuitable(`Not ${kind === 'video' ? 'a video' : 'audio'}: ${robot} needs ${kind === 'video' ? 'videos' : 'audio files'} to join`);
  const lead = usable[0]!;
  const durations = usable.map((f) => durationOf(f)!);
  const n = usable.length;
  const transition = kind === 'video' ? String(params.transition ?? 'none') : boolParam(params.crossfade) ? 'crossfade' : 'none';
  const transitionSeconds = kind === 'video' ? numParam(params.transition_duration, 1) : numParam(params.audio_fade_seconds, 1) || 1;
  // Crossfades overlap the parts: each join shortens the whole by the fade.
  const overlap = transition === 'crossfade' && n > 1 ? Math.min(transitionSeconds, ...durations.map((d) => d / 2)) : 0;
  const total = durations.reduce((a, b) => a + b, 0) - overlap * (n - 1);

  const inputs: string[] = [];
  const graph: string[] = [];
  const vFade = transition === 'fade_to_black' ? transitionSeconds / 2 : transition === 'none' ? numParam(params.video_fade_seconds, 1) : 0;
  const aFade = transition === 'fade_to_black' ? transitionSeconds / 2 : transition === 'none' ? numParam(params.audio_fade_seconds, 1) : 0;
  let width = 0;
  let height = 0;
  if (kind === 'video') {
    width = even(numParam(params.width, Number(lead.meta.width) || 640));
    height = even(numParam(params.height, Number(lead.meta.height) || 360));
  }
  const fps = Number(lead.meta.framerate) > 0 ? Math.min(60, Number(lead.meta.framerate)) : 25;
  usable.forEach((f, i) => {
    inputs.push('-i', f.localPath);
    const d = durations[i]!;
    if (kind === 'video') {
      graph.push(`[${i}:v:0]scale=${width}:${height}:force_original_aspect_ratio=decrease,pad=${width}:${height}:(ow-iw)/2:(oh-ih)/2,setsar=1,fps=${fps},format=yuv420p,trim=duration=${secs(d)},setpts=PTS-STARTPTS${fades('video', i, n, d, vFade)}[v${i}]`);
    }
    graph.push(hasAudio(f)
      ? `[${i}:a:0]${AUDIO_FORMAT},atrim=duration=${secs(d)},asetpts=PTS-STARTPTS${fades('audio', i, n, d, aFade)}[a${i}]`
      : `anullsrc=r=44100:cl=stereo,atrim=duration=${secs(d)},${AUDIO_FORMAT}[a${i}]`);
  });
  if (transition === 'crossfade' && n > 1) {
    let offset = 0;
    let v = 'v0';
    let a = 'a0';
    for (let i = 1; i < n; i++) {
      offset += durations[i - 1]! - overlap;
      if (kind === 'video') graph.push(`[${v}][v${i}]xfade=transition=fade:duration=${secs(overlap)}:offset=${secs(offset)}[vx${i}]`);
      graph.push(`[${a}][a${i}]acrossfade=d=${secs(overlap)}[ax${i}]`);
      v = `vx${i}`;
      a = `ax${i}`;
    }
    if (kind === 'video') graph.push(`[${v}]null[vout]`);
    graph.push(`[${a}]anull[aout]`);
  } else {
    const pairs = usable.map((_, i) => (kind === 'video' ? `[v${i}][a${i}]` : `[a${i}]`)).join('');
    graph.push(`${pairs}concat=n=${n}:v=${kind === 'video' ? 1 : 0}:a=1${kind === 'video' ? '[vout]' : ''}[aout]`);
  }
  const dir = await outputDir(outDir, lead.id);
  const meta: string[] = [];
  if (kind === 'video' && boolParam(params.chapter_markers)) {
    let start = 0;
    const parts = usable.map((f, i) => {
      const end = start + durations[i]! - (i < n - 1 ? overlap : 0);
      const part = { title: f.basename, start, end };
      start = end;
      return part;
    });
    const file = scratchFile(dir, '.chapters.txt');
    await writeFile(file, chapters(parts));
    meta.push('-f', 'ffmetadata', '-i', file, '-map_chapters', String(n));
  }
  const audio = audioOutput(params);
  const ext = kind === 'video' ? 'mp4' : audio.ext;
  const target = outputFile(dir, lead.basename, `.${ext}`);
  const maps = kind === 'video' ? ['-map', '[vout]', '-map', '[aout]', ...MP4_VIDEO, ...AAC] : ['-map', '[aout]', ...audio.args];
  const failed = await ffmpegStep([...inputs, ...meta, '-filter_complex', graph.join(';'), ...maps, target], job, total, `Joining ${n} files`);
  if (failed) return failed;
  return { ok: true, files: [await describeResult(lead, target, `${lead.basename}.${ext}`, { concatenated_files: n })] };
}

export const runVideoConcat: BundleRunner = (job) => concat(job, 'video');
export const runAudioConcat: BundleRunner = (job) => concat(job, 'audio');
