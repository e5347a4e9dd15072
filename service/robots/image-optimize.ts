// /image/optimize: re-encodes in the same format with stronger compression, and keeps the original
// bytes when that would not make the file smaller.

import { copyFile, stat } from 'node:fs/promises';
import sharp from 'sharp';
import { describeResult } from './file-record';
import { encode, outputFormat } from './image-encode';
import { notAnImage } from './image-resize';
import { outputDir, outputFile } from './output-path';
import type { RobotRunner } from './robot-types';

const OPTIMIZABLE = ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/tiff', 'image/avif'];

export const runImageOptimize: RobotRunner = async ({ robot, params, input, outDir }) => {
  if (!input.mime?.startsWith('image/')) return notAnImage(robot, input.mime);
  if (!OPTIMIZABLE.includes(input.mime)) {
    return { ok: false, code: 'INVALID_INPUT_ERROR', message: `${robot} cannot optimize ${input.mime} ("${input.name}").`, unsuitableInput: true };
  }
  const format = outputFormat(null, input.mime);
  const ratio = params.priority === 'compression-ratio';
  // The record keeps the upload's name; on disk it is a safe base name inside this step's folder.
  const target = outputFile(await outputDir(outDir, input.id), input.name);
  try {
    let img = sharp(input.localPath, { animated: format === 'gif' || format === 'webp' });
    if (params.preserve_meta_data !== false) img = img.keepMetadata();
    const hasAlpha = (await img.metadata()).hasAlpha === true;
    await encode(img, format, hasAlpha, {
      quality: format === 'jpeg' ? 85 : 80,
      progressive: params.progressive === true,
      background: '#FFFFFF',
      palette: params.lossy === true,
      effort: ratio ? 9 : 4,
    }).toFile(target);
  } catch (e) {
    return { ok: false, code: 'INVALID_INPUT_ERROR', message: `"${input.name}" could not be optimized: ${(e as Error).message}`, unsuitableInput: true };
  }
  if ((await stat(target)).size >= input.size) await copyFile(input.localPath, target);
  return { ok: true, files: [await describeResult(input, target, input.name)] };
};
