// The media robots of this folder through the real pipeline (executeSteps) on real files made by ffmpeg,
// sharp and espeak-ng; every result is read back by ffprobe or sharp.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateInstructions } from '../../instructions/validate-instructions';
import { executeSteps, type ExecuteContext } from '../execute-steps';
import { describeUpload, type StoredFile } from '../file-record';
import { imageUpload, makeTempDir, textUpload, withoutTools, writeAudio, writeVideo } from '../test-files';
import { gridShape, layout } from './image-merge';
import { joinOrder, parseTime, withRoles } from './media-inputs';

const exec = promisify(execFile);

/** What ffprobe (a real player's demuxer) reads of a file or playlist: its duration and streams. */
async function probe(path: string): Promise<{ duration: number; streams: { codec_type: string; width?: number; height?: number }[]; chapters: unknown[] }> {
  const { stdout } = await exec('ffprobe', ['-v', 'error', '-show_format', '-show_streams', '-show_chapters', '-of', 'json', path]);
  const j = JSON.parse(stdout) as { format: { duration: string }; streams: { codec_type: string; width?: number; height?: number }[]; chapters: unknown[] };
  return { duration: Number(j.format.duration), streams: j.streams, chapters: j.chapters };
}

let dir: string;
let cleanup: () => Promise<void>;
let a: StoredFile;
let b: StoredFile;
let toneShort: StoredFile;
let toneLong: StoredFile;

const upload = async (name: string, make: (p: string) => Promise<string>, field = 'file') => describeUpload({ localPath: await make(join(dir, name)), name, field });

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('media-compose-'));
  // Keyframes every second, so HLS and DASH can cut 1 s segments without encoding.
  a = await upload('a.mp4', (p) => writeVideo(p, 3, ['-g', '10']));
  b = await upload('b.mp4', (p) => writeVideo(p, 2, ['-s', '160x120', '-g', '10']));
  toneShort = await upload('short.wav', (p) => writeAudio(p, 1));
  toneLong = await upload('long.wav', (p) => writeAudio(p, 3));
}, 60_000);
afterAll(() => cleanup());

async function run(steps: ExecuteContext['steps'], uploads: StoredFile[]) {
  const results: { step: string; file: StoredFile }[] = [];
  const moving = new Map<string, number[]>();
  const outcome = await executeSteps({
    assemblyId: '2'.repeat(32), steps, uploads, fields: {}, signal: new AbortController().signal,
    workDir: await mkdtemp(join(dir, 'w-')),
    onResult: (step, file) => results.push({ step, file }),
    onProgress: (_p, _per, perStep) => {
      for (const s of perStep) if (s.state === 'executing' && s.progress > 0 && s.progress < 100 && moving.get(s.step)?.at(-1) !== s.progress) moving.set(s.step, [...(moving.get(s.step) ?? []), s.progress]);
    },
  });
  return { outcome, files: results.map((r) => r.file), results, moving };
}

