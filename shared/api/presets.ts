import type { Steps } from './instructions';

/** Ready-made step sets offered on the Upload view. They run on the local service and on the real one. */
export interface Preset {
  readonly id: string;
  readonly label: string;
  readonly description: string;
  readonly steps: Steps;
}

export const PRESETS: readonly Preset[] = [
  {
    id: 'resize-1024',
    label: 'Resize images to 1024 px',
    description: 'Keeps images, fits larger ones inside 1024 × 1024 (smaller ones keep their size), JPEG quality 85.',
    steps: {
      ':original': { robot: '/upload/handle' },
      images: { robot: '/file/filter', use: ':original', accepts: [['${file.mime}', 'regex', 'image']] },
      resized: {
        robot: '/image/resize',
        use: 'images',
        width: 1024,
        height: 1024,
        resize_strategy: 'fit',
        // "Resize to" shrinks: a 100 × 68 photo stays 100 × 68 (the robot enlarges by default).
        zoom: false,
        quality: 85,
        result: true,
      },
    },
  },
  {
    id: 'thumbs-256',
    label: 'Make 256 px thumbnails',
    description: 'Square 256 px crops of every image, as JPEG.',
    steps: {
      ':original': { robot: '/upload/handle' },
      images: { robot: '/file/filter', use: ':original', accepts: [['${file.mime}', 'regex', 'image']] },
      thumbs: {
        robot: '/image/resize',
        use: 'images',
        width: 256,
        height: 256,
        resize_strategy: 'fillcrop',
        format: 'jpg',
        result: true,
      },
    },
  },
  {
    id: 'store-originals',
    label: 'Just store the originals',
    description: 'Uploads the files and keeps them as they are.',
    steps: { ':original': { robot: '/upload/handle', result: true } },
  },
];
