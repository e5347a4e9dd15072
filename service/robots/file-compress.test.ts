import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { executeSteps, type ExecuteContext } from './execute-steps';
import { archivePaths, safeArchivePath } from './file-compress';
import type { StoredFile } from './file-record';
import { imageUpload, makeTempDir, textUpload } from './test-files';

const exec = promisify(execFile);

let dir: string;
let cleanup: () => Promise<void>;
let photo: StoredFile;
let logo: StoredFile;
let notes: StoredFile;

beforeAll(async () => {
  ({ dir, cleanup } = await makeTempDir('compress-'));
  photo = await imageUpload(dir, 'photo.png', { width: 300, height: 200 });
  logo = await imageUpload(dir, 'logo.png', { width: 100, height: 100 });
  notes = await textUpload(dir, 'notes.txt', 'hello archive '.repeat(200));
});
afterAll(() => cleanup());

async function run(steps: ExecuteContext['steps'], uploads: StoredFile[] = [photo, logo, notes]) {
  const results: [string, StoredFile][] = [];
  const outcome = await executeSteps({
    assemblyId: '3'.repeat(32), steps, uploads, fields: {}, signal: new AbortController().signal,
    workDir: join(dir, `w-${Math.random().toString(16).slice(2)}`),
    onResult: (s, f) => results.push([s, f]),
  });
  return { outcome, results, archives: results.filter(([s]) => s === 'archive').map(([, f]) => f) };
}

const listTar = async (path: string) => (await exec('tar', ['-tf', path])).stdout.trim().split('\n').sort();
const listZip = async (path: string) => (await exec('unzip', ['-Z1', path])).stdout.trim().split('\n').sort();

