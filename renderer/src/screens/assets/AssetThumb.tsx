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
  const ready = useDelayed(150);
  const thumb = useBridgeQuery(
    'assets:thumbnail',
    { assetId, ...(versionId ? { versionId } : {}), size: Math.min(512, size * 2) },
    { enabled: kind === 'image' && ready, staleTime: Infinity, gcTime: 5 * 60_000, retry: false },
  );
  const image = thumb.data?.dataUrl ?? null;
  const placeholder = thumbhashUrl(thumbhash);
  const Icon = ICONS[kind];
  return (
    <span
      className={`thumb thumb-${kind} asset-thumb`}
      style={{ width: size, height: size }}
      data-testid="asset-thumb"
      data-preview={image ? 'ready' : placeholder ? 'thumbhash' : 'icon'}
    >
      {image ? <img src={image} alt="" width={size} height={size} draggable={false} /> : placeholder ? <img src={placeholder} alt="" width={size} height={size} draggable={false} /> : <Icon />}
    </span>
  );
});
AssetThumb.displayName = 'AssetThumb';
