import type { JSX } from 'react';
import { useBridgeQuery } from '../bridge/use-bridge';
import { useDelayed } from '../hooks/use-delayed';
import { formatPlayTime } from '../lib/format';
import { thumbhashUrl } from '../lib/thumbhash-url';
import type { MediaKind } from '../lib/selection';
import { AudioIcon, FileIcon, ImageIcon, PlayGlyph, VideoIcon } from './Icons';

/**
 * A reserved square that fills in with a data: URL preview core made: the image, a video's poster frame
 * (with a play glyph), an audio file's waveform; video and audio also show their length. Anything without
 * a preview (another type, no ffmpeg, an unreadable file) keeps its type icon, never an error.
 */
export const LocalThumbnail = ({ handle, relativePath, kind, size }: { handle: string; relativePath: string; kind: MediaKind; size: number }) => {
  const ready = useDelayed(120);
  const thumb = useBridgeQuery('files:thumbnail', { handle, relativePath, size: size * 2 }, { enabled: kind !== 'other' && ready, staleTime: Infinity, gcTime: 5 * 60_000 });
  return <ThumbBox size={size} kind={kind} dataUrl={thumb.data?.dataUrl ?? null} duration={thumb.data?.duration ?? null} />;
};

/**
 * A result of a run of this app (`runId`), or of any Assembly of the workspace (`assemblyId`). With the
 * record's `thumbhash`, its blurred placeholder shows at once and stays under the preview as it loads.
 */
export const ResultThumbnail = ({ runId, assemblyId, url, kind, size, thumbhash = null }: { runId?: string; assemblyId?: string; url: string | null; kind: MediaKind; size: number; thumbhash?: string | null }) => {
  const owner = runId !== undefined ? { runId } : { assemblyId: assemblyId ?? '' };
  const thumb = useBridgeQuery('results:thumbnail', { ...owner, url: url ?? 'about:blank', size: Math.min(512, size * 2) }, { enabled: kind !== 'other' && url !== null, staleTime: Infinity });
  return <ThumbBox size={size} kind={kind} dataUrl={thumb.data?.dataUrl ?? null} duration={thumb.data?.duration ?? null} placeholder={thumbhashUrl(thumbhash)} />;
};

const ICONS: Record<MediaKind, () => JSX.Element> = { image: ImageIcon, video: VideoIcon, audio: AudioIcon, other: FileIcon };

const ThumbBox = ({ size, kind, dataUrl, duration, placeholder = null }: { size: number; kind: MediaKind; dataUrl: string | null; duration: number | null; placeholder?: string | null }) => {
  const Icon = ICONS[kind];
  const length = duration !== null && (kind === 'video' || kind === 'audio') ? formatPlayTime(duration) : null;
  return (
    <span
      className={`thumb thumb-${kind}${size < 48 ? ' thumb-small' : ''}${placeholder ? ' thumb-placeheld' : ''}`}
      style={{ width: size, height: size }}
      data-testid="thumb"
      data-kind={kind}
      data-preview={dataUrl ? 'ready' : placeholder ? 'thumbhash' : 'icon'}
      title={length ? `${kind === 'video' ? 'Video' : 'Audio'}, ${length}` : undefined}
    >
      {placeholder && <img className="thumb-placeholder" src={placeholder} alt="" width={size} height={size} draggable={false} data-testid="thumbhash-placeholder" />}
      {dataUrl ? <img className="thumb-image" src={dataUrl} alt="" width={size} height={size} draggable={false} /> : placeholder ? null : <Icon />}
      {kind === 'video' && dataUrl && (
        <span className="thumb-play" aria-hidden="true">
          <PlayGlyph size={size < 48 ? 7 : 10} />
        </span>
      )}
      {length && (
        <span className="thumb-duration num" data-testid="thumb-duration">
          {length}
        </span>
      )}
    </span>
  );
};
