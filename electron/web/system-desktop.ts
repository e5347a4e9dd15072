import { execFile, spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { ClipboardUnavailableError, type DesktopPort } from '../core/ports/desktop';
import { openCommand } from './host-paths';

/**
 * Start the opener detached and resolve once it has spawned: the user's app keeps running after we exit,
 * and a missing opener (no xdg-open on a server) is an error the UI shows, not a crash.
 */
export function launchDetached(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    let child;
    try {
      child = spawn(command, args, { detached: true, stdio: 'ignore' });
    } catch (cause) {
      reject(cause instanceof Error ? cause : new Error(String(cause)));
      return;
    }
    child.once('error', (cause) => reject(new Error(`Could not run ${command}: ${cause.message}`)));
    child.once('spawn', () => {
      child.unref();
      resolve();
    });
  });
}

export async function openWithSystem(target: string, reveal = false, platform = process.platform): Promise<void> {
  const opener = openCommand(platform, target, reveal);
  if (!opener) throw new Error(`Opening files is not supported on ${platform}.`);
  await launchDetached(opener.command, opener.args);
}

/** Clipboard tools per platform, tried in order: the browser host has no clipboard API of its own. */
const CLIPBOARD_TOOLS: Record<string, { write: [string, string[]][]; read: [string, string[]][] }> = {
  darwin: { write: [['pbcopy', []]], read: [['pbpaste', []]] },
  win32: { write: [['clip', []]], read: [['powershell', ['-NoProfile', '-Command', 'Get-Clipboard']]] },
  linux: {
    write: [['wl-copy', []], ['xclip', ['-selection', 'clipboard']], ['xsel', ['--clipboard', '--input']]],
    read: [['wl-paste', ['--no-newline']], ['xclip', ['-selection', 'clipboard', '-o']], ['xsel', ['--clipboard', '--output']]],
  },
};

function runTool(command: string, args: string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(command, args, { timeout: 5000 }, (error, stdout) => (error ? reject(error) : resolve(stdout)));
    if (input !== undefined) child.stdin?.end(input);
  });
}

async function firstTool(tools: [string, string[]][], input?: string): Promise<string> {
  // Every tool missing or failing (no display) means there is no clipboard here.
  for (const [command, args] of tools) {
    try {
      return await runTool(command, args, input);
    } catch {
      // not installed, or no display: try the next one
    }
  }
  throw new ClipboardUnavailableError('No clipboard is available here (install wl-clipboard or xclip on Linux, or run the desktop app).');
}

/** The browser host's DesktopPort: the OS opener, after checking the path exists (a clear error otherwise). */
export function createSystemDesktop(platform = process.platform): DesktopPort {
  const existing = async (path: string) => {
    if (!(await stat(path).catch(() => null))) throw new Error(`${path} does not exist.`);
  };
  return {
    async openPath(path) {
      await existing(path);
      await openWithSystem(path, false, platform);
    },
    async revealPath(path) {
      await existing(path);
      await openWithSystem(path, true, platform);
    },
    async openExternal(url) {
      if (!/^https?:\/\//i.test(url)) throw new Error('Only http and https addresses open in the browser.');
      await openWithSystem(url, false, platform);
    },
    async writeClipboard(text) {
      await firstTool((CLIPBOARD_TOOLS[platform] ?? CLIPBOARD_TOOLS.linux!).write, text);
    },
    readClipboard: () => firstTool((CLIPBOARD_TOOLS[platform] ?? CLIPBOARD_TOOLS.linux!).read),
  };
}