describe('join order and times (pure)', () => {
  it('puts numbered roles first by number, then the rest by natural name order or as they came', () => {
    const f = (name: string) => ({ name }) as StoredFile;
    const files = [{ file: f('b10.mp4'), role: null }, { file: f('x.mp4'), role: 'video_2' }, { file: f('b9.mp4'), role: null }, { file: f('y.mp4'), role: 'video_1' }];
    expect(joinOrder(files, undefined).map((r) => r.file.name)).toEqual(['y.mp4', 'x.mp4', 'b9.mp4', 'b10.mp4']);
    expect(joinOrder(files, 'import_order').map((r) => r.file.name)).toEqual(['y.mp4', 'x.mp4', 'b10.mp4', 'b9.mp4']);
  });
  it('hands a bundle robot each file once per distinct role its step is named with, as the vendor tags inputs (any use lists)', () => {
    const f = (id: string) => ({ id, name: `${id}.png`, field: 'file' }) as StoredFile;
    const entry = fc.record({ name: fc.constantFrom(':original', 'resized'), as: fc.option(fc.constantFrom('image', 'mask', 'image_1', 'image_2'), { nil: undefined }) });
    fc.assert(
      fc.property(fc.array(entry, { minLength: 1, maxLength: 6 }), (refs) => {
        const inputs = [{ file: f('a'), fromStep: ':original' }, { file: f('b'), fromStep: 'resized' }];
        const use = refs.map((r) => (r.as === undefined ? { name: r.name } : r));
        const got = withRoles(use, inputs);
        for (const { file, fromStep } of inputs) {
          const named = refs.filter((r) => r.name === fromStep);
          const roles = new Set(named.map((r) => r.as ?? null));
          const expected = named.length === 0 ? [null] : [...roles];
          expect(got.filter((g) => g.file === file).map((g) => g.role)).toEqual(expected);
        }
      }),
    );
  });
  it('reads seconds and timecodes', () => {
    expect([parseTime(2.5), parseTime('00:01:30.500'), parseTime('1:05'), parseTime('7')]).toEqual([2.5, 90.5, 65, 7]);
    expect([parseTime('1:xx'), parseTime(-1), parseTime({})]).toEqual([null, null, null]);
  });
  it('lays images out in a row, a column or a grid', () => {
    const sizes = [{ width: 10, height: 20 }, { width: 30, height: 10 }, { width: 20, height: 20 }];
    expect(layout(sizes, { direction: 'horizontal', border: 2 })).toMatchObject({ width: 64, height: 20 });
    expect(layout(sizes, { direction: 'vertical', border: 0 })).toMatchObject({ width: 30, height: 50 });
    expect(gridShape(5)).toEqual({ columns: 3, rows: 2 });
    expect(gridShape(5, undefined, 1)).toEqual({ columns: 5, rows: 1 });
    const grid = layout(sizes, { direction: 'grid', border: 0, columns: 2, cellWidth: 10, cellHeight: 10 });
    expect(grid).toMatchObject({ width: 20, height: 20 });
    expect(grid.boxes[1]).toMatchObject({ width: 10, left: 10 });
  });
});

describe('parameters', () => {
  it('accepts the vendor\'s defaults of every media robot, and refuses a name a robot does not take', () => {
    const use = ':original';
    const defaults = {
      concat: { robot: '/video/concat', use, video_fade_seconds: 1, audio_fade_seconds: 1, chapter_markers: false, sort_by: 'basename', transition: 'none', transition_duration: 1, ffmpeg_stack: 'v6.0.0' },
      audio_concat: { robot: '/audio/concat', use, audio_fade_seconds: 1, crossfade: false, sort_by: 'basename' },
      merge: { robot: '/video/merge', use, resize_strategy: 'pad', background: '#00000000', framerate: '1/5', image_durations: [], duration: 5, audio_delay: 0, loop: false, replace_audio: false, vstack: false, sort_by: 'basename', transition: 'none', transition_duration: 1 },
      audio_merge: { robot: '/audio/merge', use, duration: 'longest', loop: false, volume: 'average' },
      image_merge: { robot: '/image/merge', use, format: 'png', direction: 'horizontal', border: 0, background: '#fff', shuffle: false, sort_by: 'basename', adaptive_filtering: false, quality: 100 },
      split: { robot: '/video/split', use, segments: [{ from: 0, to: '00:00:10' }] },
      audio_split: { robot: '/audio/split', use, segments: [{ from: '0', to: 5 }] },
      adaptive: { robot: '/video/adaptive', use, technique: 'dash', segment_duration: 10, closed_captions: true, audio_group: false },
      speak: { robot: '/text/speak', use, prompt: null, provider: 'auto', target_language: 'en-US', voice: 'female-1', ssml: false },
    };
    expect(validateInstructions(defaults)).toBeNull();
    expect(validateInstructions({ c: { robot: '/video/concat', use, fade_seconds: 1 } })).toMatchObject({ code: 'VIDEO_CONCAT_VALIDATION', parameter: 'fade_seconds' });
    expect(validateInstructions({ m: { robot: '/image/merge', use, quality: 101 } })).toMatchObject({ code: 'IMAGE_MERGE_VALIDATION', parameter: 'quality' });
  });
});

