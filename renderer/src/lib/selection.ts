/** Which preview a file gets: an image, a video's poster frame, an audio waveform, or its type icon. */
export type MediaKind = 'image' | 'video' | 'audio' | 'other';

const KIND_BY_EXT: readonly [RegExp, MediaKind][] = [
  [/\.(jpe?g|png|gif|webp|avif|tiff?|bmp|heic|heif|svg)$/i, 'image'],
  [/\.(mp4|m4v|mov|webm|mkv|avi|mpe?g|ogv|3gp|mts|m2ts)$/i, 'video'],
  [/\.(mp3|m4a|wav|flac|ogg|oga|opus|aac|aiff?)$/i, 'audio'],
];

/** By the MIME type, else (no type known) by the name's extension. */
export const mediaKindOf = (file: { readonly mime: string | null | undefined; readonly name: string }): MediaKind => {
  if (file.mime) {
    const top = file.mime.split('/')[0];
    return top === 'image' || top === 'video' || top === 'audio' ? top : 'other';
  }
  return KIND_BY_EXT.find(([pattern]) => pattern.test(file.name))?.[1] ?? 'other';
};

/** Whether a file of the draft gets an image preview (by its type, else by its name). */
export const isImageFile = (file: { readonly mime: string | null; readonly name: string }): boolean => mediaKindOf(file) === 'image';
