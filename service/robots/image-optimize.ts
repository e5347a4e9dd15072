// /image/optimize: re-encodes in the same format with stronger compression, and keeps the original
// bytes when that would not make the file smaller.

import { copyFile, writeFile } from 'node:fs/promises';
import sharp from 'sharp';
import { describeResult, digestFile } from './file-record';
import { encode, outputFormat } from './image-encode';
import { digestBytes } from './image-output';
import { copiesMetadataAsIs, notAnImage } from './image-resize';
import { embeddedMetaKeys } from './extract-meta';
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
  const keep = params.preserve_meta_data !== false;
  let bytes: Buffer;
  try {
    let img = sharp(input.localPath, { animated: format === 'gif' || format === 'webp' });
    if (keep) img = img.keepMetadata();
    const meta = await img.metadata();
    bytes = await encode(img, format, meta.hasAlpha === true, {
      quality: format === 'jpeg' ? 85 : 80,
      progressive: params.progressive === true,
      background: '#FFFFFF',
      palette: params.lossy === true,
      effort: ratio ? 9 : 4,
    }).toBuffer();
  } catch (e) {
    return { ok: false, code: 'INVALID_INPUT_ERROR', message: `"${input.name}" could not be optimized: ${(e as Error).message}`, unsuitableInput: true };
  }
  // The same picture either way: its record needs nothing read back but the file's dates and pixel facts.
  const known = { mime: input.mime, thumbhash: input.thumbhash ?? null };
  if (bytes.length >= input.size) {
    await copyFile(input.localPath, target);
    const asIs = input.id === input.original_id ? embeddedMetaKeys(input.meta) : undefined;
    return { ok: true, files: [await describeResult(input, target, input.name, {}, { ...known, digests: input.md5hash && input.sha256 ? { md5: input.md5hash, sha256: input.sha256 } : await digestFile(target), size: input.size, ...(asIs ? { embeddedMetadata: asIs } : {}) })] };
  }
  await writeFile(target, bytes);
  const embeddedMetadata = !keep ? false : copiesMetadataAsIs(input, format) ? embeddedMetaKeys(input.meta) : undefined;
  return { ok: true, files: [await describeResult(input, target, input.name, {}, { ...known, digests: digestBytes(bytes), size: bytes.length, ...(embeddedMetadata !== undefined ? { embeddedMetadata } : {}) })] };
};
