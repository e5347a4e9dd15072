// Writing an image robot's output so that describing it reads nothing again. Two ways:
// - a picture that keeps its input's whole content (a resize inside its box) is encoded in one pass to
//   memory, hashed there, and carries its input's ThumbHash (writeEncodedImage);
// - an output that carries nothing of its input but pixels (no EXIF, ICC, XMP or IPTC to keep, the default
//   density, 8-bit, no alpha) is rendered to pixels once: the file is encoded from them and its ThumbHash
//   taken from them (writeRenderedImage).
// Otherwise describing the result decodes the file it has just written a second time for the ThumbHash
// (about 5 ms for a 1024×768 JPEG) and hashes it again from disk.

import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';
import type { KnownOutput } from './file-record';
import { mimeFromHead } from './extract-meta';
import { THUMB_BOX, thumbhashFits } from './thumbhash';

/** Outputs up to this many pixels may be rendered in memory (3 or 4 bytes each). */
export const IN_MEMORY_MAX_PIXELS = 16_000_000;

/**
 * Whether an output can be rendered in memory without losing anything the written file would hold:
 * nothing of the input's metadata would be kept, it is one frame, and it is not too large. Pure.
 */
export function rendersInMemory(input: Partial<Pick<Metadata, 'exif' | 'icc' | 'xmp' | 'iptc' | 'density' | 'depth' | 'hasAlpha'>>, o: { strip: boolean; animated: boolean; expectedPixels: number | null }): boolean {
  if (!encodesInMemory(o)) return false;
  // An encoder that flattens alpha would work on pixels rounded to 8 bits: a level or two off the file pipeline.
  if (input.hasAlpha === true) return false;
  // A density other than the default, and 16-bit samples, are carried to the file by the pipeline, not by 8-bit raw pixels.
  return embedsNothing(input, o.strip) && (input.density === undefined || input.density === 72) && (input.depth === undefined || input.depth === 'uchar');
}

/** Whether an output may be encoded to memory and written from there: one frame, not too large. Pure. */
export const encodesInMemory = (o: { animated: boolean; expectedPixels: number | null }): boolean =>
  !o.animated && o.expectedPixels !== null && o.expectedPixels <= IN_MEMORY_MAX_PIXELS;

/** Whether the output file will embed none of the input's metadata (EXIF, ICC, XMP, IPTC). Pure. */
export const embedsNothing = (input: Partial<Pick<Metadata, 'exif' | 'icc' | 'xmp' | 'iptc'>>, strip: boolean): boolean =>
  strip || (!input.exif && !input.icc && !input.xmp && !input.iptc);

/** md5 and sha256 of bytes in memory. */
export const digestBytes = (bytes: Buffer): { md5: string; sha256: string } => ({
  md5: createHash('md5').update(bytes).digest('hex'),
  sha256: createHash('sha256').update(bytes).digest('hex'),
});

/** ThumbHash (base64) of raw pixels already oriented as displayed; null over the size limit or on failure. */
async function thumbhashOfPixels(data: Buffer, raw: { width: number; height: number; channels: 1 | 2 | 3 | 4 }): Promise<string | null> {
  if (!thumbhashFits(raw.width, raw.height)) return null;
  try {
    const small = await sharp(data, { raw }).resize(THUMB_BOX, THUMB_BOX, { fit: 'inside' }).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    return Buffer.from(rgbaToThumbHash(small.info.width, small.info.height, small.data)).toString('base64');
  } catch {
    return null;
  }
}

/**
 * Renders `pipeline` (everything but the encoder) to pixels, encodes them with `encodeAs` into `target`
 * and returns what the result record needs from the bytes: digests, mime and ThumbHash.
 */
export async function writeRenderedImage(pipeline: Sharp, encodeAs: (img: Sharp) => Sharp, target: string, name: string): Promise<KnownOutput> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  const raw = { width: info.width, height: info.height, channels: info.channels as 1 | 2 | 3 | 4 };
  const [bytes, thumbhash] = await Promise.all([encodeAs(sharp(data, { raw })).toBuffer(), thumbhashOfPixels(data, raw)]);
  await writeFile(target, bytes);
  return { ...knownBytes(bytes, name), thumbhash, embeddedMetadata: false };
}

/**
 * Encodes `encoded` (the whole pipeline, encoder included) in one pass to memory, writes it to `target`,
 * and returns what the result record needs, with the ThumbHash the caller knows the picture has (a
 * resize's input's, when it kept the whole picture): taking it again from the output costs about 7 ms of
 * a 12 MP → 1024×768 JPEG resize's 100, for the same value at ThumbHash's 100 px.
 */
export async function writeEncodedImage(encoded: Sharp, target: string, name: string, o: Required<Pick<KnownOutput, 'thumbhash'>> & Pick<KnownOutput, 'embeddedMetadata'>): Promise<KnownOutput> {
  const bytes = await encoded.toBuffer();
  await writeFile(target, bytes);
  return { ...knownBytes(bytes, name), thumbhash: o.thumbhash, ...(o.embeddedMetadata !== undefined ? { embeddedMetadata: o.embeddedMetadata } : {}) };
}

const knownBytes = (bytes: Buffer, name: string): Pick<KnownOutput, 'digests' | 'mime' | 'size'> => ({
  digests: digestBytes(bytes),
  mime: mimeFromHead(bytes.subarray(0, 512), name) ?? undefined,
  size: bytes.length,
});
