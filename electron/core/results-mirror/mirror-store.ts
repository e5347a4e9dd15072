import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { conflictPolicySchema, mirrorLayoutSchema } from '../../../shared/ipc/mirror-models';
import { writePrivateFile } from '../vault/private-files';
import type { MirroredFile } from './manifest';

export const MIRROR_FILE = 'results-mirror.json';
const MAX_REMEMBERED = 50_000;

const savedSchema = z.object({
  folder: z.string().nullable().catch(null),
  layout: mirrorLayoutSchema.catch('by-step'),
  conflict: conflictPolicySchema.catch('skip'),
  /** resultKey → where it was written (the manifest's local path), oldest first. */
  mirrored: z.array(z.tuple([z.string(), z.object({ path: z.string(), md5: z.string() })])).catch([]),
});
type Saved = z.infer<typeof savedSchema>;

export interface MirrorStore {
  settings(): Pick<Saved, 'folder' | 'layout' | 'conflict'>;
  saveSettings(change: Partial<Pick<Saved, 'folder' | 'layout' | 'conflict'>>): Promise<void>;
  remember(key: string, file: MirroredFile): void;
  mirrored(key: string): MirroredFile | undefined;
  /** Writes what `remember` collected (once per mirror, not per file). */
  flush(): Promise<void>;
}

/** The remembered choice (folder, layout, policy) and where results were mirrored, in `<dataDir>/results-mirror.json`. */
export function openMirrorStore(dataDir: string): MirrorStore {
  const file = path.join(dataDir, MIRROR_FILE);
  let saved: Saved = { folder: null, layout: 'by-step', conflict: 'skip', mirrored: [] };
  try {
    saved = savedSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    // First start, or an unreadable file: defaults.
  }
  const mirrored = new Map(saved.mirrored);
  let writing = Promise.resolve();
  const write = () => {
    const text = JSON.stringify({ folder: saved.folder, layout: saved.layout, conflict: saved.conflict, mirrored: [...mirrored] });
    writing = writing.then(() => writePrivateFile(file, text)).catch(() => undefined);
    return writing;
  };
  return {
    settings: () => ({ folder: saved.folder, layout: saved.layout, conflict: saved.conflict }),
    saveSettings(change) {
      saved = { ...saved, ...change };
      return write();
    },
    remember(key, f) {
      mirrored.delete(key);
      mirrored.set(key, f);
      while (mirrored.size > MAX_REMEMBERED) mirrored.delete(mirrored.keys().next().value as string);
    },
    mirrored: (key) => mirrored.get(key),
    flush: write,
  };
}
