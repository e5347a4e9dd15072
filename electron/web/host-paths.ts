import { join } from 'node:path';

/** Where the browser host keeps its data: `ASSEMBLYLINE_DATA_DIR`, else the platform's usual place. */
export function defaultDataDir(platform: string, env: Record<string, string | undefined>, home: string): string {
  if (env.ASSEMBLYLINE_DATA_DIR) return env.ASSEMBLYLINE_DATA_DIR;
  if (platform === 'darwin') return join(home, 'Library', 'Application Support', 'Assemblyline');
  if (platform === 'win32') return join(env.APPDATA ?? join(home, 'AppData', 'Roaming'), 'Assemblyline');
  return join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'assemblyline');
}

/** Results land in `ASSEMBLYLINE_DOWNLOADS_DIR`, else `~/Downloads/Assemblyline`. */
export function defaultDownloadsDir(env: Record<string, string | undefined>, home: string): string {
  return env.ASSEMBLYLINE_DOWNLOADS_DIR || join(home, 'Downloads', 'Assemblyline');
}

/** The command that opens a path or URL with the desktop's default app (null: none known). */
export function openCommand(platform: string, target: string, reveal: boolean): { command: string; args: string[] } | null {
  if (platform === 'darwin') return { command: 'open', args: reveal ? ['-R', target] : [target] };
  if (platform === 'win32') return { command: 'explorer.exe', args: reveal ? [`/select,${target}`] : [target] };
  if (platform === 'linux' || platform.endsWith('bsd')) {
    // xdg-open cannot select a file: reveal opens its folder instead.
    const folder = reveal ? target.replace(/\/[^/]*\/?$/, '') || '/' : target;
    return { command: 'xdg-open', args: [folder] };
  }
  return null;
}
