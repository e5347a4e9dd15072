import { stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endExifTool } from './exiftool';
import { detectMime, extractMeta, fileTypeOf, meanVolumeOf, sniffMime } from './extract-meta';
import { describeUpload, splitName, toPublicFile } from './file-record';
import { makeTempDir, writeAudio, writeImage, writePdf, writeVideo } from './test-files';

let dir: string;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('meta-'));
});
afterAll(async () => {
  await endExifTool();
  await cleanup();
});

const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

describe('detectMime', () => {
  it('sniffs real images regardless of a misleading name', async () => {
    for (const [format, mime] of [['png', 'image/png'], ['jpeg', 'image/jpeg'], ['webp', 'image/webp'], ['gif', 'image/gif'], ['tiff', 'image/tiff']] as const) {
      const path = await writeImage(join(dir, `img-${format}.bin`), { width: 8, height: 8, format });
      expect(await detectMime(path, 'misnamed.txt')).toBe(mime);
    }
    const avif = join(dir, 'a.bin');
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).avif().toFile(avif);
    expect(await detectMime(avif, 'x')).toBe('image/avif');
  });
  it('sniffs signatures of other common types', () => {
    expect(sniffMime(bytes('%PDF-1.7'))).toBe('application/pdf');
    expect(sniffMime(bytes([0, 0, 0, 0x18], 'ftypmp42'))).toBe('video/mp4');
    expect(sniffMime(bytes([0, 0, 0, 0x14], 'ftypqt  '))).toBe('video/quicktime');
    expect(sniffMime(bytes([0, 0, 0, 0x18], 'ftypheic'))).toBe('image/heic');
    expect(sniffMime(bytes('ID3', [4, 0]))).toBe('audio/mpeg');
    expect(sniffMime(bytes([0xff, 0xfb, 0x90]), 'song.mp3')).toBe('audio/mpeg');
    expect(sniffMime(bytes('RIFF', [0, 0, 0, 0], 'WAVEfmt '))).toBe('audio/wav');
    expect(sniffMime(bytes('OggS', [0]))).toBe('audio/ogg');
    expect(sniffMime(bytes('fLaC'))).toBe('audio/flac');
    expect(sniffMime(bytes([0x50, 0x4b, 3, 4]))).toBe('application/zip');
    expect(sniffMime(bytes([0x50, 0x4b, 3, 4]), 'report.docx')).toBe('application/vnd.openxmlformats-officedocument.wordprocessingml.document');
    expect(sniffMime(bytes([0x1a, 0x45, 0xdf, 0xa3]))).toBe('video/webm');
    expect(sniffMime(bytes('hello'))).toBeNull();
    const ts = Buffer.alloc(400);
    ts[0] = ts[188] = ts[376] = 0x47;
    expect(sniffMime(ts, 'clip.ts')).toBe('video/mp2t');
    expect(sniffMime(bytes('export const x = 1;'), 'code.ts')).toBeNull();
  });
  it('tells an MP3 without a tag by its frames, not a binary file that happens to start with a frame sync', async () => {
    // A real MP3 stream without ID3 (ffmpeg's frames, no tag, no Xing frame), under any name.
    const mp3 = join(dir, 'untagged.mp3');
    await writeAudio(mp3);
    const { execFileSync } = await import('node:child_process');
    const bare = join(dir, 'bare.bin');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', mp3, '-id3v2_version', '0', '-write_xing', '0', '-b:a', '128k', '-f', 'mp3', bare]);
    expect(await detectMime(bare, 'recording.bin')).toBe('audio/mpeg');
    // One binary file in ~340 starts with the 11 sync bits; before, each was sent to ffprobe and ffmpeg as audio.
    const noise = Buffer.alloc(512, 0x5a);
    noise.set([0xff, 0xfb, 0x90, 0x64]);
    expect(sniffMime(noise, 'chunk-0001.bin')).toBeNull();
    expect(sniffMime(bytes([0xff, 0xff, 0xff, 0xff]), 'f.bin')).toBeNull();
  });
  it('falls back to the extension, then null', async () => {
    const path = join(dir, 'plain');
    await writeFile(path, 'just text');
    expect(await detectMime(path, 'readme.TXT')).toBe('text/plain');
    expect(await detectMime(path, 'data.csv')).toBe('text/csv');
    expect(await detectMime(path, 'mystery')).toBeNull();
    expect(await detectMime(join(dir, 'missing'), 'gone.mp3')).toBe('audio/mpeg');
  });
});

