// /image/resize with sharp (service-facts §8 "Core robots"). Strategies: fit (default), min_fit,
// fillcrop, stretch, pad (exact box, background), crop (cut the box out at gravity, no scaling).

import sharp, { type Metadata, type Sharp } from 'sharp';
import { parseCrop, parseIntParam } from '../instructions/robot-params';
import { INSTRUCTION_LIMITS } from '../instructions/instruction-limits';
import { describeResult, type KnownOutput, type StoredFile } from './file-record';
import { embeddedMetaKeys } from './extract-meta';
import { completeBox, fitInside, placeByGravity, SHARP_POSITION, type Gravity } from './image-geometry';
import { encode, extensionOf, outputFormat, sharpColor } from './image-encode';
import { embedsNothing, encodesInMemory, rendersInMemory, writeEncodedImage, writeRenderedImage } from './image-output';
import { outputDir, outputFile } from './output-path';
import type { RobotFileOutcome, RobotRunner } from './robot-types';
import { wrongKind } from './unsuitable-input';

const isImage = (mime: string | null): boolean => mime?.startsWith('image/') === true;

export const notAnImage = (robot: string, mime: string | null): RobotFileOutcome => wrongKind('an image', robot, mime);

/**
 * Whether the output shows the whole input picture in its proportions, as the input's ThumbHash shows it
 * (displayed orientation, opaque): then that ThumbHash is the output's too. Pure.
 */
export function keepsWholePicture(o: { strategy: string; crop: boolean; rotation: unknown; orientation: number | undefined; hasAlpha: boolean; animated: boolean }): boolean {
  if (o.crop || o.hasAlpha || o.animated || typeof o.rotation === 'number') return false;
  // rotation: false leaves an EXIF-rotated input unturned, unlike its ThumbHash.
  if (o.rotation === false && (o.orientation ?? 1) > 1) return false;
  return o.strategy === 'fit' || o.strategy === 'min_fit';
}

/**
 * Whether the output embeds its input's metadata as the input's record read it: a JPEG upload written as
 * JPEG keeps its EXIF, XMP and IPTC blocks as they are (libvips updates only sizes, resolution and the
 * orientation, which the record reads from the pixels). An input that is itself a result may carry keys
 * a robot added to its meta, so only uploads qualify. Pure.
 */
export const copiesMetadataAsIs = (input: Pick<StoredFile, 'id' | 'original_id' | 'mime'>, format: string): boolean =>
  input.id === input.original_id && input.mime === 'image/jpeg' && format === 'jpeg';

/**
 * Pixels of the output before it is made: the box for the strategies that fill it (pad, crop, fillcrop,
 * stretch, and fit with one side given), the covering size for min_fit, the input's size without a box;
 * fit with two sides is at most its box. Pure.
 */
export function outputPixels(w0: number, h0: number, box: { W: number; H: number } | null, strategy: string): number {
  if (!box) return w0 * h0;
  if (strategy === 'min_fit') {
    const scale = Math.max(box.W / w0, box.H / h0);
    return Math.ceil(w0 * scale) * Math.ceil(h0 * scale);
  }
  return box.W * box.H;
}

