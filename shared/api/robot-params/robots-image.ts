// The /image/* robots the app knows (service-facts §8 "Core robots"; the vendor's robot docs).

import { anyOf, bool, color, int, json, list, num, oneOf, text } from './param-kinds';
import { IMAGEMAGICK_PARAMS, POSITIONS, RESIZE_STRATEGIES, type RobotParams } from './robots-base';

const ALPHA = ['Activate', 'Background', 'Copy', 'Deactivate', 'Extract', 'Off', 'On', 'Opaque', 'Remove', 'Set', 'Shape', 'Transparent'];
export const COLORSPACES = [
  'CMY', 'CMYK', 'Gray', 'HCL', 'HCLp', 'HSB', 'HSI', 'HSL', 'HSV', 'HWB', 'Jzazbz', 'Lab', 'LCHab', 'LCHuv', 'LMS', 'Log', 'Luv', 'OHTA',
  'OkLab', 'OkLCH', 'Rec601YCbCr', 'Rec709YCbCr', 'RGB', 'scRGB', 'sRGB', 'Transparent', 'Undefined', 'xyY', 'XYZ', 'YCbCr', 'YCC', 'YDbDr',
  'YIQ', 'YPbPr', 'YUV',
];

export const IMAGE_ROBOTS: Readonly<Record<string, RobotParams>> = {
  '/image/resize': {
    ...IMAGEMAGICK_PARAMS,
    // Any format ImageMagick writes (null keeps the input's): the local service runs fewer (its own rule).
    format: text(),
    width: int(1, 25000),
    height: int(1, 25000),
    resize_strategy: oneOf(RESIZE_STRATEGIES),
    zoom: bool(),
    // {x1, y1, x2, y2} or its JSON text: the service reads the coordinates.
    crop: json(),
    gravity: oneOf(POSITIONS),
    strip: bool(),
    alpha: oneOf(ALPHA),
    preclip_alpha: oneOf(ALPHA),
    flatten: bool(),
    correct_gamma: bool(),
    quality: int(1, 100),
    adaptive_filtering: bool(),
    background: color(),
    frame: int(1),
    colorspace: oneOf(COLORSPACES),
    type: oneOf(['Bilevel', 'ColorSeparation', 'ColorSeparationAlpha', 'Grayscale', 'GrayscaleAlpha', 'Palette', 'PaletteAlpha', 'TrueColor', 'TrueColorAlpha']),
    sepia: int(0, 99),
    rotation: anyOf(num(), bool(), oneOf(['auto'])),
    compress: oneOf(['BZip', 'Fax', 'Group4', 'JPEG', 'JPEG2000', 'Lossless', 'LZW', 'None', 'RLE', 'Zip']),
    blur: text(),
    blur_regions: json(),
    brightness: num(0),
    saturation: num(0),
    hue: num(0),
    contrast: num(0, 2),
    watermark_url: text(),
    watermark_position: anyOf(oneOf(POSITIONS), list(oneOf(POSITIONS))),
    watermark_x_offset: int(),
    watermark_y_offset: int(),
    watermark_size: text(),
    watermark_resize_strategy: oneOf(['area', 'fit', 'min_fit', 'stretch']),
    watermark_opacity: num(0, 1),
    watermark_repeat_x: bool(),
    watermark_repeat_y: bool(),
    text: json(),
    progressive: bool(),
    transparent: text(),
    trim_whitespace: bool(),
    clip: anyOf(text(), bool()),
    negate: bool(),
    clut: bool(),
    density: text(),
    monochrome: bool(),
    shave: anyOf(text(), int(0)),
  },
  '/image/optimize': {
    priority: oneOf(['compression-ratio', 'conversion-speed']),
    progressive: bool(),
    preserve_meta_data: bool(),
    fix_breaking_images: bool(),
    lossy: bool(),
  },
};
