// One ExifTool (a Perl process kept open, exiftool-vendored) for the whole service process: started on
// the first file it reads, ended when the last service that uses it stops (or by tests that read
// without a service). Never throws: a file it cannot read gives no tags.

import { ExifTool, type Tags } from 'exiftool-vendored';

let instance: ExifTool | null = null;
let users = 0;

/** Modest: two Perl processes at most, and a file that takes longer than this gives no tags. */
const OPTIONS = {
  maxProcs: 2,
  taskTimeoutMillis: 15_000,
  // Dates as the file says them: no zone guessed from GPS or other tags (a guess is not the file's word).
  geolocation: false,
  inferTimezoneFromDatestamps: false,
  backfillTimezones: false,
} as const;

function shared(): ExifTool {
  instance ??= new ExifTool(OPTIONS);
  return instance;
}

/** A service starting: it keeps the shared ExifTool alive until it calls the returned release. */
export function retainExifTool(): () => Promise<void> {
  users += 1;
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    users -= 1;
    if (users === 0) await endExifTool();
  };
}

/** Ends the shared ExifTool's Perl processes now (the next read starts a new one). */
export async function endExifTool(): Promise<void> {
  const ending = instance;
  instance = null;
  await ending?.end();
}

/** Whether the shared ExifTool is started (tests check that a stopped service leaves no Perl behind). */
export const exifToolRunning = (): boolean => instance !== null;

/** The file's tags, or null when ExifTool cannot read it (or is not there: no Perl). */
export async function readTags(localPath: string): Promise<Tags | null> {
  try {
    return await shared().read(localPath);
  } catch {
    return null;
  }
}
