// /file/verify: passes a file on only when it really is what `verify_to_be` names — a kind (`image`,
// `video`, `audio`, `document`, `archive`), a subtype or extension (`pdf`, `png`), or a media type
// (`image/png`, `image/*`) — judged from its bytes, not its name: the media type sniffed from its content,
// and the reading of it that worked (an image sharp decodes, a video or audio ffprobe gives a duration, a
// PDF with pages). A declined file is dropped, or fails the Assembly with FILE_VERIFY_INVALID_FILE when
// `error_on_decline` is set.

import sharp from 'sharp';
import type { StoredFile } from './file-record';
import type { RobotRunner } from './robot-types';

export const DEFAULT_VERIFY_DECLINE = 'One of your files was declined';
const KINDS = new Set(['image', 'video', 'audio', 'document', 'archive']);

/** Whether the sniffed media type and kind match what `verify_to_be` asks for. Pure. */
export function typeMatches(want: string, file: Pick<StoredFile, 'mime' | 'type'>): boolean {
  const w = want.trim().toLowerCase();
  const mime = (file.mime ?? '').toLowerCase();
  if (w === '') return false;
  if (w.includes('/')) return w.endsWith('/*') ? mime.startsWith(w.slice(0, -1)) : mime === w;
  if (KINDS.has(w)) return file.type === w;
  // A subtype: "pdf" is application/pdf, "png" image/png, "mp4" video/mp4, "jpg" image/jpeg.
  const sub = mime.split('/')[1] ?? '';
  return sub === w || sub === `x-${w}` || (w === 'jpg' && sub === 'jpeg') || sub.split('+')[0] === w;
}

/** Whether the file reads as what its media type says (a decodable image, a playable stream, a PDF with pages). */
async function readsAsItsType(file: StoredFile): Promise<boolean> {
  const mime = file.mime ?? '';
  if (mime.startsWith('image/')) {
    try {
      // Decoding a 1-pixel version reads the whole image: a truncated file fails here.
      await sharp(file.localPath, { failOn: 'error' }).resize(1, 1).raw().toBuffer();
      return true;
    } catch {
      return false;
    }
  }
  if (mime.startsWith('video/') || mime.startsWith('audio/')) return typeof file.meta.duration === 'number' && file.meta.duration > 0;
  if (mime === 'application/pdf') return typeof file.meta.page_count === 'number' && file.meta.page_count > 0;
  return file.size > 0;
}

export const runFileVerify: RobotRunner = async ({ params, input }) => {
  const want = typeof params.verify_to_be === 'string' ? params.verify_to_be : 'pdf';
  const ok = typeMatches(want, input) && (await readsAsItsType(input));
  if (ok) return { ok: true, files: [input] };
  if (params.error_on_decline === true) {
    const message = typeof params.error_msg === 'string' && params.error_msg !== '' ? params.error_msg : DEFAULT_VERIFY_DECLINE;
    return { ok: false, code: 'FILE_VERIFY_INVALID_FILE', message };
  }
  return { ok: true, files: [], note: `Not a valid ${want} (it is ${input.mime ?? 'of an unknown type'}${typeMatches(want, input) ? ', and does not read as one' : ''})` };
};
