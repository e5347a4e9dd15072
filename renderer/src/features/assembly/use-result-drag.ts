import type { DragEvent } from 'react';
import { toAppError, unwrap } from '../../bridge/bridge-error';
import { useBridge } from '../../bridge/BridgeProvider';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { dragOutData } from './drag-out';
import { useToasts } from '../../state/toast-store';

export interface DraggedResult {
  /** The run's or the Assembly's id: core fetches only URLs of its own status record. */
  readonly runId?: string;
  readonly assemblyId?: string;
  readonly url: string | null;
  readonly name: string;
  readonly mime?: string | null | undefined;
}

export interface ResultDragProps {
  draggable: boolean;
  onDragStart?: (event: DragEvent<HTMLElement>) => void;
  onPointerDown?: () => void;
  title?: string;
}

/**
 * Props that make a result draggable out of the app. Electron host: the page's drag is replaced by a native
 * drag of the file (core fetches it to its drag cache, main calls `webContents.startDrag`). Browser host:
 * the drag carries the URL as `DownloadURL`, which Chromium saves as a file where it is dropped. The
 * keyboard's way is the card's Open / Show in folder.
 */
export function useResultDrag(): (result: DraggedResult) => ResultDragProps {
  const bridge = useBridge();
  const toast = useToasts((s) => s.show);
  const host = useBridgeQuery('app:info', {}, { staleTime: Infinity }).data?.host;
  return (result) => {
    const { url, name } = result;
    if (!url || !host) return { draggable: false };
    const request = { ...(result.runId !== undefined ? { runId: result.runId } : { assemblyId: result.assemblyId ?? '' }), url, name };
    if (host === 'electron') {
      return {
        draggable: true,
        title: 'Drag to the desktop or another app',
        // The mouse went down on it: core fetches the file now, so a drag that follows starts at once.
        onPointerDown: () => void bridge.invoke('results:startDrag', { ...request, start: false }),
        onDragStart(event) {
          event.preventDefault();
          void bridge
            .invoke('results:startDrag', request)
            .then(unwrap)
            .catch((error: unknown) => {
              const e = toAppError(error);
              toast(`Could not drag ${name}: ${e.code} — ${e.message}`, 'danger');
            });
        },
      };
    }
    return {
      draggable: true,
      title: 'Drag to the desktop or another app',
      onDragStart(event) {
        const data = dragOutData({ url, name, mime: result.mime });
        for (const [type, value] of Object.entries(data)) event.dataTransfer.setData(type, value);
        event.dataTransfer.effectAllowed = 'copy';
      },
    };
  };
}
