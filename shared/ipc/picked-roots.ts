/**
 * Pure helpers both bridges use to turn picked files into top-level roots for `files:scan`. A file at
 * `/home/me/photos/sub/a.jpg` picked as `photos/sub/a.jpg` belongs to the root `/home/me/photos`; a loose
 * file (relative path = its name) is its own root. Handles `/` and `\` so Windows paths work too.
 */
export function rootForPickedFile(absolutePath: string, relativePath: string): string {
  const segments = relativePath.split('/').filter((s) => s.length > 0);
  let root = absolutePath.replace(/[\\/]+$/, '');
  // Strip one trailing segment of the absolute path per segment after the first of the relative path.
  for (let i = 1; i < segments.length; i += 1) {
    const cut = Math.max(root.lastIndexOf('/'), root.lastIndexOf('\\'));
    if (cut <= 0) return root;
    root = root.slice(0, cut);
  }
  return root;
}

/** Unique values in first-seen order (several files of one folder share a root). */
export function uniqueInOrder(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** The first segment of a relative path (`photos` for `photos/sub/a.jpg`). */
export function topSegment(relativePath: string): string {
  return relativePath.split('/').find((s) => s.length > 0) ?? relativePath;
}
