// One rule for the paths every store robot writes to (S3 and its siblings, FTP, SFTP, /transloadit/store): an
// empty folder is dropped, `a//b` → `a/b`. The vendor's own example path for /video/adaptive and
// /file/decompress results, "…/${file.meta.relative_path}/${file.name}", leaves one wherever a file sits at
// the top (relative_path ''): S3 would keep a key with an empty folder the playlist's relative links never
// reach, an asset path cannot hold an empty name, and FTP and SFTP servers read `a//b` as `a/b` anyway, so
// the recorded path and URL say where the file really is. Pure.

export const collapseSlashes = (path: string): string => path.replace(/\/{2,}/g, '/');
