import type { FileUploadState, RunFile, RunProgress, RunTotals } from '../../../shared/ipc/models';
import type { Clock } from './clock';

export interface CoalescerFile {
  fileId: string;
  relativePath: string;
  size: number;
  /** Where a restored run left off. */
  bytesUploaded?: number;
  state?: FileUploadState;
  error?: string | null;
}

export interface ProgressCoalescerOptions {
  runId: string;
  files: readonly CoalescerFile[];
  clock: Clock;
  emit: (progress: RunProgress) => void;
  /** At most one event per this many ms. */
  intervalMs?: number;
  /** Speed is measured over this recent window. */
  speedWindowMs?: number;
}

export interface ProgressCoalescer {
  /** Record a file's new byte count and/or state; cheap, called for every tus progress callback. */
  update(fileId: string, change: { bytesUploaded?: number; state?: FileUploadState; error?: string }): void;
  /** Emit now if anything changed (e.g. when the uploads end). */
  flush(): void;
  totals(): RunTotals;
  files(): RunFile[];
  dispose(): void;
  /** Change a file without announcing it (a run that already ended learns a file's final state late). */
  patch(fileId: string, change: { bytesUploaded?: number; state?: FileUploadState; error?: string }): void;
}

/**
 * Turns thousands of per-chunk callbacks into a few events per second: one payload with run totals and
 * only the files that changed since the previous event. The first change is sent at once; later ones
 * wait for the interval.
 */
export function createProgressCoalescer(options: ProgressCoalescerOptions): ProgressCoalescer {
  const intervalMs = options.intervalMs ?? 250;
  const windowMs = options.speedWindowMs ?? 5000;
  const { clock } = options;
  const files = new Map<string, RunFile>();
  let bytesUploaded = 0;
  let filesUploaded = 0;
  for (const f of options.files) {
    const file: RunFile = {
      fileId: f.fileId,
      relativePath: f.relativePath,
      size: f.size,
      bytesUploaded: Math.min(f.size, f.bytesUploaded ?? 0),
      state: f.state ?? 'queued',
    };
    if (f.error) file.error = f.error;
    files.set(f.fileId, file);
    bytesUploaded += file.bytesUploaded;
    if (file.state === 'uploaded') filesUploaded++;
  }
  const bytesTotal = options.files.reduce((sum, f) => sum + f.size, 0);
  const dirty = new Set<string>();
  const samples: Array<{ at: number; bytes: number }> = [{ at: clock.now(), bytes: bytesUploaded }];
  let lastEmit = -Infinity;
  let timer: unknown = null;
  let disposed = false;

  function speed(): number {
    const now = clock.now();
    while (samples.length > 2 && samples[0]!.at < now - windowMs) samples.shift();
    const first = samples[0]!;
    const last = samples[samples.length - 1]!;
    const seconds = (last.at - first.at) / 1000;
    if (seconds <= 0) return 0;
    return Math.max(0, (last.bytes - first.bytes) / seconds);
  }

  function totals(): RunTotals {
    const speedBps = speed();
    const remaining = bytesTotal - bytesUploaded;
    const etaSeconds = remaining <= 0 ? 0 : speedBps > 0 ? Math.ceil(remaining / speedBps) : null;
    return { bytesTotal, bytesUploaded, filesTotal: files.size, filesUploaded, speedBps: Math.round(speedBps), etaSeconds };
  }

  function emitNow() {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
    if (dirty.size === 0 || disposed) return;
    lastEmit = clock.now();
    const changed = [...dirty].map((id) => ({ ...files.get(id)! }));
    dirty.clear();
    options.emit({ runId: options.runId, totals: totals(), files: changed });
  }

  function schedule() {
    if (timer !== null || disposed) return;
    const wait = lastEmit + intervalMs - clock.now();
    if (wait <= 0) emitNow();
    else timer = clock.setTimeout(emitNow, wait);
  }

  function patch(fileId: string, change: Parameters<ProgressCoalescer['update']>[1]): boolean {
    const file = files.get(fileId);
    if (!file) return false;
      if (change.bytesUploaded !== undefined) {
        const bytes = Math.min(file.size, Math.max(0, change.bytesUploaded));
        bytesUploaded += bytes - file.bytesUploaded;
        file.bytesUploaded = bytes;
        samples.push({ at: clock.now(), bytes: bytesUploaded });
      }
      if (change.state !== undefined && change.state !== file.state) {
        if (file.state === 'uploaded') filesUploaded--;
        if (change.state === 'uploaded') filesUploaded++;
        file.state = change.state;
      }
      if (change.error !== undefined) file.error = change.error;
    return true;
  }

  return {
    update(fileId, change) {
      if (disposed || !patch(fileId, change)) return;
      dirty.add(fileId);
      schedule();
    },
    patch: (fileId, change) => void patch(fileId, change),
    flush: emitNow,
    totals,
    files: () => [...files.values()].map((f) => ({ ...f })),
    dispose() {
      disposed = true;
      if (timer !== null) clock.clearTimeout(timer);
      timer = null;
    },
  };
}