describe('/video/concat', () => {
  it('joins videos in the order of their numbered roles, into the first one\'s size, with chapters, reporting progress', async () => {
    const { outcome, files, moving } = await run({
      joined: { robot: '/video/concat', use: { steps: [{ name: ':original', fields: 'second', as: 'video_2' }, { name: ':original', fields: 'first', as: 'video_1' }] }, chapter_markers: true },
    }, [{ ...a, field: 'second' }, { ...b, field: 'first' }]);
    expect(outcome).toEqual({ ok: true });
    expect(files).toHaveLength(1);
    const out = files[0]!;
    // b (160×120) is video_1: the result has its size and name, and lasts both.
    expect(out).toMatchObject({ name: 'b.mp4', mime: 'video/mp4', meta: { width: 160, height: 120, concatenated_files: 2 } });
    expect(out.meta.duration as number).toBeCloseTo(5, 0);
    const p = await probe(out.localPath);
    expect(p.chapters).toHaveLength(2);
    expect(p.streams.map((s) => s.codec_type).filter((t) => t !== 'data').sort()).toEqual(['audio', 'video']);
    expect(moving.get('joined')?.length).toBeGreaterThan(0);
  });

  it('joins one file named twice (video_1 and video_2 both :original) twice, as the Template says', async () => {
    const { outcome, files } = await run({
      twice: { robot: '/video/concat', use: { steps: [{ name: ':original', as: 'video_1' }, { name: ':original', as: 'video_2' }] } },
    }, [b]);
    expect(outcome).toEqual({ ok: true });
    expect(files[0]).toMatchObject({ meta: { concatenated_files: 2 } });
    // b lasts 2 s: played twice, 4 s.
    expect(files[0]!.meta.duration as number).toBeCloseTo(4, 0);
  });

  it('overlaps the parts by the crossfade, and scales to width × height', async () => {
    const { outcome, files } = await run({ joined: { robot: '/video/concat', use: ':original', transition: 'crossfade', transition_duration: 1, width: 240, height: 180 } }, [a, b]);
    expect(outcome).toEqual({ ok: true });
    expect(files[0]!.meta).toMatchObject({ width: 240, height: 180 });
    expect(files[0]!.meta.duration as number).toBeCloseTo(4, 0);
  });

  it('refuses a preset, the ffmpeg passthrough and an unknown transition before running', () => {
    const step = (extra: Record<string, unknown>) => ({ c: { robot: '/video/concat', use: ':original', ...extra } });
    expect(validateInstructions(step({ preset: 'ipad' }))).toMatchObject({ code: 'VIDEO_CONCAT_VALIDATION', parameter: 'preset' });
    expect(validateInstructions(step({ ffmpeg: { vf: 'x' } }))).toMatchObject({ code: 'VIDEO_CONCAT_VALIDATION', parameter: 'ffmpeg' });
    expect(validateInstructions(step({ transition: 'wipe' }))).toMatchObject({ code: 'VIDEO_CONCAT_VALIDATION', parameter: 'transition' });
    expect(validateInstructions(step({ video_fade_seconds: 0.5, audio_fade_seconds: 0, sort_by: 'import_order' }))).toBeNull();
  });
});

describe('/audio/concat', () => {
  it('joins audio end to end (mp3 by default), or crossfaded', async () => {
    const plain = await run({ j: { robot: '/audio/concat', use: ':original' } }, [toneLong, toneShort]);
    expect(plain.outcome).toEqual({ ok: true });
    // Sorted by name: long.wav, then short.wav.
    expect(plain.files[0]).toMatchObject({ name: 'long.mp3', mime: 'audio/mpeg' });
    expect(plain.files[0]!.meta.duration as number).toBeCloseTo(4, 0);
    const faded = await run({ j: { robot: '/audio/concat', use: ':original', crossfade: true, audio_fade_seconds: 0.5, preset: 'wav' } }, [toneLong, toneShort]);
    expect(faded.files[0]).toMatchObject({ ext: 'wav' });
    expect(faded.files[0]!.meta.duration as number).toBeCloseTo(3.5, 1);
  });
});

