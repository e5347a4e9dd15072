import type { TemplateRow } from './template-record';

/**
 * Built-in Templates: read-only, shared by every account, with versioned ids `builtin/<slug>@<version>`
 * (service-facts.md §10). Each one really runs on the local service. `@latest` resolves to the newest.
 */
interface Builtin {
  slug: string;
  version: string;
  name: string;
  description: string;
  content: Record<string, unknown>;
}

const ORIGINAL = { ':original': { robot: '/upload/handle' } };
const IMAGES_ONLY = { robot: '/file/filter', use: ':original', accepts: [['${file.mime}', 'regex', '^image/']], error_on_decline: false };
// Built-ins were published on a fixed date; fixed timestamps keep lists stable across restarts.
const PUBLISHED_MS = Date.UTC(2026, 0, 15, 12, 0, 0);

const BUILTINS: readonly Builtin[] = [
  {
    slug: 'image-resize',
    version: '0.0.1',
    name: 'Resize images to 1024 px',
    description: 'Fits every image into 1024 × 1024 px, keeping its format.',
    content: { steps: { ...ORIGINAL, resized: { robot: '/image/resize', use: ':original', width: 1024, height: 1024, resize_strategy: 'fit' } } },
  },
  {
    slug: 'image-resize',
    version: '0.0.2',
    name: 'Resize images to 1024 px',
    description: 'Fits every image into 1024 × 1024 px; other files are skipped instead of failing the Assembly.',
    content: {
      steps: { ...ORIGINAL, images: IMAGES_ONLY, resized: { robot: '/image/resize', use: 'images', width: 1024, height: 1024, resize_strategy: 'fit' } },
    },
  },
  {
    slug: 'image-thumbnail',
    version: '0.0.1',
    name: 'Square 256 px thumbnails',
    description: 'A 256 × 256 px JPEG thumbnail of every image, cropped to fill.',
    content: {
      steps: { ...ORIGINAL, images: IMAGES_ONLY, thumbnail: { robot: '/image/resize', use: 'images', width: 256, height: 256, resize_strategy: 'fillcrop', format: 'jpg' } },
    },
  },
  {
    slug: 'video-encode',
    version: '0.0.1',
    name: 'Encode videos for the web',
    description: 'H.264/AAC MP4 of every video, at most 1280 × 720, and a thumbnail of each.',
    content: {
      steps: {
        ...ORIGINAL,
        videos: { robot: '/file/filter', use: ':original', accepts: [['${file.mime}', 'regex', '^video/']], error_on_decline: false },
        encoded: { robot: '/video/encode', use: 'videos', width: 1280, height: 720, resize_strategy: 'fit' },
        thumbs: { robot: '/video/thumbs', use: 'videos', count: 1 },
      },
    },
  },
  {
    slug: 'store-originals',
    version: '0.0.1',
    name: 'Just store the originals',
    description: 'Keeps every uploaded file as it is, with its metadata.',
    content: { steps: ORIGINAL },
  },
];

const versionKey = (v: string): number[] => v.split('.').map((n) => Number(n) || 0);
const newer = (a: string, b: string): boolean => {
  const [x, y] = [versionKey(a), versionKey(b)];
  for (let i = 0; i < Math.max(x.length, y.length); i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return false;
};

const toRow = (b: Builtin): TemplateRow => ({
  id: `builtin/${b.slug}@${b.version}`,
  name: `builtin/${b.slug}`,
  content: b.content,
  requireSignatureAuth: 0,
  description: `${b.name}. ${b.description}`,
  createdMs: PUBLISHED_MS,
  modifiedMs: PUBLISHED_MS,
  lastUsedMs: null,
  builtinVersion: b.version,
});

export const isBuiltinId = (id: string): boolean => id.startsWith('builtin/');

/** Every version, slug by slug, newest version first within a slug. */
export function builtinTemplates(which: 'all' | 'latest'): TemplateRow[] {
  const slugs = [...new Set(BUILTINS.map((b) => b.slug))];
  return slugs.flatMap((slug) => {
    const versions = BUILTINS.filter((b) => b.slug === slug).sort((a, b) => (newer(a.version, b.version) ? -1 : 1));
    return (which === 'latest' ? versions.slice(0, 1) : versions).map(toRow);
  });
}

/** `builtin/<slug>`, `builtin/<slug>@latest` or `builtin/<slug>@<version>`; null when there is none. */
export function findBuiltin(id: string): TemplateRow | null {
  const m = /^builtin\/([a-z0-9-]+)(?:@([0-9A-Za-z.+-]+))?$/.exec(id);
  if (!m) return null;
  const [, slug, version] = m;
  const versions = builtinTemplates('all').filter((t) => t.name === `builtin/${slug}`);
  if (!version || version === 'latest') return versions[0] ?? null;
  return versions.find((t) => t.builtinVersion === version) ?? null;
}
