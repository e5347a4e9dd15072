import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scanPaths, walkPaths } from './folder-scanner';

let root = '';

beforeAll(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'al-scan-'));
  const photos = path.join(root, 'photos');
  await mkdir(path.join(photos, 'sub', 'deeper'), { recursive: true });
  await writeFile(path.join(photos, 'a.jpg'), Buffer.alloc(10));
  await writeFile(path.join(photos, 'sub', 'b.PNG'), Buffer.alloc(20));
  await writeFile(path.join(photos, 'sub', 'deeper', 'c.mp4'), Buffer.alloc(30));
  await writeFile(path.join(photos, '.DS_Store'), 'x');
  await writeFile(path.join(photos, 'sub', 'Thumbs.db'), 'x');
  await writeFile(path.join(photos, 'notes'), 'no extension');
  await symlink(path.join(root, 'missing.jpg'), path.join(photos, 'broken.jpg'));
  await writeFile(path.join(root, 'loose.wav'), Buffer.alloc(5));
  const locked = path.join(photos, 'locked');
  await mkdir(locked);
  await writeFile(path.join(locked, 'secret.jpg'), 'x');
  await chmod(locked, 0o000);
  execFileSync('mkfifo', [path.join(photos, 'pipe.jpg')]);
});

afterAll(async () => {
  await chmod(path.join(root, 'photos', 'locked'), 0o755).catch(() => undefined);
  await rm(root, { recursive: true, force: true });
});

describe('scanPaths', () => {
  it('expands a dropped folder recursively with paths relative to its parent, skipping OS litter', async () => {
    const result = await scanPaths([path.join(root, 'photos'), path.join(root, 'loose.wav')]);
    // root reads the chmod-000 folder anyway, so that one file depends on who runs the tests.
    const rel = result.files.map((f) => f.relativePath).filter((p) => !p.startsWith('photos/locked/'));
    expect(rel).toEqual(['loose.wav', 'photos/a.jpg', 'photos/notes', 'photos/sub/b.PNG', 'photos/sub/deeper/c.mp4']);
    expect(result.files.find((f) => f.name === 'b.PNG')).toMatchObject({ size: 20, mime: 'image/png', path: path.join(root, 'photos', 'sub', 'b.PNG') });
    expect(result.files.find((f) => f.name === 'c.mp4')?.mime).toBe('video/mp4');
    expect(result.files.find((f) => f.name === 'notes')?.mime).toBeNull();
    expect(result.totalBytes).toBe(result.files.reduce((n, f) => n + f.size, 0));
    expect(result.totalBytes).toBeGreaterThanOrEqual(10 + 20 + 30 + 5 + 'no extension'.length);
  });

  it('reports broken links, unreadable folders and missing paths instead of failing', async () => {
    const result = await scanPaths([path.join(root, 'photos'), path.join(root, 'nope')]);
    const reasons = Object.fromEntries(result.skipped.map((s) => [path.relative(root, s.path), s.reason]));
    expect(reasons['photos/broken.jpg']).toMatch(/Not found/);
    expect(reasons['nope']).toMatch(/Not found/);
    expect(reasons['photos/pipe.jpg']).toMatch(/Not a regular file/);
    if (process.getuid?.() !== 0) expect(reasons['photos/locked']).toMatch(/Permission denied/);
  });

  it('handles thousands of files in nested folders', async () => {
    const many = path.join(root, 'many');
    for (let d = 0; d < 20; d++) {
      const dir = path.join(many, `d${d}`);
      await mkdir(dir, { recursive: true });
      await Promise.all(Array.from({ length: 150 }, (_, i) => writeFile(path.join(dir, `f${i}.txt`), 'x')));
    }
    const result = await scanPaths([many]);
    expect(result.files).toHaveLength(3000);
    expect(result.files[0]!.relativePath).toMatch(/^many\/d\d+\/f\d+\.txt$/);
  });

  it('stops at the file limit and says why', async () => {
    const result = await scanPaths([path.join(root, 'photos')], { maxFiles: 2 });
    expect(result.files).toHaveLength(2);
    expect(result.skipped.some((s) => s.reason.includes('More than 2 files'))).toBe(true);
  });
});