describe('/video/merge', () => {
  it('makes a video of an image lasting as long as the audio, at the image\'s size', async () => {
    const still = await imageUpload(dir, 'still.png', { width: 200, height: 100 });
    const { outcome, files } = await run({ m: { robot: '/video/merge', use: { steps: [{ name: ':original', as: 'image' }, { name: ':original', as: 'audio' }], bundle_steps: true } } }, [still, toneLong]);
    expect(outcome).toEqual({ ok: true });
    expect(files[0]).toMatchObject({ mime: 'video/mp4', meta: { width: 200, height: 100, num_audio_streams: 1 } });
    expect(files[0]!.meta.duration as number).toBeCloseTo(3, 0);
  });

  it('gives a video a new sound track, and holds its last frame while a longer audio plays', async () => {
    const { outcome, files } = await run({ m: { robot: '/video/merge', use: ':original', replace_audio: true, audio_delay: 1 } }, [b, toneLong]);
    expect(outcome).toEqual({ ok: true });
    expect(files[0]).toMatchObject({ name: 'b.mp4', meta: { width: 160, height: 120, num_audio_streams: 1 } });
    expect(files[0]!.meta.duration as number).toBeCloseTo(4, 0);
  });

  it('takes the sound of a video named both as video and as audio (one file, two parts)', async () => {
    const { outcome, files } = await run({ m: { robot: '/video/merge', use: [{ name: ':original', as: 'video' }, { name: ':original', as: 'audio' }], replace_audio: true } }, [b]);
    expect(outcome).toEqual({ ok: true });
    expect(files[0]).toMatchObject({ name: 'b.mp4', meta: { num_video_streams: 1, num_audio_streams: 1 } });
    expect(files[0]!.meta.duration as number).toBeCloseTo(2, 0);
  });

  it('fails when there is nothing to add a sound to', async () => {
    const { outcome } = await run({ m: { robot: '/video/merge', use: ':original' } }, [toneLong]);
    expect(outcome).toMatchObject({ ok: false, code: 'INVALID_INPUT_ERROR' });
    expect(validateInstructions({ m: { robot: '/video/merge', use: ':original', vstack: true } })).toMatchObject({ code: 'VIDEO_MERGE_VALIDATION', parameter: 'vstack' });
  });
});

describe('/audio/merge', () => {
  it('mixes audio to the longest, the shortest or the first file', async () => {
    const longest = await run({ m: { robot: '/audio/merge', use: ':original' } }, [toneShort, toneLong]);
    expect(longest.outcome).toEqual({ ok: true });
    expect(longest.files[0]).toMatchObject({ name: 'short.mp3' });
    expect(longest.files[0]!.meta.duration as number).toBeCloseTo(3, 0);
    const shortest = await run({ m: { robot: '/audio/merge', use: ':original', duration: 'shortest', volume: 'sum', preset: 'flac' } }, [toneLong, toneShort]);
    expect(shortest.files[0]).toMatchObject({ ext: 'flac' });
    expect(shortest.files[0]!.meta.duration as number).toBeCloseTo(1, 0);
    expect(validateInstructions({ m: { robot: '/audio/merge', use: ':original', duration: 'middle' } })).toMatchObject({ code: 'AUDIO_MERGE_VALIDATION', parameter: 'duration' });
  });
});

describe('/image/merge', () => {
  it('puts images side by side with a gap, or in a grid of fitted cells, as png, jpg or webp', async () => {
    const red = await imageUpload(dir, 'red.png', { width: 40, height: 30, color: { r: 255, g: 0, b: 0 } });
    const blue = await imageUpload(dir, 'blue.png', { width: 20, height: 50, color: { r: 0, g: 0, b: 255 } });
    const row = await run({ m: { robot: '/image/merge', use: ':original', border: 5 } }, [blue, red]);
    expect(row.outcome).toEqual({ ok: true });
    // By name: blue first.
    expect(row.files[0]).toMatchObject({ name: 'blue.png', mime: 'image/png', meta: { width: 65, height: 50, merged_files: 2 } });
    const { data } = await sharp(row.files[0]!.localPath).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([0, 0, 255]);
    const grid = await run({ m: { robot: '/image/merge', use: ':original', direction: 'grid', columns: 1, cell_width: 10, cell_height: 10, format: 'jpg' } }, [red, blue]);
    expect(grid.files[0]).toMatchObject({ mime: 'image/jpeg', meta: { width: 10, height: 20 } });
    expect(validateInstructions({ m: { robot: '/image/merge', use: ':original', effect: 'mosaic' } })).toMatchObject({ code: 'IMAGE_MERGE_VALIDATION', parameter: 'effect' });
  });

  it('puts one image named twice (image_1 and image_2 both :original) in twice', async () => {
    const red = await imageUpload(dir, 'once.png', { width: 40, height: 30, color: { r: 255, g: 0, b: 0 } });
    const { outcome, files } = await run({ m: { robot: '/image/merge', use: [{ name: ':original', as: 'image_1' }, { name: ':original', as: 'image_2' }], border: 4 } }, [red]);
    expect(outcome).toEqual({ ok: true });
    expect(files[0]).toMatchObject({ meta: { width: 84, height: 30, merged_files: 2 } });
  });
});

