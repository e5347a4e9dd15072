import { useBridgeQuery } from '../bridge/use-bridge';
import { FileIcon, ImageIcon } from './Icons';
import { useDelayed } from '../hooks/use-delayed';

/** A reserved square that fills in with a data: URL preview; other files keep a file icon. */
export const LocalThumbnail = ({ handle, relativePath, isImage, size }: { handle: string; relativePath: string; isImage: boolean; size: number }) => {
  const ready = useDelayed(120);
  const thumb = useBridgeQuery('files:thumbnail', { handle, relativePath, size: size * 2 }, { enabled: isImage && ready, staleTime: Infinity, gcTime: 5 * 60_000 });
  return <ThumbBox size={size} dataUrl={thumb.data?.dataUrl ?? null} isImage={isImage} />;
};

export const ResultThumbnail = ({ runId, url, isImage, size }: { runId: string; url: string | null; isImage: boolean; size: number }) => {
  const thumb = useBridgeQuery('results:thumbnail', { runId, url: url ?? 'about:blank', size: Math.min(512, size * 2) }, { enabled: isImage && url !== null, staleTime: Infinity });
  return <ThumbBox size={size} dataUrl={thumb.data?.dataUrl ?? null} isImage={isImage} />;
};

const ThumbBox = ({ size, dataUrl, isImage }: { size: number; dataUrl: string | null; isImage: boolean }) => (
  <span className="thumb" style={{ width: size, height: size }}>
    {dataUrl ? <img src={dataUrl} alt="" width={size} height={size} draggable={false} /> : isImage ? <ImageIcon /> : <FileIcon />}
  </span>
);
