// /file/decompress, /file/verify, /file/preview and /meta/write on real files. The promises attacked:
// every file of an archive comes out once, with its bytes, its name and its folder, whatever the names;
// nothing of a hostile archive (../, absolute paths, links out, bombs) is written anywhere; a file passes
// /file/verify only when its bytes are what was asked; a preview exists for any file.

import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateRobotParams } from '../instructions/robot-params';
import { readTags } from './exiftool';
import { executeSteps, type ExecuteContext } from './execute-steps';
import { entryPath, linkStaysInside, MAX_ENTRIES, maxOutputBytes, sniffFormat } from './file-decompress';
import { iconSvg, previewCategory, strategiesFor } from './file-preview';
import { describeUpload, type StoredFile } from './file-record';
import { typeMatches } from './file-verify';
import { makeTar, makeZip, type ArchiveEntry } from './test-archives';
import { makeTempDir, writeAudio, writePdf, writeVideo } from './test-files';

let dir: string;
let cleanup: () => Promise<void>;
let n = 0;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('file-robots-'));
});
afterAll(() => cleanup());

async function upload(name: string, bytes: Buffer | string): Promise<StoredFile> {
  const sub = join(dir, `u${n++}`);
  await import('node:fs/promises').then((fs) => fs.mkdir(sub));
  await writeFile(join(sub, name), bytes);
  return describeUpload({ localPath: join(sub, name), name, field: 'file' });
}

async function run(steps: ExecuteContext['steps'], uploads: StoredFile[]) {
  const results: StoredFile[] = [];
  const warnings: string[] = [];
  const workDir = join(dir, `w${n++}`);
  const outcome = await executeSteps({
    assemblyId: '2'.repeat(32), steps, uploads, fields: {}, signal: new AbortController().signal, workDir,
    onResult: (_s, f) => results.push(f),
    onWarning: (_s, message) => warnings.push(message),
  });
  return { outcome, results, warnings, workDir };
}

/** Every file under a folder, relative. */
async function filesUnder(root: string): Promise<string[]> {
  if (!existsSync(root)) return [];
  return (await readdir(root, { recursive: true, withFileTypes: true })).filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name).slice(root.length + 1));
}

const unpack = { ':original': { robot: '/upload/handle' }, unpacked: { robot: '/file/decompress', use: ':original' } };

describe('/file/decompress: the pure rules', () => {
  it('reads entry names as folders inside the archive, refusing ones that leave it', () => {
    expect(entryPath('a/./b\\c.txt')).toBe('a/b/c.txt');
    expect(entryPath('a/../b.txt')).toBe('b.txt');
    expect(entryPath('../evil.txt')).toEqual({ refused: '"../evil.txt" would be written outside the archive\'s folder' });
    expect(entryPath('a/../../evil.txt')).toMatchObject({ refused: expect.any(String) });
    expect(entryPath('/etc/passwd')).toMatchObject({ refused: '"/etc/passwd" is an absolute path' });
    expect(entryPath('C:\\Windows\\evil.dll')).toMatchObject({ refused: expect.stringContaining('absolute') });
    expect(linkStaysInside('a/link', '../b.txt')).toBe(true);
    expect(linkStaysInside('a/link', '../../etc/passwd')).toBe(false);
    expect(linkStaysInside('link', '/etc/passwd')).toBe(false);
  });

  it('knows archives by their bytes, and names the formats it leaves to the hosted service', () => {
    expect(sniffFormat(makeZip([{ name: 'a', data: 'a' }]))).toBe('zip');
    expect(sniffFormat(makeTar([{ name: 'a', data: 'a' }]))).toBe('tar');
    expect(sniffFormat(Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4]))).toEqual({ unsupported: '7-Zip' });
    expect(sniffFormat(Buffer.from('just text'))).toBeNull();
    // A bomb's budget grows with the archive, within bounds.
    expect(maxOutputBytes(0)).toBe(1024 ** 3);
    expect(maxOutputBytes(1024 ** 3)).toBe(10 * 1024 ** 3);
  });
});

