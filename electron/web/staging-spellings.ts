import { dirname, join } from 'node:path';
import { hashOf } from '../core/drafts/draft-list';
import { hashedDiskName, type StagingTarget } from './staging-path';

// A disk that ignores case or Unicode normalization (macOS's APFS and HFS+ by default, Windows) takes
// `Photo.JPG` and `photo.jpg`, or `café` in NFC and NFD, for one file. A drop from a disk that does not can
// hold both, and staging renames each file into place: the second would replace the first. So within a
// batch, a path whose folded spelling was first staged spelled otherwise gets a hashed name on disk at the
// segment where they part (the user's path is kept beside it, as for long names). The same path staged
// again (a PUT sent after a lost answer) keeps its spelling and replaces its own copy.

/** What such a disk takes for one name: NFC, lower case. */
const fold = (path: string): string => path.normalize('NFC').toLowerCase();

/**
 * Per batch folder: the hash of each folded path prefix staged → the hash of its exact spelling. Numbers,
 * not strings: 100,000 staged files cost a few MB, not tens. Two spellings whose hashes meet (2^-53) would
 * only get a hashed name they did not need. Only the batches staged last are kept: a drop is one batch, and
 * two drops never share a folder.
 */
const seen = new Map<string, Map<number, number>>();
const KEPT_BATCHES = 16;

function spellingsOf(batchDir: string): Map<number, number> {
  let spellings = seen.get(batchDir);
  if (spellings) seen.delete(batchDir);
  else spellings = new Map();
  seen.set(batchDir, spellings);
  for (const oldest of seen.keys()) {
    if (seen.size <= KEPT_BATCHES) break;
    seen.delete(oldest);
  }
  return spellings;
}

/** `target`, with a hashed name on disk wherever an earlier file of its batch spelled the same folded path otherwise. */
export function distinctSpelling(target: StagingTarget): StagingTarget {
  const batchDir = dirname(target.rootPath);
  const spellings = spellingsOf(batchDir);
  const segments = target.diskRelativePath.split('/');
  let changed = false;
  for (let i = 0; i < segments.length; i++) {
    const prefix = segments.slice(0, i + 1).join('/');
    const folded = hashOf(fold(prefix));
    const exact = hashOf(prefix);
    const first = spellings.get(folded);
    if (first === undefined) spellings.set(folded, exact);
    else if (first !== exact) {
      segments[i] = hashedDiskName(segments[i] as string);
      changed = true;
      // The renamed prefix is a spelling of its own from here on (for this file's later segments and the next files).
      const renamed = segments.slice(0, i + 1).join('/');
      spellings.set(hashOf(fold(renamed)), hashOf(renamed));
    }
  }
  if (!changed) return target;
  const diskRelativePath = segments.join('/');
  return { ...target, diskRelativePath, filePath: join(batchDir, ...segments), rootPath: join(batchDir, segments[0] as string) };
}
