import { useEffect, useRef, useState, type DragEvent, type KeyboardEvent } from 'react';
import type { PickedFile } from '../../../../shared/ipc/bridge';
import { Button } from '../../components/Button';
import { FileIcon, FolderIcon, UploadIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import { entriesFromDataTransfer, pickedFromInput, walkEntries } from './dropped-items';
import { usePickRequest } from '../../state/pick-request-store';

export interface DropZoneProps {
  readonly onFiles: (collect: () => Promise<PickedFile[]>) => void;
  /** The host's own folder picker, when it has one: Chromium freezes reading a `webkitdirectory` pick of thousands of files. */
  readonly onPickFolder?: (() => void) | undefined;
  /** The picked files are being handed to core: no new drop until it answered. */
  readonly busy: boolean;
  readonly compact: boolean;
  /** A live line while core walks a dropped folder ("Adding… 12,345 files · 3.2 GB"); drops stay open. */
  readonly scanning?: string | null;
}

/** The drop target, also a button: Enter or Space opens the file picker. */
export const DropZone = ({ onFiles, onPickFolder, busy, compact, scanning = null }: DropZoneProps) => {
  const filesInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);

  useEffect(() => {
    // React has no prop for webkitdirectory; the DOM property works in Chromium and Electron.
    if (folderInput.current) folderInput.current.webkitdirectory = true;
  }, []);

  // Ctrl+O / Ctrl+Shift+O (or the Electron menu, which presses them): the key press is the user's act
  // that lets the page open a file chooser.
  const request = usePickRequest((s) => s.request);
  const clearRequest = usePickRequest((s) => s.clear);
  useEffect(() => {
    if (request === null || busy) return;
    clearRequest();
    if (request === 'files') filesInput.current?.click();
    else if (onPickFolder) onPickFolder();
    else folderInput.current?.click();
  }, [request, busy, clearRequest, onPickFolder]);

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault();
    setOver(false);
    if (busy) return;
    // Take the entries now: the DataTransfer is emptied once this handler returns.
    const { entries, looseFiles } = entriesFromDataTransfer(event.dataTransfer);
    onFiles(async () => [...(await walkEntries(entries)), ...pickedFromInput(looseFiles)]);
  };

  const onInput = (input: HTMLInputElement | null) => {
    if (!input?.files) return;
    const picked = pickedFromInput(input.files);
    input.value = ''; // so choosing the same files again still fires change
    onFiles(async () => picked);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.target !== event.currentTarget) return;
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      filesInput.current?.click();
    }
  };

  return (
    <div
      className={`drop-zone${over ? ' drop-over' : ''}${compact ? ' drop-compact' : ''}`}
      data-testid="drop-zone"
      role="group"
      tabIndex={0}
      aria-label="Drop files or folders here"
      aria-description="Press Enter to choose files"
      aria-busy={busy || undefined}
      onKeyDown={onKeyDown}
      onClick={(e) => {
        // A click on the empty area opens the picker too; clicks on the buttons handle themselves.
        if (!busy && !(e.target as HTMLElement).closest('button, input')) filesInput.current?.click();
      }}
      onDragEnter={(e) => {
        e.preventDefault();
        setOver(true);
      }}
      onDragOver={(e) => {
        e.preventDefault();
        e.dataTransfer.dropEffect = 'copy';
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={onDrop}
    >
      <div className="drop-icon" aria-hidden="true">
        {busy || scanning ? <Spinner size={compact ? 18 : 28} /> : <UploadIcon size={compact ? 18 : 28} />}
      </div>
      <div className="drop-text">
        <p className="drop-title num" data-testid="drop-status" aria-live="polite">
          {busy ? 'Reading the picked files…' : (scanning ?? 'Drop files or folders here')}
        </p>
        {!compact && <p className="drop-hint muted">Folders are added with everything inside them. Files stay where they are until you start.</p>}
      </div>
      <div className="drop-actions">
        <Button icon={<FileIcon />} onClick={() => filesInput.current?.click()} disabled={busy}>
          Choose files…
        </Button>
        <Button icon={<FolderIcon />} onClick={() => (onPickFolder ? onPickFolder() : folderInput.current?.click())} disabled={busy}>
          Choose folder…
        </Button>
      </div>
      <input ref={filesInput} className="visually-hidden" type="file" multiple aria-label="Choose files" tabIndex={-1} onChange={(e) => onInput(e.currentTarget)} />
      <input ref={folderInput} className="visually-hidden" type="file" multiple aria-label="Choose folder" tabIndex={-1} onChange={(e) => onInput(e.currentTarget)} />
    </div>
  );
};