describe('/file/decompress on real archives', () => {
  it('every file of a zip, a tar, a tar.gz comes out once with its bytes, name and folder, whatever the names', async () => {
    // Names an OS allows in a path segment, the awkward ones on purpose.
    const segment = fc
      .stringMatching(/^[\p{L}\p{N} ()'!*#%&+,;=@[\]{}~^$.\-_ü€😀]{1,24}$/u)
      .filter((s) => s !== '.' && s !== '..' && s.trim() === s && !s.endsWith('.'));
    const entry = fc.record({ folder: fc.array(segment, { maxLength: 2 }), name: segment, data: fc.uint8Array({ maxLength: 3000 }) });
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(entry, { minLength: 1, maxLength: 6, selector: (e) => [...e.folder, e.name].join('/').normalize('NFC').toLowerCase() }), fc.constantFrom('zip', 'tar', 'tar.gz'), async (files, kind) => {
        // A folder name must not also be a file name.
        const paths = files.map((f) => [...f.folder, f.name].join('/'));
        fc.pre(!paths.some((p) => paths.some((q) => q.startsWith(`${p}/`))));
        const entries: ArchiveEntry[] = files.map((f, i) => ({ name: paths[i]!, data: Buffer.from(f.data) }));
        const bytes = kind === 'zip' ? makeZip(entries) : kind === 'tar' ? makeTar(entries) : gzipSync(makeTar(entries));
        const { outcome, results } = await run(unpack, [await upload(`archive.${kind}`, bytes)]);
        expect(outcome).toEqual({ ok: true });
        const got = results.map((r) => ({ path: r.meta.relative_path ? `${String(r.meta.relative_path)}/${r.name}` : r.name, local: r.localPath }));
        expect(got.map((g) => g.path).sort()).toEqual([...paths].sort());
        for (const [i, p] of paths.entries()) {
          const out = got.find((g) => g.path === p)!;
          expect(Buffer.compare(await readFile(out.local), Buffer.from(files[i]!.data)), p).toBe(0);
        }
      }),
      { numRuns: 25 },
    );
  });

  it('a gzip file comes out as the file it packs, and a text file is passed over, not failed', async () => {
    const { outcome, results } = await run(unpack, [await upload('notes.txt.gz', gzipSync('the notes'))]);
    expect(outcome).toEqual({ ok: true });
    expect(results.map((r) => r.name)).toEqual(['notes.txt']);
    expect(await readFile(results[0]!.localPath, 'utf8')).toBe('the notes');
    const text = await run(unpack, [await upload('plain.txt', 'not an archive'), await upload('ok.zip', makeZip([{ name: 'in.txt', data: 'in' }]))]);
    expect(text.outcome).toEqual({ ok: true });
    expect(text.results.map((r) => r.name)).toEqual(['in.txt']);
    expect(text.warnings.join()).toContain('Not an archive');
  });

  const hostile: [string, string, Buffer][] = [
    ['a zip entry climbing out with ../', 'slip.zip', makeZip([{ name: 'fine.txt', data: 'ok' }, { name: '../../escaped.txt', data: 'pwned' }])],
    ['a zip entry with an absolute path', 'abs.zip', makeZip([{ name: '/tmp/escaped.txt', data: 'pwned' }])],
    ['a zip link pointing outside, then a file written through it', 'link.zip', makeZip([{ name: 'out', link: '../../..' }, { name: 'out/escaped.txt', data: 'pwned' }])],
    ['a tar entry climbing out with ../', 'slip.tar', makeTar([{ name: 'fine.txt', data: 'ok' }, { name: 'a/../../escaped.txt', data: 'pwned' }])],
    ['a tar link to an absolute path', 'link.tar', makeTar([{ name: 'passwd', link: '/etc/passwd' }])],
    ['a tar.gz link climbing out', 'link.tar.gz', gzipSync(makeTar([{ name: 'dir/up', link: '../../../../root' }, { name: 'x.txt', data: 'x' }]))],
  ];
  it.each(hostile)('refuses %s: the step fails with FILE_DECOMPRESS_INVALID_INPUT and nothing is written anywhere', async (_what, name, bytes) => {
    const before = await filesUnder(dir);
    const { outcome, results, workDir } = await run(unpack, [await upload(name, bytes)]);
    expect(outcome).toMatchObject({ ok: false, code: 'FILE_DECOMPRESS_INVALID_INPUT', step: 'unpacked' });
    expect((outcome as { message: string }).message).toMatch(/outside the archive's folder|absolute path/);
    expect(results).toEqual([]);
    // Not in the step's folder, not beside it, not anywhere in the test's tree: only the upload is new.
    const after = (await filesUnder(dir)).filter((f) => !before.includes(f));
    expect(after).toEqual([expect.stringContaining(name)]);
    expect(await filesUnder(workDir)).toEqual([]);
  });

  it('refuses an archive of more entries than it unpacks, an encrypted entry without and with a password, and names 7-Zip', async () => {
    const many = makeZip(Array.from({ length: MAX_ENTRIES + 1 }, (_, i) => ({ name: `f${i}`, data: '' })));
    const bomb = await run(unpack, [await upload('many.zip', many)]);
    expect(bomb.outcome).toMatchObject({ ok: false, code: 'FILE_DECOMPRESS_INVALID_INPUT' });
    expect((bomb.outcome as { message: string }).message).toContain(`more than ${MAX_ENTRIES} files`);
    expect(await filesUnder(bomb.workDir)).toEqual([]);
    const locked = makeZip([{ name: 'secret.txt', data: 'x', encrypted: true }]);
    expect((await run(unpack, [await upload('locked.zip', locked)])).outcome).toMatchObject({ ok: false, code: 'FILE_DECOMPRESS_PASSWORD_REQUIRED' });
    const withPassword = { ...unpack, unpacked: { ...unpack.unpacked, password: 'pw' } };
    expect((await run(withPassword, [await upload('locked.zip', locked)])).outcome).toMatchObject({ ok: false, code: 'FILE_DECOMPRESS_VALIDATION' });
    const seven = await run(unpack, [await upload('x.7z', Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4, 1, 2, 3]))]);
    expect(seven.outcome).toMatchObject({ ok: false, code: 'FILE_DECOMPRESS_INVALID_INPUT' });
    expect((seven.outcome as { message: string }).message).toContain('7-Zip archive');
  });
});

