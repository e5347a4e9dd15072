import { spawn } from 'node:child_process';
import { stat } from 'node:fs/promises';
import type { DesktopPort } from '../core/ports/desktop';
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
  };
}
