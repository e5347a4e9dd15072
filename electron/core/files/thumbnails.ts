import sharp, { type Sharp } from 'sharp';
import { isPreviewableImage, mimeFromName } from './mime-types';

export interface RemoteThumbnailOptions {
  /** Refuse bigger downloads: a preview is not worth it. */
  maxBytes?: number;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const DEFAULT_MAX_BYTES = 50 * 1024 * 1024;

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
  const type = response.headers.get('content-type')?.split(';')[0]?.trim() ?? null;
  const fromName = mimeFromName(new URL(url).pathname);
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
