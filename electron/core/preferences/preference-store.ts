import { readFileSync } from 'node:fs';
import path from 'node:path';
import { appPreferencesSchema, DEFAULT_APP_PREFERENCES, type AppPreferences } from '../../../shared/ipc/desktop-models';
import { writePrivateFile } from '../vault/private-files';

export interface PreferenceStore {
  get(): AppPreferences;
  /** Writes the change to disk, then tells the listeners (the Electron host makes or removes its tray). */
  save(change: Partial<AppPreferences>): Promise<AppPreferences>;
  onChange(listener: (preferences: AppPreferences) => void): () => void;
}

/** Reads a preferences file; a missing, unreadable or outdated one gives the defaults for what it lacks. */
export function parsePreferences(text: string | null): AppPreferences {
  if (text === null) return { ...DEFAULT_APP_PREFERENCES };
  try {
    const parsed = appPreferencesSchema.partial().safeParse(JSON.parse(text));
    return { ...DEFAULT_APP_PREFERENCES, ...(parsed.success ? parsed.data : {}) };
  } catch {
    return { ...DEFAULT_APP_PREFERENCES };
  }
}

/** The app's preferences in `<dataDir>/preferences.json` (read once at start, written on each change). */
export function openPreferenceStore(dataDir: string): PreferenceStore {
  const file = path.join(dataDir, 'preferences.json');
  let text: string | null = null;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    text = null;
  }
  let current = parsePreferences(text);
  const listeners = new Set<(p: AppPreferences) => void>();
  let writes = Promise.resolve();
  return {
    get: () => ({ ...current }),
    async save(change) {
      current = { ...current, ...change };
      const snapshot = { ...current };
      // One write at a time, in order: the file ends with the last change.
      writes = writes.then(() => writePrivateFile(file, `${JSON.stringify(snapshot, null, 2)}\n`));
      await writes;
      for (const listener of listeners) listener({ ...snapshot });
      return snapshot;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