describe('fileTypeOf', () => {
  it('maps mime types to the service types', () => {
    expect(fileTypeOf('image/png')).toBe('image');
    expect(fileTypeOf('video/mp4')).toBe('video');
    expect(fileTypeOf('audio/mpeg')).toBe('audio');
    expect(fileTypeOf('application/pdf')).toBe('document');
    expect(fileTypeOf('text/plain')).toBe('document');
    expect(fileTypeOf('application/vnd.openxmlformats-officedocument.wordprocessingml.document')).toBe('document');
    expect(fileTypeOf('application/zip')).toBe('archive');
    expect(fileTypeOf('application/gzip')).toBe('archive');
    expect(fileTypeOf('application/octet-stream')).toBeNull();
    expect(fileTypeOf(null)).toBeNull();
  });
});

describe('extractMeta', () => {
  it('reads image size, alpha and aspect ratio', async () => {
    const path = await writeImage(join(dir, 'alpha.png'), { width: 300, height: 200, alpha: 0.5 });
    expect(await extractMeta(path, 'image/png')).toMatchObject({ width: 300, height: 200, aspect_ratio: 1.5, has_alpha: true, frame_count: 1 });
  });
  it('reports the displayed size of a rotated (EXIF orientation 6) photo and its recording date', async () => {
    const path = join(dir, 'rotated.jpg');
    await sharp({ create: { width: 400, height: 100, channels: 3, background: '#888' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .withExifMerge({ IFD0: { DateTime: '2024:01:02 03:04:05' } })
      .toFile(path);
    const meta = await extractMeta(path, 'image/jpeg');
    expect(meta).toMatchObject({ width: 100, height: 400, orientation: 6, date_recorded: '2024/01/02 03:04:05' });
  });
  it('reads video metadata with ffprobe', async () => {
    const path = await writeVideo(join(dir, 'clip.mp4'));
    const meta = await extractMeta(path, 'video/mp4');
    expect(meta).toMatchObject({ width: 320, height: 240, framerate: 10, video_codec: 'h264', audio_codec: 'aac', num_video_streams: 1, num_audio_streams: 1 });
    expect(meta.duration as number).toBeGreaterThan(0.9);
    expect(meta.duration as number).toBeLessThan(1.2);
  });
  it('reads audio metadata with ffprobe', async () => {
    const path = await writeAudio(join(dir, 'tone.wav'));
    expect(await extractMeta(path, 'audio/wav')).toMatchObject({ audio_samplerate: 44100, audio_channels: 1, num_video_streams: 0, num_audio_streams: 1, width: null });
  });
  it('counts lines, words, characters and paragraphs of plain text', async () => {
    const path = join(dir, 'story.txt');
    await writeFile(path, 'Once upon a time.\nThe end.\n\nA new paragraph ✓\n');
    expect(await extractMeta(path, 'text/plain')).toEqual({ line_count: 4, word_count: 10, character_count: 46, paragraph_count: 2 });
  });

  it('never throws: unreadable or corrupt files give {}', async () => {
    const broken = join(dir, 'broken.png');
    await writeFile(broken, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]));
    expect(await extractMeta(broken, 'image/png')).toEqual({});
    expect(await extractMeta(join(dir, 'nope.mp4'), 'video/mp4')).toEqual({});
    expect(await extractMeta(broken, 'application/pdf')).not.toHaveProperty('page_count');
  });

  it('reads a photo\'s camera tags, GPS and zoned EXIF date with ExifTool (the date in UTC, marked GMT)', async () => {
    const path = join(dir, 'zoned.jpg');
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } })
      .jpeg()
      .withExif({
        IFD0: { Make: 'Canon', Model: 'EOS R5' },
        IFD2: { DateTimeOriginal: '2024:06:01 12:00:00', OffsetTimeOriginal: '+02:00', ISOSpeedRatings: '200', FNumber: '28/10', ExposureTime: '1/250', FocalLength: '50/1' },
        IFD3: { GPSLatitudeRef: 'S', GPSLatitude: '33/1 52/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '151/1 12/1 0/1' },
      })
      .toFile(path);
    const meta = await extractMeta(path, 'image/jpeg');
    expect(meta).toMatchObject({
      width: 64, height: 48, date_recorded: '2024/06/01 10:00:00 GMT', device_vendor: 'Canon', device_name: 'EOS R5',
      iso: 200, f_number: 2.8, aperture: 2.8, exposure_time: '1/250', focal_length: '50.0 mm', latitude: -33.866667, longitude: 151.2,
    });
    expect(meta.date_file_modified).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} GMT$/);
  });
  it('gives null, not a missing key, for an EXIF date that is not a date', async () => {
    const path = join(dir, 'bad-date.jpg');
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } }).jpeg().withExif({ IFD2: { DateTimeOriginal: 'sometime soon' } }).toFile(path);
    const meta = await extractMeta(path, 'image/jpeg');
    expect(meta).toHaveProperty('date_recorded', null);
  });
  it('reads a PDF\'s page count, producer and author', async () => {
    const path = await writePdf(join(dir, 'three.pdf'), 3, "/Producer(Hand Written)/Author(Ada)/Title(Three pages)/CreationDate(D:20240601120000+02'00')");
    expect(await extractMeta(path, 'application/pdf')).toMatchObject({ page_count: 3, producer: 'Hand Written', author: 'Ada', title: 'Three pages', create_date: '2024/06/01 10:00:00 GMT' });
  });
  it('gives a video its creation_time in UTC and its streams', async () => {
    const path = await writeVideo(join(dir, 'dated.mp4'), 1, ['-metadata', 'creation_time=2024-06-01T10:00:00.000000Z']);
    const meta = await extractMeta(path, 'video/mp4');
    expect(meta).toMatchObject({ creation_time: '2024/06/01 10:00:00 GMT', date_recorded: '2024/06/01 10:00:00 GMT', create_date: '2024/06/01 10:00:00 GMT', pixel_format: 'yuv420p', codecs: 'h264, aac' });
    expect(meta.streams).toMatchObject({ video: [{ codec: 'h264', width: 320, height: 240 }], audio: [{ codec: 'aac', channels: 1 }], subtitle: [] });
  });
  it('measures an audio file\'s mean volume (and not a video\'s)', async () => {
    const loud = await writeAudio(join(dir, 'loud.wav'));
    const meta = await extractMeta(loud, 'audio/wav');
    expect(meta.mean_volume as number).toBeLessThan(0);
    expect(meta.mean_volume as number).toBeGreaterThan(-30);
    expect(meanVolumeOf('[Parsed_volumedetect_0 @ 0x1] mean_volume: -21.3 dB\n')).toBe(-21.3);
    expect(meanVolumeOf('mean_volume: -inf dB')).toBeNull();
  });
});

