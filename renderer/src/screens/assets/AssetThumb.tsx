import { memo, type JSX } from 'react';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { AudioIcon, FileIcon, ImageIcon, VideoIcon } from '../../components/Icons';
import { useDelayed } from '../../hooks/use-delayed';
import { thumbhashUrl } from '../../lib/thumbhash-url';

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
 * An asset's preview: the thumbhash (decoded at once, no request) until core's thumbnail arrives. A row
 * scrolled past quickly never asks core for one. Non-images keep their type icon.
 */
export const AssetThumb = memo(({ assetId, versionId, mime, thumbhash, size }: Props) => {
  const kind = kindOf(mime);
  // No query (and no cache entry or observer) for a row that only flies past: a fast scroll mounts 50 rows a frame.
  const ready = useDelayed(150);
  const placeholder = thumbhashUrl(thumbhash);
  if (kind === 'image' && ready) return <LoadedThumb assetId={assetId} versionId={versionId} kind={kind} placeholder={placeholder} size={size} />;
  return <ThumbBox kind={kind} image={null} placeholder={placeholder} size={size} />;
});
AssetThumb.displayName = 'AssetThumb';

const LoadedThumb = ({ assetId, versionId, kind, placeholder, size }: { assetId: string; versionId: string | null; kind: Kind; placeholder: string | null; size: number }) => {
  const thumb = useBridgeQuery('assets:thumbnail', { assetId, ...(versionId ? { versionId } : {}), size: Math.min(512, size * 2) }, { staleTime: Infinity, gcTime: 5 * 60_000, retry: false });
  return <ThumbBox kind={kind} image={thumb.data?.dataUrl ?? null} placeholder={placeholder} size={size} />;
};

const ThumbBox = ({ kind, image, placeholder, size }: { kind: Kind; image: string | null; placeholder: string | null; size: number }) => {
  const Icon = ICONS[kind];
  const src = image ?? placeholder;
  return (
    <span className={`thumb thumb-${kind} asset-thumb`} style={{ width: size, height: size }} data-testid="asset-thumb" data-preview={image ? 'ready' : placeholder ? 'thumbhash' : 'icon'}>
      {src ? <img src={src} alt="" width={size} height={size} draggable={false} decoding="async" /> : <Icon />}
    </span>
  );
};