export const runImageResize: RobotRunner = async ({ robot, params, input, outDir }) => {
  if (!isImage(input.mime)) return notAnImage(robot, input.mime);
  const width = parseIntParam(params.width);
  const height = parseIntParam(params.height);
  const strategy = typeof params.resize_strategy === 'string' ? params.resize_strategy : 'fit';
  const zoom = params.zoom !== false;
  const gravity = (typeof params.gravity === 'string' ? params.gravity : 'center') as Gravity;
  const background = sharpColor(params.background, '#FFFFFF');
  const format = outputFormat(params.format, input.mime);
  const quality = parseIntParam(params.quality) ?? 92;

  let meta: Metadata;
  try {
    meta = await sharp(input.localPath).metadata();
  } catch (e) {
    return { ok: false, code: 'INVALID_INPUT_ERROR', message: `"${input.name}" could not be read as an image: ${(e as Error).message}`, unsuitableInput: true };
  }
  const swapped = (meta.orientation ?? 1) >= 5;
  let w0 = (swapped ? meta.height : meta.width) ?? 1;
  let h0 = (swapped ? meta.width : meta.height) ?? 1;

  const crop = parseCrop(params.crop);
  // Animated GIF/WebP keep every frame when the output can hold them; cutting (crop) works on one frame.
  const animated = (meta.pages ?? 1) > 1 && (format === 'gif' || format === 'webp') && !crop && strategy !== 'crop' && typeof params.rotation !== 'number';
  // Auto-orient first, so every size below is the displayed size (rotation defaults to true).
  let img = sharp(input.localPath, { failOn: 'none', animated });
  if (params.rotation !== false && (meta.orientation ?? 1) > 1) img = img.rotate();
  if (typeof params.rotation === 'number' && params.rotation % 90 === 0) {
    img = sharp(await img.toBuffer()).rotate(params.rotation);
    if (Math.abs(params.rotation) % 180 === 90) [w0, h0] = [h0, w0];
  }
  if (crop && typeof crop !== 'string') {
    const left = Math.min(Math.round(crop.x1), w0 - 1);
    const top = Math.min(Math.round(crop.y1), h0 - 1);
    const cw = Math.max(1, Math.min(Math.round(crop.x2 - crop.x1), w0 - left));
    const ch = Math.max(1, Math.min(Math.round(crop.y2 - crop.y1), h0 - top));
    // Materialize the oriented, cropped image so later steps see its real size.
    img = sharp(await img.extract({ left, top, width: cw, height: ch }).toBuffer());
    [w0, h0] = [cw, ch];
  }

  const box = width !== null || height !== null ? completeBox(w0, h0, width, height) : null;
  const pixels = outputPixels(w0, h0, box, strategy);
  if (pixels > INSTRUCTION_LIMITS.outputPixels) {
    return {
      ok: false,
      code: 'IMAGE_RESIZE_OUTPUT_TOO_LARGE',
      message: `Resizing "${input.name}" (${w0} × ${h0}) as asked would make ${Math.round(pixels / 1e6)} megapixels; an image may have at most ${INSTRUCTION_LIMITS.outputPixels / 1e6} megapixels.`,
    };
  }
  if (box) {
    const position = SHARP_POSITION[gravity] ?? 'centre';
    switch (strategy) {
      case 'pad': {
        const inner = fitInside(w0, h0, box.W, box.H, zoom);
        const at = placeByGravity(box.W, box.H, inner.width, inner.height, gravity);
        img = img.resize(inner.width, inner.height, { fit: 'fill' }).extend({
          top: at.top, left: at.left, bottom: box.H - inner.height - at.top, right: box.W - inner.width - at.left, background,
        });
        break;
      }
      case 'crop': {
        const cw = Math.min(box.W, w0);
        const ch = Math.min(box.H, h0);
        const at = placeByGravity(w0, h0, cw, ch, gravity);
        img = img.extract({ left: at.left, top: at.top, width: cw, height: ch });
        break;
      }
      case 'fillcrop':
        img = img.resize(box.W, box.H, { fit: 'cover', position, withoutEnlargement: !zoom });
        break;
      case 'stretch':
        img = img.resize(box.W, box.H, { fit: 'fill', withoutEnlargement: !zoom });
        break;
      case 'min_fit':
        img = img.resize(box.W, box.H, { fit: 'outside', withoutEnlargement: !zoom });
        break;
      default:
        img = img.resize(width ?? undefined, height ?? undefined, { fit: 'inside', withoutEnlargement: !zoom });
    }
  }
  const strip = params.strip === true;
  if (!strip) img = img.keepMetadata();
  const encodeAs = (pixels: Sharp): Sharp => encode(pixels, format, meta.hasAlpha === true || strategy === 'pad', { quality, progressive: params.progressive === true, background });
  // min_fit covers its box, so its size is not bounded by it.
  const expectedPixels = box ? (strategy === 'min_fit' ? null : box.W * box.H) : w0 * h0;

  const name = `${input.basename}.${extensionOf(format)}`;
  const target = outputFile(await outputDir(outDir, input.id), input.basename, `.${extensionOf(format)}`);
  let known: KnownOutput | undefined;
  try {
    const output = { animated, expectedPixels };
    const samePicture = keepsWholePicture({ strategy, crop: crop !== null, rotation: params.rotation, orientation: meta.orientation, hasAlpha: meta.hasAlpha === true, animated });
    if (samePicture && input.thumbhash !== undefined && encodesInMemory(output)) {
      const embeddedMetadata = embedsNothing(meta, strip) ? false : copiesMetadataAsIs(input, format) ? embeddedMetaKeys(input.meta) : undefined;
      known = await writeEncodedImage(encodeAs(img), target, name, { thumbhash: input.thumbhash, embeddedMetadata });
    } else if (rendersInMemory(meta, { strip, ...output })) known = await writeRenderedImage(img, encodeAs, target, name);
    else await encodeAs(img).toFile(target);
  } catch (e) {
    return { ok: false, code: 'INVALID_INPUT_ERROR', message: `"${input.name}" could not be resized: ${(e as Error).message}`, unsuitableInput: true };
  }
  return { ok: true, files: [await describeResult(input, target, name, {}, known)] };
};