describe('/file/verify', () => {
  it('matches kinds, subtypes and media types against the sniffed type', () => {
    const png = { mime: 'image/png', type: 'image' };
    expect(['image', 'png', 'image/png', 'image/*'].map((w) => typeMatches(w, png))).toEqual([true, true, true, true]);
    expect(['video', 'jpg', 'pdf', '', 'image/jpeg'].map((w) => typeMatches(w, png))).toEqual([false, false, false, false, false]);
    expect(typeMatches('jpg', { mime: 'image/jpeg', type: 'image' })).toBe(true);
  });

  it('passes a real PDF and image, drops a renamed or truncated one with a notice, and fails the Assembly with error_on_decline', async () => {
    const pdf = await describeUpload({ localPath: await writePdf(join(dir, 'real.pdf'), 2), name: 'real.pdf', field: 'file' });
    const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#c00' } }).png().toBuffer();
    const real = await upload('photo.png', png);
    const truncated = await upload('broken.png', png.subarray(0, Math.floor(png.length / 2)));
    const renamed = await upload('fake.pdf', 'this is text, named .pdf');
    const asPdf = await run({ ':original': { robot: '/upload/handle' }, v: { robot: '/file/verify', use: ':original', verify_to_be: 'pdf' } }, [pdf, renamed]);
    expect(asPdf.outcome).toEqual({ ok: true });
    expect(asPdf.results.map((r) => r.name)).toEqual(['real.pdf']);
    expect(asPdf.warnings.join()).toContain('Not a valid pdf');
    const asImage = await run({ ':original': { robot: '/upload/handle' }, v: { robot: '/file/verify', use: ':original', verify_to_be: 'image' } }, [real, truncated]);
    expect(asImage.results.map((r) => r.name)).toEqual(['photo.png']);
    expect(asImage.warnings.join()).toContain('does not read as one');
    const strict = await run({ ':original': { robot: '/upload/handle' }, v: { robot: '/file/verify', use: ':original', verify_to_be: 'image', error_on_decline: true, error_msg: 'Photos only, please' } }, [real, renamed]);
    expect(strict.outcome).toMatchObject({ ok: false, code: 'FILE_VERIFY_INVALID_FILE', message: 'Photos only, please', step: 'v' });
  });
});