describe('/file/compress', () => {
  it('packs all inputs into one tar with bundle_steps, a folder per step (advanced layout)', async () => {
    const { outcome, archives } = await run({ archive: { robot: '/file/compress', use: { steps: [':original'], bundle_steps: true } } });
    expect(outcome).toEqual({ ok: true });
    expect(archives).toHaveLength(1);
    const tar = archives[0]!;
    expect(tar).toMatchObject({ name: 'archive.tar', mime: 'application/x-tar', type: 'archive' });
    const names = await listTar(tar.localPath);
    expect(names).toEqual([`:original/${logo.id.slice(0, 2)}_logo.png`, `:original/${notes.id.slice(0, 2)}_notes.txt`, `:original/${photo.id.slice(0, 2)}_photo.png`].sort());
    // The real tar tool extracts the exact bytes.
    const { stdout } = await exec('tar', ['-xOf', tar.localPath, `:original/${notes.id.slice(0, 2)}_notes.txt`]);
    expect(stdout).toBe('hello archive '.repeat(200));
  });

  it('zip with the simple layout, read back by unzip with matching bytes', async () => {
    const { archives } = await run({ archive: { robot: '/file/compress', use: { steps: [':original'], bundle_steps: true }, format: 'zip', file_layout: 'simple', archive_name: 'bundle' } });
    const zip = archives[0]!;
    expect(zip).toMatchObject({ name: 'bundle.zip', mime: 'application/zip' });
    expect(await listZip(zip.localPath)).toEqual(['logo.png', 'notes.txt', 'photo.png']);
    await exec('unzip', ['-tq', zip.localPath]); // verifies every CRC
    expect((await exec('unzip', ['-p', zip.localPath, 'notes.txt'])).stdout).toBe('hello archive '.repeat(200));
    expect(zip.size).toBeLessThan(photo.size + logo.size + notes.size);
  });

  it('gzip makes a .tar.gz', async () => {
    const { archives } = await run({ archive: { robot: '/file/compress', use: { steps: [':original'], bundle_steps: true }, gzip: true } });
    expect(archives[0]).toMatchObject({ name: 'archive.tar.gz', mime: 'application/gzip', type: 'archive' });
    expect(await listTar(archives[0]!.localPath)).toHaveLength(3);
  });

  it('one archive per file by default (as the vendor makes them), one of everything with bundle_steps, one per upload with group_by_original', async () => {
    const steps = {
      small: { robot: '/image/resize', use: ':original', width: 10 },
      big: { robot: '/image/resize', use: ':original', width: 50 },
    };
    const perFile = await run({ ...steps, archive: { robot: '/file/compress', use: ['small', 'big'], file_layout: 'simple' } }, [photo, logo]);
    expect(perFile.outcome).toEqual({ ok: true });
    expect(await Promise.all(perFile.archives.map(async (a) => [a.original_id, await listTar(a.localPath)]))).toEqual([
      [photo.id, ['photo.png']], [logo.id, ['logo.png']], [photo.id, ['photo.png']], [logo.id, ['logo.png']],
    ]);
    const bundled = await run({ ...steps, archive: { robot: '/file/compress', use: { steps: ['small', 'big'], bundle_steps: true }, file_layout: 'simple' } }, [photo, logo]);
    expect(bundled.archives).toHaveLength(1);
    // Same names from two steps are numbered in the simple layout.
    expect(await listTar(bundled.archives[0]!.localPath)).toEqual(['logo.png', 'logo_1.png', 'photo.png', 'photo_1.png']);
    const byOriginal = await run({ ...steps, archive: { robot: '/file/compress', use: { steps: ['small', 'big'], group_by_original: true } } }, [photo, logo]);
    expect(byOriginal.archives.map((a) => a.original_id)).toEqual([photo.id, logo.id]);
    expect(await listTar(byOriginal.archives[0]!.localPath)).toEqual([`big/${photo.id.slice(0, 2)}_`, `small/${photo.id.slice(0, 2)}_`].map((p) => expect.stringMatching(new RegExp(`^${p}.._photo\\.png$`))));
  });

  it('takes the inputs use names: fields filters by upload field, and a file named under two roles is packed once', async () => {
    const cover = { ...photo, field: 'cover' };
    const { outcome, archives } = await run(
      { archive: { robot: '/file/compress', use: { steps: [{ name: ':original', as: 'image' }, { name: ':original', as: 'document', fields: ['cover', 'file'] }], bundle_steps: true, fields: ['cover'] }, file_layout: 'simple' } },
      [cover, logo, notes],
    );
    expect(outcome).toEqual({ ok: true });
    expect(archives.map((a) => a.original_id)).toEqual([cover.id]);
    expect(await listTar(archives[0]!.localPath)).toEqual(['photo.png']);
  });

  it('refuses a password (no encrypted zips locally) and a per-file path', async () => {
    const { outcome } = await run({ archive: { robot: '/file/compress', use: ':original', format: 'zip', password: 'x' } });
    expect(outcome).toMatchObject({ ok: false, code: 'FILE_COMPRESS_VALIDATION' });
    const withPath = await run({ archive: { robot: '/file/compress', use: ':original', path: '${file.name}' } });
    expect(withPath.outcome).toMatchObject({ ok: false, code: 'FILE_COMPRESS_VALIDATION', message: expect.stringContaining('file_layout') });
  });

  it('keeps archive paths inside the archive and long names intact', async () => {
    expect(safeArchivePath('../../etc/passwd')).toBe('etc/passwd');
    expect(safeArchivePath('/abs\\win\\path.txt')).toBe('abs/win/path.txt');
    // Unpacking on Windows must not land on another drive; control characters cannot hide a part.
    expect(safeArchivePath('C:\\Windows\\evil.dll')).toBe('Windows/evil.dll');
    expect(safeArchivePath('/D:/evil.dll')).toBe('evil.dll');
    expect(safeArchivePath('../\0..\0/x.txt')).toBe('x.txt');
    expect(safeArchivePath('.config/app/.env')).toBe('.config/app/.env');
    const long = { ...notes, name: `${'n'.repeat(150)}.txt` };
    expect(archivePaths([{ file: long, fromStep: 'x' }], 'simple')).toEqual([long.name]);
    const { archives } = await run({ archive: { robot: '/file/compress', use: ':original', file_layout: 'simple' } }, [long]);
    expect(await listTar(archives[0]!.localPath)).toEqual([long.name]);
  });
});
