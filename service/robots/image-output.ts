// Writing an image robot's output. When the output carries nothing of its input but pixels (no EXIF, ICC,
// XMP or IPTC to keep, the default density, 8-bit, no alpha), the pipeline renders its pixels once, in memory: the file is
// encoded from them and its ThumbHash taken from them. Otherwise describing the result decoded the file
// it had just written a second time for the ThumbHash (about 5 ms for a 1024×768 JPEG, most of a result
// record's cost), and hashed it again from disk.

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
  if (o.animated || o.expectedPixels === null || o.expectedPixels > IN_MEMORY_MAX_PIXELS) return false;
  // An encoder that flattens alpha would work on pixels rounded to 8 bits: a level or two off the file pipeline.
  if (input.hasAlpha === true) return false;
  const keepsNothing = o.strip || (!input.exif && !input.icc && !input.xmp && !input.iptc);
  // A density other than the default, and 16-bit samples, are carried to the file by the pipeline, not by 8-bit raw pixels.
  return keepsNothing && (input.density === undefined || input.density === 72) && (input.depth === undefined || input.depth === 'uchar');
}

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
 * `sameThumbhash`: a ThumbHash known to show this picture already (a resize's input, when the resize kept
 * the whole picture and its proportions): then the pipeline runs in one pass to encoded bytes, and no
 * ThumbHash is taken (about 7 ms of a 12 MP → 1024×768 JPEG resize's 100, for the same value at 100 px).
 */
export async function writeRenderedImage(pipeline: Sharp, encodeAs: (img: Sharp) => Sharp, target: string, name: string, sameThumbhash?: string): Promise<KnownOutput> {
  let bytes: Buffer;
  let thumbhash: string | null;
  if (sameThumbhash !== undefined) {
    bytes = await encodeAs(pipeline).toBuffer();
    thumbhash = sameThumbhash;
  } else {
    const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
    const raw = { width: info.width, height: info.height, channels: info.channels as 1 | 2 | 3 | 4 };
    [bytes, thumbhash] = await Promise.all([encodeAs(sharp(data, { raw })).toBuffer(), thumbhashOfPixels(data, raw)]);
  }
  await writeFile(target, bytes);
  return { digests: digestBytes(bytes), mime: mimeFromHead(bytes.subarray(0, 512), name) ?? undefined, size: bytes.length, thumbhash, embeddedMetadata: false };
}
