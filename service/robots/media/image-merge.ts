// /image/merge with sharp: the images side by side (`direction` horizontal, the default), one under
// another (vertical) or in a grid (`columns`/`rows`, `cell_width`/`cell_height` cells the images are fitted
// into), `border` pixels apart on `background` (#fff; "none"/"transparent" keeps alpha in png and webp).
// Images are centred in their row, column or cell; the canvas is at most 100 megapixels.

import sharp from 'sharp';
import { INSTRUCTION_LIMITS } from '../../instructions/instruction-limits';
import { describeResult } from '../file-record';
import { outputDir, outputFile } from '../output-path';
import type { BundleRunner } from '../robot-types';
import { unsuitable } from '../unsuitable-input';
import { numParam } from './media-job';
import { isImage, joinOrder, withRoles } from './media-inputs';

/** The grid's columns and rows for n images: as given, one from the other, or a near-square. Pure. */
export function gridShape(n: number, columns?: number, rows?: number): { columns: number; rows: number } {
  if (columns && rows) return { columns, rows: Math.max(rows, Math.ceil(n / columns)) };
  if (columns) return { columns, rows: Math.ceil(n / columns) };
  if (rows) return { columns: Math.ceil(n / rows), rows };
  const c = Math.ceil(Math.sqrt(n));
  return { columns: c, rows: Math.ceil(n / c) };
}

/** Where each image goes and the canvas size. Pure. */
export function layout(sizes: { width: number; height: number }[], o: { direction: string; border: number; columns?: number; rows?: number; cellWidth?: number; cellHeight?: number }): { width: number; height: number; boxes: { left: number; top: number; width: number; height: number }[] } {
  const gap = Math.max(0, o.border);
  if (o.direction === 'grid') {
    const { columns, rows } = gridShape(sizes.length, o.columns, o.rows);
    const cw = o.cellWidth ?? Math.max(...sizes.map((s) => s.width));
    const ch = o.cellHeight ?? Math.max(...sizes.map((s) => s.height));
    const boxes = sizes.map((s, i) => {
      // Given cells: each image fitted into its cell; else the cells are as large as the largest image.
      const fit = o.cellWidth || o.cellHeight ? Math.min(cw / s.width, ch / s.height) : 1;
      const width = Math.max(1, Math.round(s.width * fit));
      const height = Math.max(1, Math.round(s.height * fit));
      const col = i % columns;
      const row = Math.floor(i / columns);
      return { left: col * (cw + gap) + Math.floor((cw - width) / 2), top: row * (ch + gap) + Math.floor((ch - height) / 2), width, height };
    });
    return { width: columns * cw + (columns - 1) * gap, height: rows * ch + (rows - 1) * gap, boxes };
  }
  const horizontal = o.direction !== 'vertical';
  const across = horizontal ? Math.max(...sizes.map((s) => s.height)) : Math.max(...sizes.map((s) => s.width));
  let at = 0;
  const boxes = sizes.map((s) => {
    const box = horizontal
      ? { left: at, top: Math.floor((across - s.height) / 2), width: s.width, height: s.height }
      : { left: Math.floor((across - s.width) / 2), top: at, width: s.width, height: s.height };
    at += (horizontal ? s.width : s.height) + gap;
    return box;
  });
  const along = at - gap;
  return horizontal ? { width: along, height: across, boxes } : { width: across, height: along, boxes };
}

const color = (v: unknown): string => {
  if (typeof v !== 'string' || v === '') return '#ffffff';
  if (v === 'none' || v === 'transparent') return '#00000000';
  return /^[0-9a-f]{3,8}$/i.test(v) ? `#${v}` : v;
};

export const runImageMerge: BundleRunner = async ({ params, inputs, outDir }) => {
  const images = joinOrder(withRoles(params.use, inputs), params.sort_by).map((r) => r.file).filter(isImage);
  if (images.length === 0) return unsuitable('Not an image: /image/merge needs images to merge');
  const sizes = await Promise.all(images.map(async (f) => {
    const m = await sharp(f.localPath).rotate().metadata();
    const turned = (m.orientation ?? 1) >= 5;
    return { width: (turned ? m.height : m.width) ?? 1, height: (turned ? m.width : m.height) ?? 1 };
  }));
  const opt = (k: string) => (params[k] === undefined || params[k] === null ? undefined : numParam(params[k], 0));
  const plan = layout(sizes, { direction: String(params.direction ?? 'horizontal'), border: numParam(params.border, 0), columns: opt('columns'), rows: opt('rows'), cellWidth: opt('cell_width'), cellHeight: opt('cell_height') });
  if (plan.width * plan.height > INSTRUCTION_LIMITS.outputPixels) {
    return { ok: false, code: 'IMAGE_MERGE_VALIDATION', message: `The merged image would be ${plan.width} × ${plan.height} pixels; an image may have at most ${INSTRUCTION_LIMITS.outputPixels / 1e6} megapixels.` };
  }
  const layers = await Promise.all(images.map(async (f, i) => {
    const box = plan.boxes[i]!;
    const input = await sharp(f.localPath).rotate().resize(box.width, box.height, { fit: 'fill' }).png().toBuffer();
    return { input, left: box.left, top: box.top };
  }));
  const format = params.format === 'jpg' || params.format === 'webp' ? params.format : 'png';
  const quality = Math.round(numParam(params.quality, 100));
  let canvas = sharp({ create: { width: plan.width, height: plan.height, channels: 4, background: color(params.background) } }).composite(layers);
  canvas = format === 'jpg' ? canvas.flatten({ background: color(params.background) === '#00000000' ? '#ffffff' : color(params.background) }).jpeg({ quality }) : format === 'webp' ? canvas.webp({ quality }) : canvas.png({ adaptiveFiltering: params.adaptive_filtering === true });
  const lead = images[0]!;
  const dir = await outputDir(outDir, lead.id);
  const target = outputFile(dir, lead.basename, `.${format}`);
  await canvas.toFile(target);
  return { ok: true, files: [await describeResult(lead, target, `${lead.basename}.${format}`, { merged_files: images.length })] };
};
