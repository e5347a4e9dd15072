import type { JSX } from 'react';
import { useBridgeQuery } from '../bridge/use-bridge';
import { useDelayed } from '../hooks/use-delayed';
import { formatPlayTime } from '../lib/format';
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

/** A result of a run of this app (`runId`), or of any Assembly of the workspace (`assemblyId`). */
export const ResultThumbnail = ({ runId, assemblyId, url, kind, size }: { runId?: string; assemblyId?: string; url: string | null; kind: MediaKind; size: number }) => {
  const owner = runId !== undefined ? { runId } : { assemblyId: assemblyId ?? '' };
  const thumb = useBridgeQuery('results:thumbnail', { ...owner, url: url ?? 'about:blank', size: Math.min(512, size * 2) }, { enabled: kind !== 'other' && url !== null, staleTime: Infinity });
  return <ThumbBox size={size} kind={kind} dataUrl={thumb.data?.dataUrl ?? null} duration={thumb.data?.duration ?? null} />;
};

const ICONS: Record<MediaKind, () => JSX.Element> = { image: ImageIcon, video: VideoIcon, audio: AudioIcon, other: FileIcon };

const ThumbBox = ({ size, kind, dataUrl, duration }: { size: number; kind: MediaKind; dataUrl: string | null; duration: number | null }) => {
  const Icon = ICONS[kind];
  const length = duration !== null && (kind === 'video' || kind === 'audio') ? formatPlayTime(duration) : null;
  return (
    <span
      className={`thumb thumb-${kind}${size < 48 ? ' thumb-small' : ''}`}
      style={{ width: size, height: size }}
      data-testid="thumb"
      data-kind={kind}
      data-preview={dataUrl ? 'ready' : 'icon'}
      title={length ? `${kind === 'video' ? 'Video' : 'Audio'}, ${length}` : undefined}
    >
      {dataUrl ? <img src={dataUrl} alt="" width={size} height={size} draggable={false} /> : <Icon />}
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