describe('walkPaths (streaming)', () => {
  it('yields a 10,000-file tree file by file in name order, folders after their files, and stops when aborted', async () => {
    const tree = path.join(root, 'tree');
    for (let d = 0; d < 10; d++) {
      const dir = path.join(tree, `d${d}`, 'inner');
      await mkdir(dir, { recursive: true });
      await Promise.all(Array.from({ length: 1_000 }, (_, i) => writeFile(path.join(i % 2 ? dir : path.dirname(dir), `f${String(i).padStart(4, '0')}.txt`), 'x')));
    }
    const seen: string[] = [];
    for await (const entry of walkPaths([tree])) if (entry.kind === 'file') seen.push(entry.relativePath);
    expect(seen).toHaveLength(10_000);
    expect(seen.slice(0, 2)).toEqual(['tree/d0/f0000.txt', 'tree/d0/f0002.txt']);
    expect(seen[500]).toBe('tree/d0/inner/f0001.txt');
    expect(seen.at(-1)).toBe('tree/d9/inner/f0999.txt');

    // A cleared draft stops its walk: nothing more comes after the abort.
    const controller = new AbortController();
    let count = 0;
    for await (const entry of walkPaths([tree], { signal: controller.signal })) {
      if (entry.kind === 'file') count += 1;
      if (count === 40) controller.abort();
    }
    expect(count).toBeLessThanOrEqual(40 + 32);
  }, 60_000);

  it('keeps dotfiles and OS litter when asked to (skip rules decide later) and reports what cannot be read', async () => {
    const entries = [];
    for await (const entry of walkPaths([path.join(root, 'photos')])) entries.push(entry);
    const files = entries.flatMap((e) => (e.kind === 'file' ? [e.relativePath] : []));
    expect(files).toEqual(expect.arrayContaining(['photos/.DS_Store', 'photos/sub/Thumbs.db', 'photos/a.jpg']));
    const skipped = Object.fromEntries(entries.flatMap((e) => (e.kind === 'skip' ? [[e.relativePath, e.reason]] : [])));
    expect(skipped['photos/broken.jpg']).toMatch(/Not found/);
    expect(skipped['photos/pipe.jpg']).toMatch(/Not a regular file/);
  });

  it('finds a file without read permission at walk time (as an ordinary user)', async () => {
    const dir = path.join(root, 'perm');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'ok.txt'), 'fine');
    await writeFile(path.join(dir, 'no-read.txt'), 'secret');
    await chmod(path.join(dir, 'no-read.txt'), 0o000);
    // The other user cannot read this clone when it lives in a private folder (root's home, a mktemp -d):
    // the walk goes to them as one self-contained script in a folder of its own that they can read.
    const runner = path.join(root, 'runner');
    await mkdir(runner);
    await writeFile(
      path.join(runner, 'entry.ts'),
      `import { walkPaths } from ${JSON.stringify(fileURLToPath(new URL('./folder-scanner.ts', import.meta.url)))};
      const out = []; for await (const e of walkPaths([process.argv[2]])) out.push([e.relativePath, e.kind, e.kind === 'skip' ? e.reason : '']);
      console.log(JSON.stringify(out));`,
    );
    await build({ entryPoints: [path.join(runner, 'entry.ts')], outfile: path.join(runner, 'walk.mjs'), bundle: true, platform: 'node', format: 'esm', logLevel: 'silent' });
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    if (process.getuid?.() === 0) {
      // Whatever the umask: the other user can enter the folders and read the script.
      for (const folder of [root, dir, runner]) await chmod(folder, 0o755);
      await chmod(path.join(runner, 'walk.mjs'), 0o644);
    }
    const output = execFileSync(process.execPath, [path.join(runner, 'walk.mjs'), dir], { ...asUser, encoding: 'utf8', cwd: runner });
    expect(JSON.parse(output)).toEqual([
      ['perm/no-read.txt', 'skip', 'Permission denied: no read access.'],
      ['perm/ok.txt', 'file', ''],
    ]);
  }, 30_000);
});
