import { stat } from 'node:fs/promises';
import sharp, { type Sharp } from 'sharp';
import { mediaPreviewer, type MediaKind, type MediaPreview, type MediaPreviewer } from './media-previews';
import { isPreviewableImage, mimeFromName } from './mime-types';

export interface RemoteThumbnailOptions {
  /** Refuse bigger downloads: a preview is not worth it. */
  maxBytes?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;

/** Which preview a file gets, by its MIME type. */
export const mediaKindOf = (mime: string | null | undefined): MediaKind =>
  !mime ? 'other' : mime.startsWith('image/') ? 'image' : mime.startsWith('video/') ? 'video' : mime.startsWith('audio/') ? 'audio' : 'other';

/**
 * The preview of a picked file: sharp for images, ffmpeg for video (poster frame) and audio (waveform).
 * Media previews are cached by path, size and modification time, so an edited file gets a new one.
 */
export async function previewFile(path: string, size: number, previewer: MediaPreviewer = mediaPreviewer): Promise<MediaPreview> {
  const kind = mediaKindOf(mimeFromName(path));
  if (kind === 'image') return { kind, duration: null, dataUrl: await thumbnailFromFile(path, size) };
  if (kind === 'other') return { kind, duration: null, dataUrl: null };
  const info = await stat(path);
  return previewer.preview({ path }, kind, size, `${path}|${info.size}|${info.mtimeMs}`);
}

export interface ResultFacts {
  /** The type the run's status record gave the file. */
  readonly mime?: string | null;
  readonly duration?: number | null;
}

/** The preview of a result URL; video and audio are read by ffmpeg over HTTP (it seeks with ranges). */
export async function previewUrl(url: string, size: number, facts: ResultFacts = {}, options: RemoteThumbnailOptions & { previewer?: MediaPreviewer; ca?: readonly string[] | null } = {}): Promise<MediaPreview> {
  const kind = mediaKindOf(facts.mime ?? mimeFromName(new URL(url).pathname));
  // ffmpeg trusts what `fetch` trusts: the workspace's CA list (its CA file), else the system's.
  if (kind === 'video' || kind === 'audio') return (options.previewer ?? mediaPreviewer).preview({ url, ca: options.ca ?? null }, kind, size, url, facts.duration ?? null);
  // Images, and files of no known type (the response's own type decides): the existing sharp path.
  const dataUrl = await thumbnailFromUrl(url, size, options);
  return { kind: dataUrl ? 'image' : kind, duration: null, dataUrl };
}

/** A JPEG data: URL fitting inside size × size; null when the file is not an image sharp can read. */
export async function thumbnailFromFile(path: string, size: number): Promise<string | null> {
  if (!isPreviewableImage(mimeFromName(path))) return null;
  return render(sharp(path, { failOn: 'none', limitInputPixels: 268_402_689 }), size);
}

/** Same for a result URL, fetched by core so the renderer needs no network. */
export async function thumbnailFromUrl(url: string, size: number, options: RemoteThumbnailOptions = {}): Promise<string | null> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const response = await (options.fetch ?? fetch)(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 15_000) });
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new Error(`Could not fetch the preview: HTTP ${response.status}.`);
  }
  return thumbnailFromResponse(response, size, { maxBytes, name: new URL(url).pathname });
}

/**
 * The thumbnail of an open response's body (a signed request core made: a stored asset's bytes); null
 * when neither its type nor `name` is an image sharp can read, or it is larger than `maxBytes`.
 */
export async function thumbnailFromResponse(response: Response, size: number, options: { maxBytes?: number; name?: string } = {}): Promise<string | null> {
  if (!response.body) return null;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const type = response.headers.get('content-type')?.split(';')[0]?.trim() ?? null;
  const fromName = options.name ? mimeFromName(options.name) : null;
  if (!isPreviewableImage(type) && !isPreviewableImage(fromName)) {
    await response.body.cancel();
    return null;
  }
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body.cancel();
    return null;
  }
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of response.body) {
    total += chunk.byteLength;
    if (total > maxBytes) return null; // leaving the loop cancels the stream
    chunks.push(chunk);
  }
  return render(sharp(Buffer.concat(chunks), { failOn: 'none' }), size);
}

async function render(image: Sharp, size: number): Promise<string | null> {
  try {
    const jpeg = await image.rotate().resize(size, size, { fit: 'inside', withoutEnlargement: true }).flatten({ background: '#ffffff' }).jpeg({ quality: 72 }).toBuffer();
    return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
  } catch {
    // Not decodable (truncated, or a format sharp lacks): no preview rather than an error.
    return null;
  }
}
