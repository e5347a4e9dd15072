// /video/adaptive: the inputs (the renditions, usually from /video/encode steps; bundle them with
// `bundle_steps`) cut into segments with playlists — `technique` dash (default: playlist.mpd, fMP4 init and
// chunk segments), hls (playlist.m3u8, a master over one media playlist per rendition, MPEG-TS segments)
// or cmaf (fMP4 with both manifests). H.264 video and AAC audio are copied (segments then start at the
// input's keyframes); anything else is encoded to them with a keyframe every `segment_duration` seconds.
// Every file written is a result with `meta.relative_path`, the folder it sits in beside the playlist ('' for
// the playlist itself), as the vendor gives it and as /file/decompress does: a storage step with
// `path: "…/${file.meta.relative_path}/${file.name}"` (the vendor's example) keeps the playlist playable.

import { mkdir, readdir } from 'node:fs/promises';
import { join, posix, relative } from 'node:path';
import { describeResult, type StoredFile } from '../file-record';
import { outputDir } from '../output-path';
import type { BundleRunner, RobotFileOutcome } from '../robot-types';
import { unsuitable } from '../unsuitable-input';
import { ffmpegStep, numParam } from './media-job';
import { durationOf, hasAudio, isVideo, joinOrder, withRoles } from './media-inputs';

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if (entry.isFile() && !entry.name.startsWith('.')) out.push(path);
  }
  return out.sort();
}

/** Playlists first (the file a player opens), then init segments, then media segments in order. */
const rank = (name: string): number => (/\.(m3u8|mpd)$/.test(name) ? 0 : /^init/.test(name) ? 1 : 2);

export const runVideoAdaptive: BundleRunner = async (job): Promise<RobotFileOutcome> => {
  const { params, outDir } = job;
  const renditions = joinOrder(withRoles(params.use, job.inputs), params.sort_by).map((r) => r.file).filter((f) => isVideo(f) || hasAudio(f));
  if (renditions.length === 0) return unsuitable('Not a video or audio: /video/adaptive needs videos or audio to package');
  const technique = params.technique === 'hls' || params.technique === 'cmaf' ? params.technique : 'dash';
  const segment = Math.max(1, Math.round(numParam(params.segment_duration, 10)));
  const playlist = typeof params.playlist_name === 'string' && params.playlist_name ? params.playlist_name : technique === 'hls' ? 'playlist.m3u8' : 'playlist.mpd';
  const hlsMaster = typeof params.hls_playlist_name === 'string' && params.hls_playlist_name ? params.hls_playlist_name : 'playlist.m3u8';
  const lead = renditions[0]!;
  const dir = join(await outputDir(outDir, lead.id), 'adaptive');
  await mkdir(dir, { recursive: true });

  const inputs: string[] = [];
  const maps: string[] = [];
  const variants: string[] = [];
  let v = 0;
  let a = 0;
  renditions.forEach((f: StoredFile, i) => {
    inputs.push('-i', f.localPath);
    const parts: string[] = [];
    if (isVideo(f)) {
      maps.push('-map', `${i}:v:0`);
      maps.push(`-c:v:${v}`, ...(f.meta.video_codec === 'h264' ? ['copy'] : ['libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-force_key_frames', `expr:gte(t,n_forced*${segment})`]));
      parts.push(`v:${v++}`);
    }
    if (hasAudio(f)) {
      maps.push('-map', `${i}:a:0`);
      maps.push(`-c:a:${a}`, ...(f.meta.audio_codec === 'aac' ? ['copy'] : ['aac', '-b:a', '128k']));
      parts.push(`a:${a++}`);
    }
    variants.push(parts.join(','));
  });
  const sets = [v > 0 ? 'id=0,streams=v' : '', a > 0 ? `id=${v > 0 ? 1 : 0},streams=a` : ''].filter(Boolean).join(' ');
  const output =
    technique === 'hls'
      ? ['-f', 'hls', '-hls_time', String(segment), '-hls_playlist_type', 'vod', '-hls_flags', 'independent_segments', '-var_stream_map', variants.join(' '),
        '-master_pl_name', playlist, '-hls_segment_filename', join(dir, 'stream_%v', 'segment_%05d.ts'), join(dir, 'stream_%v', 'media.m3u8')]
      : ['-f', 'dash', '-seg_duration', String(segment), '-use_template', '1', '-use_timeline', '1', '-adaptation_sets', sets,
        '-init_seg_name', 'init-$RepresentationID$.m4s', '-media_seg_name', 'chunk-$RepresentationID$-$Number%05d$.m4s',
        ...(technique === 'cmaf' ? ['-hls_playlist', '1', '-hls_master_name', hlsMaster] : []), join(dir, playlist)];
  const longest = Math.max(0, ...renditions.map((f) => durationOf(f) ?? 0));
  const failed = await ffmpegStep([...inputs, ...maps, ...output], job, longest || null, `Packaging ${renditions.length} rendition(s) as ${technique.toUpperCase()}`);
  if (failed) return failed;
  const written = (await filesUnder(dir)).sort((x, y) => rank(x.split('/').pop()!) - rank(y.split('/').pop()!) || x.localeCompare(y, 'en', { numeric: true }));
  const files: StoredFile[] = [];
  for (const path of written) {
    const relativePath = relative(dir, path).split('\\').join('/');
    const folder = posix.dirname(relativePath);
    files.push(await describeResult(lead, path, posix.basename(relativePath), { relative_path: folder === '.' ? '' : folder, technique }));
  }
  return { ok: true, files };
};
