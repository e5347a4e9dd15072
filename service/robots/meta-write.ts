// /meta/write: writes `data_to_write` (ExifTool tag names to values: `Copyright`, `Artist`,
// `ProcessingSoftware`, `Title`…) into a copy of each image, video or audio file, which becomes the
// result; its record reads the file again, so `meta` shows what was written. A tag ExifTool does not
// know or cannot write in that format fails the step with META_WRITE_VALIDATION, naming it.

import { copyFile } from 'node:fs/promises';
import { writeTags } from './exiftool';
import { describeResult } from './file-record';
import { outputDir, outputFile } from './output-path';
import type { RobotRunner } from './robot-types';

const fail = (code: string, message: string) => ({ ok: false as const, code, message });

export const runMetaWrite: RobotRunner = async ({ params, input, outDir }) => {
  const data = params.data_to_write;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return fail('META_WRITE_VALIDATION', '/meta/write: data_to_write must be an object of ExifTool tag names to values.');
  const tags = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined).map(([k, v]) => [k, typeof v === 'object' && v !== null ? JSON.stringify(v) : v]));
  if (!/^(image|video|audio)\//.test(input.mime ?? '')) {
    return { ok: false, code: 'INVALID_INPUT_ERROR', message: `Not an image, video or audio file: /meta/write skips ${input.mime ?? 'this file'}`, unsuitableInput: true };
  }
  const localPath = outputFile(await outputDir(outDir, input.id), input.name);
  await copyFile(input.localPath, localPath);
  if (Object.keys(tags).length === 0) return { ok: true, files: [await describeResult(input, localPath, input.name)] };
  let outcome: { updated: boolean; warnings: string[] };
  try {
    outcome = await writeTags(localPath, tags);
  } catch (e) {
    return fail('META_WRITE_VALIDATION', `/meta/write could not write into "${input.name}": ${(e as Error).message}`);
  }
  const refused = outcome.warnings.filter((w) => /not defined|not writable|doesn't exist|invalid/i.test(w));
  if (refused.length > 0 || !outcome.updated) {
    const said = (refused.length > 0 ? refused : outcome.warnings).map((w) => w.replace(/^Warning:\s*/, '')).join('; ');
    return fail('META_WRITE_VALIDATION', `/meta/write could not write ${Object.keys(tags).join(', ')} into "${input.name}" (${input.mime}): ${said || 'ExifTool changed nothing'}.`);
  }
  return { ok: true, files: [await describeResult(input, localPath, input.name)] };
};
