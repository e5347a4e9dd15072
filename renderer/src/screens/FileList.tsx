import { IconButton } from '../components/IconButton';
import { CloseIcon } from '../components/Icons';
import { VirtualList } from '../components/VirtualList';
import { formatBytes } from '../lib/format';
import { isImageFile, selectionKey } from '../lib/selection';
import { useSelection } from '../state/selection-store';
import { LocalThumbnail } from './Thumbnail';

const ROW_HEIGHT = 44;

export const FileList = () => {
  const files = useSelection((s) => s.files);
  const remove = useSelection((s) => s.remove);
  return (
    <VirtualList
      className="file-list"
      label="Selected files"
      count={files.length}
      rowHeight={ROW_HEIGHT}
      renderRow={(index) => {
        const file = files[index];
        if (!file) return null;
        return (
          <div className="file-row" data-testid="file-row">
            <LocalThumbnail key={selectionKey(file)} handle={file.handle} relativePath={file.relativePath} isImage={isImageFile(file)} size={32} />
            <span className="file-path" title={file.relativePath}>
              {file.relativePath}
            </span>
            <span className="file-size num">{formatBytes(file.size)}</span>
            <IconButton label={`Remove ${file.relativePath}`} onClick={() => remove(selectionKey(file))}>
              <CloseIcon />
            </IconButton>
          </div>
        );
      }}
    />
  );
};
