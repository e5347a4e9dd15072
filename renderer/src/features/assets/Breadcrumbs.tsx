import { useState, type DragEvent } from 'react';
import { breadcrumbs } from './asset-rows';

interface Props {
  readonly folder: string;
  readonly onOpen: (folder: string) => void;
  readonly onDragOver: (event: DragEvent<HTMLElement>, folder: string) => void;
  readonly onDrop: (event: DragEvent<HTMLElement>, folder: string) => void;
}

/** Where the list is: each folder on the way is a button, and a drop target (move the dragged assets there). */
export const Breadcrumbs = ({ folder, onOpen, onDragOver, onDrop }: Props) => {
  const [over, setOver] = useState<string | null>(null);
  const crumbs = breadcrumbs(folder);
  return (
    <ol className="asset-crumbs" aria-label="Folder path" data-testid="asset-breadcrumb">
      {crumbs.map((crumb, i) => {
        const last = i === crumbs.length - 1;
        return (
          <li key={crumb.folder}>
            <button
              type="button"
              className={`asset-crumb${over === crumb.folder ? ' drop-over' : ''}`}
              aria-current={last ? 'location' : undefined}
              data-folder={crumb.folder}
              onClick={() => onOpen(crumb.folder)}
              onDragOver={(e) => {
                onDragOver(e, crumb.folder);
                if (e.defaultPrevented) setOver(crumb.folder);
              }}
              onDragLeave={() => setOver(null)}
              onDrop={(e) => {
                setOver(null);
                onDrop(e, crumb.folder);
              }}
            >
              {crumb.label}
            </button>
            {!last && (
              <span className="asset-crumb-sep" aria-hidden="true">
                /
              </span>
            )}
          </li>
        );
      })}
    </ol>
  );
};
