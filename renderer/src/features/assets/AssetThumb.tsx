import { memo, type JSX } from 'react';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { AudioIcon, FileIcon, ImageIcon, VideoIcon } from '../../components/Icons';
import { useDelayed } from '../../hooks/use-delayed';
import { thumbhashColour, thumbhashUrl } from '../../lib/thumbhash-url';

type Kind = 'image' | 'video' | 'audio' | 'other';
const kindOf = (mime: string | null): Kind =>
  !mime ? 'other' : mime.startsWith('image/') ? 'image' : mime.startsWith('video/') ? 'video' : mime.startsWith('audio/') ? 'audio' : 'other';
const ICONS: Record<Kind, () => JSX.Element> = { image: ImageIcon, video: VideoIcon, audio: AudioIcon, other: FileIcon };

interface Props {
  readonly assetId: string;
  readonly versionId: string | null;
  readonly mime: string | null;
  readonly thumbhash: string | null;
  readonly size: number;
}

/**
 * An asset's preview, in steps so a fast scroll (50 new rows a frame) costs the page little: the
 * thumbhash's average colour at once (a style, no image), the thumbhash image once the row stayed 60 ms,
 * core's preview once it stayed 150 ms (a row scrolled past never asks core). Non-images keep their icon.
 */
export const AssetThumb = memo(({ assetId, versionId, mime, thumbhash, size }: Props) => {
  const kind = kindOf(mime);
  const settled = useDelayed(60);
  const ready = useDelayed(150);
  const placeholder = settled ? thumbhashUrl(thumbhash) : null;
  const colour = thumbhashColour(thumbhash);
  if (kind === 'image' && ready) return <LoadedThumb assetId={assetId} versionId={versionId} kind={kind} placeholder={placeholder} colour={colour} size={size} />;
  return <ThumbBox kind={kind} image={null} placeholder={placeholder} colour={colour} size={size} />;
});
AssetThumb.displayName = 'AssetThumb';

interface LoadedProps {
  readonly assetId: string;
  readonly versionId: string | null;
  readonly kind: Kind;
  readonly placeholder: string | null;
  readonly colour: string | null;
  readonly size: number;
}

const LoadedThumb = ({ assetId, versionId, kind, placeholder, colour, size }: LoadedProps) => {
  const thumb = useBridgeQuery('assets:thumbnail', { assetId, ...(versionId ? { versionId } : {}), size: Math.min(512, size * 2) }, { staleTime: Infinity, gcTime: 5 * 60_000, retry: false });
  return <ThumbBox kind={kind} image={thumb.data?.dataUrl ?? null} placeholder={placeholder} colour={colour} size={size} />;
};

const ThumbBox = ({ kind, image, placeholder, colour, size }: { kind: Kind; image: string | null; placeholder: string | null; colour: string | null; size: number }) => {
  const Icon = ICONS[kind];
  const src = image ?? placeholder;
  return (
    <span
      className={`thumb thumb-${kind} asset-thumb`}
      style={colour ? { width: size, height: size, background: colour } : { width: size, height: size }}
      data-testid="asset-thumb"
      data-preview={image ? 'ready' : placeholder ? 'thumbhash' : colour ? 'colour' : 'icon'}
    >
      {src ? <img src={src} alt="" width={size} height={size} draggable={false} decoding="async" /> : colour ? null : <Icon />}
    </span>
  );
};
