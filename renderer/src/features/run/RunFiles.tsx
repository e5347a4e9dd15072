import type { FileUploadState, RunFile } from '../../../../shared/ipc/models';
import { ProgressBar } from '../../components/ProgressBar';
import { VirtualList } from '../../components/VirtualList';
import { formatBytes, percentOf } from '../../lib/format';

const STATE_LABEL: Record<FileUploadState, string> = { queued: 'Queued', uploading: 'Uploading', uploaded: 'Uploaded', failed: 'Failed', canceled: 'Canceled' };
const STATE_TONE = { queued: 'neutral', uploading: 'info', uploaded: 'success', failed: 'danger', canceled: 'neutral' } as const;

const ROW_HEIGHT = 40;

/** `finished`: the run is over, so a file still queued was never uploaded. */
const labelOf = (f: RunFile, finished: boolean): string => {
  if (f.error) return `Failed: ${f.error}`;
  if (finished && (f.state === 'queued' || f.state === 'uploading')) return 'Not uploaded';
  return STATE_LABEL[f.state];
};

export const RunFiles = ({ files, finished }: { files: readonly RunFile[]; finished: boolean }) => (
  <VirtualList
    className="run-files"
    label="Files in this Assembly"
    count={files.length}
    rowHeight={ROW_HEIGHT}
    maxVisibleRows={10}
    renderRow={(index) => {
      const f = files[index];
      if (!f) return null;
      return (
        <div className={`run-file-row state-${f.state}`} data-testid="file-row" title={f.error}>
          <span className="file-path">{f.relativePath}</span>
          <ProgressBar size="sm" value={percentOf(f.bytesUploaded, f.size)} label={`${f.relativePath} upload`} tone={STATE_TONE[f.state]} />
          <span className="run-file-bytes num">{f.state === 'uploading' ? `${formatBytes(f.bytesUploaded)} / ${formatBytes(f.size)}` : formatBytes(f.size)}</span>
          <span className={`run-file-state tone-${STATE_TONE[f.state]}`}>{labelOf(f, finished)}</span>
        </div>
      );
    }}
  />
);