describe('/video/split and /audio/split', () => {
  it('cuts one file per segment, from seconds or timecodes', async () => {
    const { outcome, files } = await run({ s: { robot: '/video/split', use: ':original', segments: [{ from: 0, to: 1 }, { from: '00:00:01.500', to: '00:00:03' }] } }, [a]);
    expect(outcome).toEqual({ ok: true });
    expect(files.map((f) => f.name)).toEqual(['a_1.mp4', 'a_2.mp4']);
    expect(files.map((f) => Math.round((f.meta.duration as number) * 2) / 2)).toEqual([1, 1.5]);
    expect(files[1]!.meta).toMatchObject({ segment_index: 1, segment_from: 1.5, segment_to: 3, width: 320 });
    const audio = await run({ s: { robot: '/audio/split', use: ':original', segments: [{ from: 1, to: 2 }], preset: 'wav' } }, [toneLong]);
    expect(audio.files[0]).toMatchObject({ name: 'long_1.wav' });
    expect(audio.files[0]!.meta.duration as number).toBeCloseTo(1, 1);
  });

  it('refuses missing or backwards segments before running, and a segment past the end when it runs', async () => {
    expect(validateInstructions({ s: { robot: '/video/split', use: ':original' } })).toMatchObject({ code: 'VIDEO_SPLIT_VALIDATION', parameter: 'segments' });
    expect(validateInstructions({ s: { robot: '/audio/split', use: ':original', segments: [{ from: 5, to: 2 }] } })).toMatchObject({ code: 'AUDIO_SPLIT_VALIDATION', parameter: 'segments' });
    expect(validateInstructions({ s: { robot: '/audio/split', use: ':original', segments: [{ from: '1:zz', to: 2 }] } })).toMatchObject({ code: 'AUDIO_SPLIT_VALIDATION' });
    const { outcome } = await run({ s: { robot: '/audio/split', use: ':original', segments: [{ from: 30, to: 40 }] } }, [toneShort]);
    expect(outcome).toMatchObject({ ok: false, code: 'AUDIO_SPLIT_VALIDATION' });
  });
});

