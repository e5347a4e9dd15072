import { memo, useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import type { Asset } from '../../../../shared/ipc/asset-models';
import { filenameProblem } from '../../../../shared/ipc/asset-models';
import { FolderIcon } from '../../components/Icons';
import { dimensions, folderLabel } from './asset-rows';
import { formatBytes } from '../../lib/format';
import { DateTime } from '../../components/DateTime';
import { AssetThumb } from './AssetThumb';

export const ROW_HEIGHT = 48;
const THUMB = 36;

export const rowId = (index: number): string => `asset-line-${index}`;

/** Drag handlers a row or a folder needs (AssetsView owns what a drag carries and where it lands). */
export interface RowDrag {
  readonly onDragStart: (event: DragEvent<HTMLElement>, index: number) => void;
  readonly onDragOverFolder: (event: DragEvent<HTMLElement>, folder: string) => void;
  readonly onDropOnFolder: (event: DragEvent<HTMLElement>, folder: string) => void;
}

interface FolderRowProps {
  readonly folder: string;
  readonly index: number;
  readonly selected: boolean;
  readonly focused: boolean;
  readonly onToggle: (index: number) => void;
  readonly onOpenFolder: (folder: string) => void;
  readonly drag: RowDrag;
}

/** A folder of the level shown: open it (click its name, or Enter), drop assets on it to move them there. */
export const FolderRow = memo(({ folder, index, selected, focused, onToggle, onOpenFolder, drag }: FolderRowProps) => {
  const [over, setOver] = useState(false);
  const name = folderLabel(folder);
  return (
    <div
      id={rowId(index)}
      className={`asset-row asset-folder${selected ? ' selected' : ''}${focused ? ' focused' : ''}${over ? ' drop-over' : ''}`}
      role="row"
      aria-rowindex={index + 1}
      aria-selected={selected}
      data-testid="asset-folder"
      data-folder={folder}
      data-line={index}
      draggable
      onDragStart={(e) => drag.onDragStart(e, index)}
      onDragOver={(e) => {
        drag.onDragOverFolder(e, folder);
        if (e.defaultPrevented) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        setOver(false);
        drag.onDropOnFolder(e, folder);
      }}
    >
      <span role="gridcell" className="asset-check-cell">
        <input type="checkbox" className="asm-check" tabIndex={-1} aria-label={`Select folder ${name}`} checked={selected} onChange={() => onToggle(index)} onClick={(e) => e.stopPropagation()} />
      </span>
      <span role="gridcell" className="asset-name-cell">
        <span className="thumb asset-thumb asset-folder-icon" style={{ width: THUMB, height: THUMB }} aria-hidden="true">
          <FolderIcon />
        </span>
        <button
          type="button"
          className="asset-name link-button"
          tabIndex={-1}
          onClick={(e) => {
            e.stopPropagation();
            onOpenFolder(folder);
          }}
        >
          {name}
        </button>
      </span>
      <span role="gridcell" className="asset-meta muted small">
        Folder
      </span>
    </div>
  );
});
FolderRow.displayName = 'FolderRow';

interface AssetRowProps {
  readonly asset: Asset;
  readonly index: number;
  readonly selected: boolean;
  readonly focused: boolean;
  readonly renaming: boolean;
  readonly onToggle: (index: number) => void;
  readonly onRename: (asset: Asset, filename: string | null) => void;
  readonly drag: RowDrag;
}

/** One stored asset: select box, preview (thumbhash first), name, size, type, dimensions, when. Fixed height. */
export const AssetRowView = memo(({ asset, index, selected, focused, renaming, onToggle, onRename, drag }: AssetRowProps) => {
  const dims = dimensions(asset);
  return (
    <div
      id={rowId(index)}
      className={`asset-row${selected ? ' selected' : ''}${focused ? ' focused' : ''}`}
      role="row"
      aria-rowindex={index + 1}
      aria-selected={selected}
      data-testid="asset-row"
      data-asset-id={asset.assetId}
      data-path={asset.path}
      data-line={index}
      draggable={!renaming}
      onDragStart={(e) => drag.onDragStart(e, index)}
    >
      <span role="gridcell" className="asset-check-cell">
        <input type="checkbox" className="asm-check" tabIndex={-1} aria-label={`Select ${asset.filename}`} checked={selected} onChange={() => onToggle(index)} onClick={(e) => e.stopPropagation()} />
      </span>
      <span role="gridcell" className="asset-name-cell">
        <AssetThumb assetId={asset.assetId} versionId={asset.versionId} mime={asset.mime} thumbhash={asset.thumbhash} size={THUMB} />
        {renaming ? <RenameInput asset={asset} onDone={onRename} /> : <span className="asset-name" title={asset.path}>{asset.filename}</span>}
      </span>
      <span role="gridcell" className="asset-meta muted small num">
        {[asset.size !== null ? formatBytes(asset.size) : null, asset.mime, dims].filter(Boolean).join(' · ')}
      </span>
      <span role="gridcell" className="asset-date muted small">
        {asset.updatedAt ?? asset.createdAt ? <DateTime value={asset.updatedAt ?? asset.createdAt} /> : ''}
      </span>
    </div>
  );
});
AssetRowView.displayName = 'AssetRowView';

/** Inline rename: Enter saves (the filename rule is checked first), Escape or leaving cancels. */
const RenameInput = ({ asset, onDone }: { asset: Asset; onDone: (asset: Asset, filename: string | null) => void }) => {
  const [value, setValue] = useState(asset.filename);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    const input = ref.current;
    if (!input) return;
    input.focus();
    // The name without its extension is selected, as file managers do.
    const dot = asset.filename.lastIndexOf('.');
    input.setSelectionRange(0, dot > 0 ? dot : asset.filename.length);
  }, [asset.filename]);
  const problem = filenameProblem(value);
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    event.stopPropagation();
    if (event.key === 'Escape') {
      event.preventDefault();
      onDone(asset, null);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      if (!problem) onDone(asset, value === asset.filename ? null : value);
    }
  };
  return (
    <span className="asset-rename">
      <input
        ref={ref}
        className="input asset-rename-input"
        aria-label={`New name for ${asset.filename}`}
        aria-invalid={problem !== null}
        title={problem ?? undefined}
        value={value}
        onChange={(e) => setValue(e.currentTarget.value)}
        onKeyDown={onKeyDown}
        onClick={(e) => e.stopPropagation()}
        onBlur={() => onDone(asset, null)}
      />
      {problem && (
        <span className="field-error small" role="alert" data-testid="rename-error">
          {problem}
        </span>
      )}
    </span>
  );
};

/** A row of the next page, still on its way: the same height, no jump when it arrives. */
export const PlaceholderRow = ({ index }: { index: number }) => (
  <div id={rowId(index)} className="asset-row asset-placeholder" role="row" aria-rowindex={index + 1} aria-selected={false} aria-busy="true">
    <span className="tx-skeleton" role="gridcell" />
  </div>
);
