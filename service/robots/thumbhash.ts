// ThumbHash placeholders for image file records (spec: file record `thumbhash`; docs/libraries.md): the
// image as displayed (EXIF orientation applied), shrunk by sharp to at most 100×100 RGBA, encoded by the
// `thumbhash` package, base64. None over 40 megapixels, for non-images, or when anything fails.

import sharp from 'sharp';
import { rgbaToThumbHash } from 'thumbhash';

export const THUMBHASH_MAX_PIXELS = 40_000_000;
/** ThumbHash works on images up to 100×100. */
export const THUMB_BOX = 100;

/** Whether an image of this size gets a thumbhash. Pure. */
export const thumbhashFits = (width: unknown, height: unknown): boolean =>
  typeof width === 'number' && typeof height === 'number' && width > 0 && height > 0 && width * height <= THUMBHASH_MAX_PIXELS;

/** The base64 ThumbHash of an image file with the given metadata, or undefined (see the note at the top). */
export async function imageThumbhash(localPath: string, mime: string | null, meta: Record<string, unknown>): Promise<string | undefined> {
  if (!mime?.startsWith('image/') || !thumbhashFits(meta.width, meta.height)) return undefined;
  try {
    const { data, info } = await sharp(localPath, { limitInputPixels: THUMBHASH_MAX_PIXELS })
      .rotate()
      .resize(THUMB_BOX, THUMB_BOX, { fit: 'inside' })
      .ensureAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return Buffer.from(rgbaToThumbHash(info.width, info.height, data)).toString('base64');
  } catch {
    return undefined;
  }
}
