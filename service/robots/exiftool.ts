// One ExifTool (a Perl process kept open, exiftool-vendored) for the whole service process: started on
// the first file it reads, ended when the last service that uses it stops (or by tests that read
// without a service). Never throws: a file it cannot read gives no tags.

import { ExifTool } from 'exiftool-vendored';
import { EXIF_TAG_ARGS } from './exif-meta';

let instance: ExifTool | null = null;
let users = 0;

/** Modest: two Perl processes at most, and a file that takes longer than this gives no tags. */
const OPTIONS = { maxProcs: 2, taskTimeoutMillis: 15_000 } as const;

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

/**
 * The tags exif-meta.ts maps, as ExifTool gives them (strings and numbers; dates as text with the zone
 * only when the file states it: no zone is guessed), or null when ExifTool cannot read the file (or is not
 * there: no Perl). `-fast`: it stops reading at a JPEG's image data.
 */
export async function readTags(localPath: string): Promise<Record<string, unknown> | null> {
  try {
    // QuickTimeUTC: QuickTime dates are UTC by that format's spec; ExifTool then gives them with their zone.
    return (await shared().readRaw(localPath, { readArgs: ['-fast', '-api', 'QuickTimeUTC', ...EXIF_TAG_ARGS] })) as Record<string, unknown>;
  } catch {
    return null;
  }
}

/**
 * Writes tags into the file in place (/meta/write). Resolves with ExifTool's warnings ("Tag 'X' is not
 * defined", "Sorry, X is not writable"): a tag it could not write is the caller's to report.
 */
export async function writeTags(localPath: string, tags: Record<string, unknown>): Promise<{ updated: boolean; warnings: string[] }> {
  const result = await shared().write(localPath, tags as never, { writeArgs: ['-overwrite_original'] });
  return { updated: result.updated > 0, warnings: (result.warnings ?? []).filter((w) => !/^Nothing to do/i.test(w)) };
}
