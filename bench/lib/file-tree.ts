import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { access, mkdir, opendir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { DraftFile } from '../../electron/core/transfers/draft-feed';

/**
 * `count` small files (0.5–2 KB) in folders of 1,000 (`roll-NNN/clip-NNNN<ext>`) under `root`. With
 * `reuse`, a tree this function finished earlier (its `.complete-<count>` mark) is kept as it is.
 */
export async function makeSmallFileTree(root: string, count: number, o: { reuse?: boolean; ext?: string } = {}): Promise<void> {
  const { reuse = false, ext = '.jpg' } = o;
  const mark = path.join(root, `.complete-${String(count)}`);
  if (reuse && (await access(mark).then(() => true, () => false))) return;
  const blob = randomBytes(2048);
  for (let d = 0; d * 1000 < count; d++) {
    const sub = path.join(root, `roll-${String(d).padStart(3, '0')}`);
    await mkdir(sub, { recursive: true });
    const n = Math.min(1000, count - d * 1000);
    await Promise.all(Array.from({ length: n }, (_, i) => writeFile(path.join(sub, `clip-${String(i).padStart(4, '0')}${ext}`), blob.subarray(0, 512 + ((i * 7) % 1500)))));
  }
  await writeFile(mark, '');
}

/** A streaming walk (opendir, one folder at a time), as the drafts' walk feeds the engine; dot files left out. */
export async function* walkTree(root: string, base = path.basename(root)): AsyncGenerator<DraftFile> {
  for await (const entry of await opendir(root)) {
    if (entry.name.startsWith('.')) continue;
    const full = path.join(root, entry.name);
    const rel = `${base}/${entry.name}`;
    if (entry.isDirectory()) yield* walkTree(full, rel);
    else if (entry.isFile()) {
      const st = await stat(full);
      yield { path: full, relativePath: rel, name: entry.name, size: st.size, mime: 'image/jpeg', mtimeMs: st.mtimeMs };
    }
  }
}

/**
 * A file of `sizeBytes` whose every MiB differs (its index in its first 4 bytes: a misplaced part or
 * chunk changes the md5), written in 1 MiB writes; its md5.
 */
export async function writeNumberedFile(file: string, sizeBytes: number): Promise<string> {
  const MIB = 1024 * 1024;
  const block = randomBytes(MIB);
  const md5 = createHash('md5');
  const out = createWriteStream(file);
  for (let i = 0; i * MIB < sizeBytes; i++) {
    const chunk = Buffer.from(block.subarray(0, Math.min(MIB, sizeBytes - i * MIB)));
    chunk.writeUInt32BE(i, 0);
    md5.update(chunk);
    if (!out.write(chunk)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return md5.digest('hex');
}
