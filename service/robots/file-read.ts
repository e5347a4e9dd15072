// /file/read: the file's text (UTF-8) into meta.content; files of 500 KB or more are not read
// (service-facts §8).

import { readFile } from 'node:fs/promises';
import { newFileId } from './file-record';
import type { RobotRunner } from './robot-types';

export const FILE_READ_MAX_BYTES = 500 * 1024;

export const runFileRead: RobotRunner = async ({ robot, input }) => {
  if (input.size >= FILE_READ_MAX_BYTES) {
    return { ok: false, code: 'INVALID_INPUT_ERROR', message: `${robot} reads files under 500 KB; "${input.name}" has ${input.size} bytes.`, unsuitableInput: true };
  }
  const content = await readFile(input.localPath, 'utf8');
  // The bytes are unchanged, so the result shares the input's file on disk.
  return { ok: true, files: [{ ...input, id: newFileId(), meta: { ...input.meta, content } }] };
};
