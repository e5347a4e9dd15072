// Runs ffmpeg as a child process that dies with the Assembly's AbortSignal or after a time limit.

import { execFile } from 'node:child_process';


export type FfmpegOutcome = { ok: true } | { ok: false; aborted: boolean; message: string };

/**
 * `timeoutMs` 0 (the default) means no limit: encoding a long video legitimately takes hours, and the
 * Assembly's signal still stops it. Short jobs (one thumbnail) pass a limit.
 */
export function runFfmpeg(args: string[], signal: AbortSignal, timeoutMs = 0): Promise<FfmpegOutcome> {
  return new Promise((resolve) => {
    execFile(
      'ffmpeg',
      ['-hide_banner', '-nostdin', '-v', 'error', '-y', ...args],
      { signal, timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 4 * 1024 * 1024 },
      (error, _stdout, stderr) => {
        if (!error) return resolve({ ok: true });
        const aborted = signal.aborted;
        const detail = String(stderr).trim().split('\n').slice(-3).join(' ') || error.message;
        resolve({ ok: false, aborted, message: aborted ? 'canceled' : detail });
      },
    );
  });
}
