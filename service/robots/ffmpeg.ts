// Runs ffmpeg as a child process that dies with the Assembly's AbortSignal or after a time limit.

import { spawn } from 'node:child_process';

export type FfmpegOutcome = { ok: true } | { ok: false; aborted: boolean; message: string };

/** stderr kept for the error message (its last lines are shown). */
const STDERR_TAIL_BYTES = 16 * 1024;

/**
 * The encoded position from one `-progress` block (`out_time_us=…`, or `out_time_ms=…`, which ffmpeg
 * also gives in microseconds), in seconds; null when the block has none (e.g. `N/A` at the start). Pure.
 */
export function progressSeconds(block: string): number | null {
  const m = /^out_time_(?:us|ms)=(\d+)$/m.exec(block);
  return m ? Number(m[1]) / 1e6 : null;
}

/**
 * `timeoutMs` 0 (the default) means no limit: encoding a long video legitimately takes hours, and the
 * Assembly's signal still stops it. Short jobs (one thumbnail) pass a limit. `onTime` hears how many
 * seconds of output are encoded, from ffmpeg's own `-progress` report (about twice a second).
 */
export function runFfmpeg(args: string[], signal: AbortSignal, timeoutMs = 0, onTime?: (seconds: number) => void): Promise<FfmpegOutcome> {
  return new Promise((resolve) => {
    const progress = onTime ? ['-progress', 'pipe:1', '-nostats'] : [];
    const child = spawn('ffmpeg', ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...progress, ...args], {
      signal,
      timeout: timeoutMs,
      killSignal: 'SIGKILL',
      stdio: ['ignore', onTime ? 'pipe' : 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_BYTES);
    });
    if (onTime && child.stdout) {
      // Only the unfinished block is kept: a long encode reports for hours.
      let pending = '';
      child.stdout.setEncoding('utf8');
      child.stdout.on('data', (chunk: string) => {
        pending += chunk;
        let end: number;
        while ((end = pending.search(/^progress=\w+$/m)) >= 0) {
          const lineEnd = pending.indexOf('\n', end);
          if (lineEnd < 0) break;
          const seconds = progressSeconds(pending.slice(0, lineEnd));
          pending = pending.slice(lineEnd + 1);
          if (seconds !== null) onTime(seconds);
        }
        if (pending.length > 64 * 1024) pending = pending.slice(-4096);
      });
    }
    let settled = false;
    const settle = (o: FfmpegOutcome): void => {
      if (!settled) {
        settled = true;
        resolve(o);
      }
    };
    child.on('error', (error: NodeJS.ErrnoException) => {
      const aborted = signal.aborted;
      // ffmpeg is a system requirement (build/README.md): say so, not "spawn ffmpeg ENOENT".
      const message = error.code === 'ENOENT' ? FFMPEG_MISSING : error.message;
      settle({ ok: false, aborted, message: aborted ? 'canceled' : message });
    });
    child.on('close', (code, killed) => {
      if (code === 0) return settle({ ok: true });
      const aborted = signal.aborted;
      const detail = stderr.trim().split('\n').slice(-3).join(' ') || (killed ? `ffmpeg was stopped (${killed})` : `ffmpeg exited with code ${code}`);
      settle({ ok: false, aborted, message: aborted ? 'canceled' : detail });
    });
  });
}

/** What a step says when ffmpeg is not installed on the machine that runs the service. */
export const FFMPEG_MISSING = 'ffmpeg is not installed on this computer (or not on PATH): audio and video robots need it. Install ffmpeg (Debian/Ubuntu: apt install ffmpeg; macOS: brew install ffmpeg) and try again.';

/** An `onTime` for runFfmpeg that reports the fraction of `duration` (the input's `meta.duration`) encoded; none without one. */
export function timeProgress(duration: unknown, onProgress: ((fraction: number) => void) | undefined): ((seconds: number) => void) | undefined {
  if (!onProgress || typeof duration !== 'number' || !(duration > 0)) return undefined;
  return (seconds) => onProgress(Math.max(0, Math.min(1, seconds / duration)));
}