describe('file records', () => {
  it('describeUpload fills every field from the real file', async () => {
    const path = await writeImage(join(dir, 'holiday.final.PNG'), { width: 64, height: 32 });
    const rec = await describeUpload({ localPath: path, name: 'holiday.final.PNG', field: 'photos', userMeta: { caption: 'sea' } });
    expect(rec).toMatchObject({
      name: 'holiday.final.PNG', basename: 'holiday.final', ext: 'png', mime: 'image/png', type: 'image', field: 'photos',
      original_name: 'holiday.final.PNG', original_basename: 'holiday.final', original_path: '/', user_meta: { caption: 'sea' },
      meta: { width: 64, height: 32 },
    });
    expect(rec.id).toMatch(/^[0-9a-f]{32}$/);
    expect(rec.original_id).toBe(rec.id);
    expect(rec.md5hash).toMatch(/^[0-9a-f]{32}$/);
    expect(rec.original_md5hash).toBe(rec.md5hash);
    expect(rec.size).toBeGreaterThan(0);
    expect(toPublicFile(rec)).not.toHaveProperty('localPath');
  });
  it('splitName handles names without or with odd dots', () => {
    expect(splitName('README')).toEqual({ basename: 'README', ext: '' });
    expect(splitName('.env')).toEqual({ basename: '.env', ext: '' });
    expect(splitName('a.tar.gz')).toEqual({ basename: 'a.tar', ext: 'gz' });
  });
});

describe('an image that embeds no metadata', () => {
  it('gets from one stat the same meta ExifTool gives it', async () => {
    const file = join(dir, 'bare.jpg');
    await sharp({ create: { width: 64, height: 48, channels: 3, background: '#204080' } }).jpeg().toFile(file);
    const viaExifTool = await extractMeta(file, 'image/jpeg');
    expect(viaExifTool.date_file_modified).toMatch(/^\d{4}\/\d{2}\/\d{2} \d{2}:\d{2}:\d{2} GMT$/);
    expect(await extractMeta(file, 'image/jpeg', { embedded: false })).toEqual(viaExifTool);
  });

  it('a file written in the last half millisecond of a second keeps that second, as ExifTool says', async () => {
    const file = join(dir, 'late.jpg');
    await sharp({ create: { width: 8, height: 8, channels: 3, background: '#802040' } }).jpeg().toFile(file);
    // 2025-11-28 14:40:01.9997 UTC: Node's Date rounds it to 14:40:02.
    await utimes(file, 1764340801.9997, 1764340801.9997);
    expect((await stat(file)).mtime.toISOString()).toBe('2025-11-28T14:40:02.000Z');
    const viaExifTool = await extractMeta(file, 'image/jpeg');
    expect(viaExifTool.date_file_modified).toBe('2025/11/28 14:40:01 GMT');
    expect((await extractMeta(file, 'image/jpeg', { embedded: false })).date_file_modified).toBe('2025/11/28 14:40:01 GMT');
  });
});
