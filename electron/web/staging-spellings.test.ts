// Invariant: within a batch, no two paths staged on disk differ only in case or Unicode normalization,
// whatever the page sends, so a disk that folds them (macOS, Windows) never puts two files in one; and the
// same path staged again keeps its place on disk (it replaces its own copy).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { encodeStagingUrl } from './page/page-bridge-logic';
import { resolveStagingPath, type StagingTarget } from './staging-path';
import { distinctSpelling } from './staging-spellings';

const fold = (p: string) => p.normalize('NFC').toLowerCase();
let batches = 0;

/** Stages `paths` in one new batch as the host does (resolve, then distinct spellings). */
function stage(paths: readonly string[]): StagingTarget[] {
  const batch = `b${batches++}`;
  return paths.map((p) => {
    const target = resolveStagingPath('/staging', encodeStagingUrl(batch, p));
    if (!target.ok) throw new Error(target.error.message);
    return distinctSpelling(target.value);
  });
}

/** Every folder and file path on disk, folded → the exact spellings staged under it. */
function spellings(targets: readonly StagingTarget[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const t of targets) {
    const segments = t.diskRelativePath.split('/');
    for (let i = 1; i <= segments.length; i++) {
      const prefix = segments.slice(0, i).join('/');
      out.set(fold(prefix), (out.get(fold(prefix)) ?? new Set()).add(prefix));
    }
  }
  return out;
}

describe('staged spellings', () => {
  it('gives the second spelling of a folded name a name of its own on disk, at the segment where they part', () => {
    const [a, b, c, d, e, f] = stage(['shoot/Photo.JPG', 'shoot/photo.jpg', 'Shoot/photo.jpg', 'shoot/caf\u00e9.txt', 'shoot/cafe\u0301.txt', 'shoot/photo.jpg']);
    expect(a!.diskRelativePath).toBe('shoot/Photo.JPG');
    expect(b!.diskRelativePath).toMatch(/^shoot\/photo~[0-9a-f]{12}\.jpg$/);
    // Another spelling of the root: a root folder of its own (its own handle), files below as they are.
    expect(c!.diskRelativePath).toMatch(/^Shoot~[0-9a-f]{12}\/photo\.jpg$/);
    expect(c!.rootPath).toBe(`/staging/${c!.batchId}/${c!.diskRelativePath.split('/')[0]}`);
    expect(d!.diskRelativePath).toBe('shoot/caf\u00e9.txt');
    expect(e!.diskRelativePath).toMatch(/^shoot\/cafe\u0301~[0-9a-f]{12}\.txt$/);
    // The same path again (a PUT sent after a lost answer): the same place, so it replaces its own copy.
    expect(f!.filePath).toBe(b!.filePath);
    // The user's paths are what they sent.
    expect([a, b, c].map((t) => t!.relativePath)).toEqual(['shoot/Photo.JPG', 'shoot/photo.jpg', 'Shoot/photo.jpg']);
    // Other batches do not share a folder: the first spelling there is kept as it is.
    expect(stage(['shoot/photo.jpg'])[0]!.diskRelativePath).toBe('shoot/photo.jpg');
  });

  it('never leaves two spellings of one folded path on disk, and keeps every path in one place (fast-check)', () => {
    const letter = fc.constantFrom('a', 'A', 'e', 'E', '\u00e9', 'e\u0301', '\u00c9', 'k', 'K', '\u212a', 'o', 'O');
    const segment = fc.array(letter, { minLength: 1, maxLength: 3 }).map((l) => l.join(''));
    const filePath = fc.array(segment, { minLength: 1, maxLength: 3 }).map((s) => `root/${s.join('/')}.jpg`);
    fc.assert(
      fc.property(fc.array(filePath, { minLength: 1, maxLength: 12 }), (paths) => {
        const targets = stage(paths);
        for (const [folded, exact] of spellings(targets)) expect([folded, [...exact]]).toEqual([folded, [...exact].slice(0, 1)]);
        const placeOf = new Map<string, string>();
        for (const t of targets) {
          expect(placeOf.get(t.relativePath) ?? t.filePath).toBe(t.filePath);
          placeOf.set(t.relativePath, t.filePath);
        }
      }),
      { numRuns: 300 },
    );
  });
});