describe('/meta/write', () => {
  it('writes the tags into a copy, which its record and ExifTool read back; the upload is untouched', async () => {
    const jpeg = await upload('shot.jpg', await sharp({ create: { width: 30, height: 20, channels: 3, background: '#08f' } }).jpeg().toBuffer());
    const { outcome, results } = await run({ ':original': { robot: '/upload/handle' }, w: { robot: '/meta/write', use: ':original', data_to_write: { Copyright: '© Ada 2026', Artist: 'Ada "A" O’Brien' } } }, [jpeg]);
    expect(outcome).toEqual({ ok: true });
    const tags = await readTags(results[0]!.localPath);
    expect(tags).toMatchObject({ Copyright: '© Ada 2026', Artist: 'Ada "A" O’Brien' });
    expect((await readTags(jpeg.localPath))?.Copyright).toBeUndefined();
    expect(results[0]!.md5hash).not.toBe(jpeg.md5hash);
  });

  it('a tag ExifTool does not know fails with META_WRITE_VALIDATION naming it; a missing data_to_write is refused at creation', async () => {
    const jpeg = await upload('shot.jpg', await sharp({ create: { width: 30, height: 20, channels: 3, background: '#08f' } }).jpeg().toBuffer());
    const { outcome } = await run({ ':original': { robot: '/upload/handle' }, w: { robot: '/meta/write', use: ':original', data_to_write: { NoSuchTagAnywhere: 'x' } } }, [jpeg]);
    expect(outcome).toMatchObject({ ok: false, code: 'META_WRITE_VALIDATION' });
    expect((outcome as { message: string }).message).toContain('NoSuchTagAnywhere');
    expect(validateRobotParams('w', '/meta/write', {})).toMatchObject({ code: 'META_WRITE_VALIDATION', message: expect.stringContaining('data_to_write is required') });
    expect(validateRobotParams('w', '/meta/write', { data_to_write: 'Copyright=me' })).toMatchObject({ code: 'META_WRITE_VALIDATION', parameter: 'data_to_write' });
  });
});

