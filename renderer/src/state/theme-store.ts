import { create } from 'zustand';

export type ThemeChoice = 'system' | 'light' | 'dark';
const STORAGE_KEY = 'assemblyline.theme';
const ORDER: readonly ThemeChoice[] = ['system', 'light', 'dark'];

const readStored = (): ThemeChoice => {
  try {
    const value = window.localStorage.getItem(STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
};

/** `data-theme` on <html> overrides prefers-color-scheme in the CSS; "system" removes it. */
export const applyTheme = (theme: ThemeChoice): void => {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
};

interface ThemeState {
  readonly theme: ThemeChoice;
  readonly setTheme: (theme: ThemeChoice) => void;
  readonly cycle: () => void;
}

export const useTheme = create<ThemeState>((set, get) => ({
  theme: readStored(),
  setTheme: (theme) => {
    try {
      window.localStorage.setItem(STORAGE_KEY, theme);
    } catch {
      // Storage can be unavailable (private mode); the choice still applies for this session.
    }
    applyTheme(theme);
    set({ theme });
  },
  cycle: () => {
    const next = ORDER[(ORDER.indexOf(get().theme) + 1) % ORDER.length] ?? 'system';
    get().setTheme(next);
  },
}));