describe('/video/adaptive', () => {
  it('writes HLS renditions with a master playlist that a player reads, every file with its relative_path', async () => {
    const { outcome, files } = await run({ hls: { robot: '/video/adaptive', use: { steps: [':original'], bundle_steps: true }, technique: 'hls', segment_duration: 1 } }, [a, b]);
    expect(outcome).toEqual({ ok: true });
    const master = files.find((f) => f.name === 'playlist.m3u8')!;
    // The folder beside the playlist, as the vendor and /file/decompress give it: '' at the top.
    expect(master.meta.relative_path).toBe('');
    expect(await readFile(master.localPath, 'utf8')).toMatch(/#EXT-X-STREAM-INF:.*RESOLUTION=320x240[\s\S]*RESOLUTION=160x120/);
    const segments = files.filter((f) => f.ext === 'ts');
    expect(segments.length).toBeGreaterThanOrEqual(5);
    expect(segments.every((f) => /^stream_[01]$/.test(String(f.meta.relative_path)) && /^segment_\d{5}\.ts$/.test(f.name))).toBe(true);
    const played = await probe(master.localPath);
    expect(played.streams.filter((s) => s.codec_type === 'video').map((s) => s.width).sort()).toEqual([160, 320]);
    expect(played.duration).toBeCloseTo(3, 0);
  });

  it('writes a DASH manifest (the default) and CMAF with both manifests', async () => {
    const dash = await run({ d: { robot: '/video/adaptive', use: ':original', segment_duration: 1 } }, [a]);
    expect(dash.outcome).toEqual({ ok: true });
    const mpd = dash.files.find((f) => f.name === 'playlist.mpd')!;
    expect(dash.files[0]).toBe(mpd);
    expect(dash.files.some((f) => f.name.startsWith('init-'))).toBe(true);
    const played = await probe(mpd.localPath);
    expect(played.streams.map((s) => s.codec_type).sort()).toEqual(['audio', 'video']);
    expect(played.duration).toBeCloseTo(3, 0);
    const cmaf = await run({ c: { robot: '/video/adaptive', use: ':original', technique: 'cmaf', playlist_name: 'stream.mpd', hls_playlist_name: 'master.m3u8', segment_duration: 1 } }, [b]);
    expect(cmaf.files.map((f) => f.name)).toEqual(expect.arrayContaining(['stream.mpd', 'master.m3u8']));
    expect((await probe(cmaf.files.find((f) => f.name === 'master.m3u8')!.localPath)).duration).toBeCloseTo(2, 0);
  });

  it('refuses a playlist name that is a path, and an audio group', () => {
    expect(validateInstructions({ d: { robot: '/video/adaptive', use: ':original', playlist_name: '../x.mpd' } })).toMatchObject({ code: 'VIDEO_ADAPTIVE_VALIDATION', parameter: 'playlist_name' });
    expect(validateInstructions({ d: { robot: '/video/adaptive', use: ':original', technique: 'hls', audio_group: true } })).toMatchObject({ code: 'VIDEO_ADAPTIVE_VALIDATION', parameter: 'audio_group' });
  });
});

describe('/text/speak', () => {
  it('speaks a prompt without any input, and each text file it is given, as MP3', async () => {
    expect(validateInstructions({ say: { robot: '/text/speak', prompt: 'Hello there' } })).toBeNull();
    const spoken = await run({ say: { robot: '/text/speak', prompt: 'Hello there, this is the local service.', voice: 'male-1' } }, []);
    expect(spoken.outcome).toEqual({ ok: true });
    expect(spoken.files[0]).toMatchObject({ name: 'speech.mp3', mime: 'audio/mpeg', meta: { voice: 'male-1', target_language: 'en-US' } });
    expect(spoken.files[0]!.original_id).toBe(spoken.files[0]!.id);
    expect(spoken.files[0]!.meta.duration as number).toBeGreaterThan(1);
    const note = await textUpload(dir, 'note.txt', 'Guten Tag. Wie geht es Ihnen?');
    const read = await run({ say: { robot: '/text/speak', use: ':original', target_language: 'de-DE' } }, [note]);
    expect(read.outcome).toEqual({ ok: true });
    expect(read.files[0]).toMatchObject({ name: 'note.mp3', original_id: note.id });
  });

  it('needs a prompt or an input, and a language espeak-ng speaks', () => {
    expect(validateInstructions({ say: { robot: '/text/speak' } })).toMatchObject({ code: 'ASSEMBLY_STEP_INVALID_USE' });
    expect(validateInstructions({ say: { robot: '/text/speak', prompt: 'x', target_language: 'tlh-XX' } })).toMatchObject({ code: 'TEXT_SPEAK_VALIDATION', parameter: 'target_language' });
    expect(validateInstructions({ say: { robot: '/text/speak', prompt: 'x', voice: 'robot-1' } })).toMatchObject({ code: 'TEXT_SPEAK_VALIDATION', parameter: 'voice' });
  });

  it('is refused with TEXT_SPEAK_TOOL_MISSING where espeak-ng is not installed', async () => {
    await withoutTools(() => {
      expect(validateInstructions({ say: { robot: '/text/speak', prompt: 'x' } })).toMatchObject({ code: 'TEXT_SPEAK_TOOL_MISSING', message: expect.stringContaining('apt install espeak-ng') });
      expect(validateInstructions({ c: { robot: '/video/concat', use: ':original' } })).toMatchObject({ code: 'VIDEO_CONCAT_TOOL_MISSING' });
    });
    expect(validateInstructions({ say: { robot: '/text/speak', prompt: 'x' } })).toBeNull();
  });
});