describe('/file/preview', () => {
  it('knows each file category and the vendor’s strategies for it', () => {
    expect(['image/png', 'video/mp4', 'audio/x-wav', 'application/pdf', 'application/zip', 'text/html', 'application/octet-stream'].map(previewCategory)).toEqual(['image', 'video', 'audio', 'document', 'archive', 'webpage', 'unknown']);
    expect(strategiesFor('audio', undefined)).toEqual(['artwork', 'waveform', 'icon']);
    expect(strategiesFor('video', { video: ['clip', 'icon'] })).toEqual(['clip', 'icon']);
    // The extension is text in the SVG, never markup.
    expect(iconSvg({ width: 300, height: 200, category: 'unknown', text: '<SCRIPT>', textColor: '#a2a2a2', font: 'x"/><a' })).not.toMatch(/<SCRIPT>|x"\/><a/);
  });

  it('draws a 300 × 200 preview of an image, a video frame, a waveform, a PDF page and an icon for anything else', async () => {
    const files = [
      await upload('photo.jpg', await sharp({ create: { width: 900, height: 300, channels: 3, background: '#f00' } }).jpeg().toBuffer()),
      await describeUpload({ localPath: await writeVideo(join(dir, 'clip.mp4'), 2), name: 'clip.mp4', field: 'file' }),
      await describeUpload({ localPath: await writeAudio(join(dir, 'tone.wav'), 1), name: 'tone.wav', field: 'file' }),
      await describeUpload({ localPath: await writePdf(join(dir, 'doc.pdf'), 1), name: 'doc.pdf', field: 'file' }),
      await upload('data.bin', Buffer.from([1, 2, 3, 4, 5])),
    ];
    const { outcome, results } = await run({ ':original': { robot: '/upload/handle' }, p: { robot: '/file/preview', use: ':original' } }, files);
    expect(outcome).toEqual({ ok: true });
    const by = Object.fromEntries(results.map((r) => [r.original_name, r]));
    expect(Object.fromEntries(Object.entries(by).map(([k, r]) => [k, r.meta.preview_strategy]))).toEqual({ 'photo.jpg': 'image', 'clip.mp4': 'frame', 'tone.wav': 'waveform', 'doc.pdf': 'page', 'data.bin': 'icon' });
    for (const r of results) expect(r, r.original_name).toMatchObject({ mime: 'image/png', ext: 'png', meta: { width: 300, height: 200 } });
    // Padded on white: the red photo sits in a white band, top and bottom.
    const { data } = await sharp(by['photo.jpg']!.localPath).raw().toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([255, 255, 255]);
  });

  it('makes a looping webp clip, a jpg, and fails with FILE_PREVIEW_ERROR when no strategy draws', async () => {
    const video = await describeUpload({ localPath: await writeVideo(join(dir, 'clip2.mp4'), 3), name: 'clip2.mp4', field: 'file' });
    const clip = await run({ ':original': { robot: '/upload/handle' }, p: { robot: '/file/preview', use: ':original', strategy: { video: ['clip', 'icon'] }, clip_duration: 2, clip_offset: 0, width: 160, height: 120 } }, [video]);
    expect(clip.outcome).toEqual({ ok: true });
    expect(clip.results[0]).toMatchObject({ ext: 'webp', mime: 'image/webp', meta: { preview_strategy: 'clip' } });
    expect((await sharp(clip.results[0]!.localPath, { animated: true }).metadata()).pages).toBeGreaterThan(1);
    const jpg = await run({ ':original': { robot: '/upload/handle' }, p: { robot: '/file/preview', use: ':original', format: 'jpg', width: 64, height: 64 } }, [video]);
    expect(jpg.results[0]).toMatchObject({ ext: 'jpg', mime: 'image/jpeg', meta: { width: 64, height: 64 } });
    const tone = await describeUpload({ localPath: await writeAudio(join(dir, 'tone2.wav'), 1), name: 'tone2.wav', field: 'file' });
    const none = await run({ ':original': { robot: '/upload/handle' }, p: { robot: '/file/preview', use: ':original', strategy: { audio: ['artwork'] } } }, [tone]);
    expect(none.outcome).toMatchObject({ ok: false, code: 'FILE_PREVIEW_ERROR', step: 'p' });
    expect(validateRobotParams('p', '/file/preview', { strategy: { audio: ['frame'] } })).toMatchObject({ code: 'FILE_PREVIEW_VALIDATION', parameter: 'strategy' });
  });
});

describe('the vendor Node SDK drives the file robots on the local service', () => {
  it('unpacks a zip, verifies and previews its files, and writes tags, through @transloadit/node', async () => {
    const { startFixture } = await import('../testing/service-fixture');
    const fx = await startFixture();
    try {
      const { Transloadit } = await import('@transloadit/node');
      const client = new Transloadit({ authKey: fx.service.authKey, authSecret: fx.service.authSecret, endpoint: fx.service.url });
      const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#0a0' } }).png().toBuffer();
      const zipPath = join(dir, 'sdk.zip');
      await writeFile(zipPath, makeZip([{ name: 'photos/green (1).png', data: png }, { name: 'notes/readme.txt', data: 'hello' }]));
      const result = await client.createAssembly({
        files: { archive: zipPath },
        params: {
          steps: {
            ':original': { robot: '/upload/handle' },
            // Steps others use are in the results only when asked (the vendor's rule).
            unpacked: { robot: '/file/decompress', use: ':original', result: true },
            images: { robot: '/file/verify', use: 'unpacked', verify_to_be: 'image', result: true },
            tagged: { robot: '/meta/write', use: 'images', data_to_write: { Copyright: 'SDK test' } },
            previews: { robot: '/file/preview', use: 'unpacked', width: 120, height: 80 },
          },
        } as never,
        waitForCompletion: true,
      });
      expect(result.ok, JSON.stringify(result.message)).toBe('ASSEMBLY_COMPLETED');
      const names = (step: string) => (result.results?.[step] ?? []).map((r) => r.name).sort();
      expect(names('unpacked')).toEqual(['green (1).png', 'readme.txt']);
      expect((result.results?.unpacked ?? []).map((r) => r.meta?.relative_path).sort()).toEqual(['notes', 'photos']);
      expect(names('images')).toEqual(['green (1).png']);
      expect(names('tagged')).toEqual(['green (1).png']);
      expect(names('previews')).toEqual(['green (1).png', 'readme.png']);
      expect((result.results?.previews ?? []).map((r) => [r.meta?.width, r.meta?.height])).toEqual([[120, 80], [120, 80]]);
    } finally {
      await fx.stop();
    }
  });
});
