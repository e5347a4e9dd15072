import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import type { ConflictPolicy, MirrorLayout, MirrorProgress, MirrorScope } from '../../../../shared/ipc/mirror-models';
import { useBridge } from '../../bridge/BridgeProvider';
import { bridgeKey, useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { ProgressBar } from '../../components/ProgressBar';
import { percentOf } from '../../lib/format';
import { CONFLICTS, LAYOUTS, mirrorOutcome, mirrorProgressText, mirrorSummaryText } from './mirror-text';
import './results.css';

interface Props {
  readonly open: boolean;
  readonly scope: MirrorScope;
  /** What is saved, for the title ("3 results of this Assembly"). */
  readonly what: string;
  readonly onClose: () => void;
}

/**
 * "Save results to folder…": the folder (the host's own dialog, remembered by core), a layout and a conflict
 * policy (both remembered), then live progress and a summary with "Show in folder". A running save goes on
 * in core if the dialog is hidden.
 */
export const SaveResultsDialog = ({ open, scope, what, onClose }: Props) => {
  const bridge = useBridge();
  const client = useQueryClient();
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const settings = useBridgeQuery('results:mirrorSettings', {}, { enabled: open });
  const [layout, setLayout] = useState<MirrorLayout | null>(null);
  const [conflict, setConflict] = useState<ConflictPolicy | null>(null);
  const [progress, setProgress] = useState<MirrorProgress | null>(null);
  const mirrorId = useRef<string | null>(null);
  // Events that arrive before the answer naming their mirror (core reports the start at once).
  const early = useRef(new Map<string, MirrorProgress>());
  const choose = useBridgeMutation('results:chooseMirrorFolder', {
    onSuccess: (s) => client.setQueryData(bridgeKey('results:mirrorSettings', {}), { folder: s.folder, layout: s.layout, conflict: s.conflict, canChooseFolder: s.canChooseFolder }),
  });
  const start = useBridgeMutation('results:mirror', {
    onSuccess: (r) => {
      mirrorId.current = r.mirrorId;
      setProgress(early.current.get(r.mirrorId) ?? null);
      early.current.clear();
      void client.invalidateQueries({ queryKey: bridgeKey('results:mirrorSettings', {}) });
    },
  });
  const stop = useBridgeMutation('results:mirrorCancel');
  const reveal = useBridgeMutation('shell:revealPath');

  useEffect(
    () =>
      bridge.on('results:mirrorProgress', (p) => {
        if (p.mirrorId === mirrorId.current) setProgress(p);
        else if (mirrorId.current === null) early.current.set(p.mirrorId, p);
      }),
    [bridge],
  );
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    else if (!open && dialog.open) dialog.close();
  }, [open]);

  const chosenLayout = layout ?? settings.data?.layout ?? 'by-step';
  const chosenConflict = conflict ?? settings.data?.conflict ?? 'skip';
  const folder = settings.data?.folder ?? null;
  const running = start.isPending || progress?.state === 'running' || (start.isSuccess && progress === null);
  const ended = progress !== null && progress.state !== 'running';
  const close = () => {
    // A new save starts from the form again; a running one goes on in core.
    if (!running) {
      setProgress(null);
      mirrorId.current = null;
      start.reset();
    }
    onClose();
  };
  const error = choose.error ?? start.error ?? stop.error ?? reveal.error;
  const outcome = ended ? mirrorOutcome(progress) : null;

  return (
    <dialog
      ref={ref}
      className="dialog dialog-mirror"
      aria-labelledby={titleId}
      onCancel={(e) => {
        e.preventDefault();
        close();
      }}
    >
      <h2 id={titleId} className="dialog-title">
        Save results to folder
      </h2>
      <div className="dialog-body">
        <p className="muted small">{what}</p>
        <div className="mirror-folder">
          <span className="field-label">Output folder</span>
          <span className="mono mirror-folder-path" data-testid="mirror-folder" title={folder ?? undefined}>
            {folder ?? <span className="muted">No folder chosen yet</span>}
          </span>
          <Button size="sm" onClick={() => choose.mutate({})} busy={choose.isPending} disabled={running || settings.data?.canChooseFolder === false}>
            {folder ? 'Change…' : 'Choose folder…'}
          </Button>
        </div>
        {settings.data?.canChooseFolder === false && <p className="small muted">This host shows no folder dialog: results go to this folder in your downloads. The desktop app lets you choose any folder.</p>}
        <fieldset className="mirror-options" disabled={running}>
          <legend className="field-label">Layout</legend>
          {LAYOUTS.map((l) => (
            <label key={l.value} className="toolbar-check">
              <input type="radio" name="mirror-layout" checked={chosenLayout === l.value} onChange={() => setLayout(l.value)} />
              <span>
                {l.label} <span className="muted mono small">{l.example}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <fieldset className="mirror-options" disabled={running}>
          <legend className="field-label">When a file is already there</legend>
          {CONFLICTS.map((c) => (
            <label key={c.value} className="toolbar-check">
              <input type="radio" name="mirror-conflict" checked={chosenConflict === c.value} onChange={() => setConflict(c.value)} />
              <span>
                {c.label} <span className="muted small">— {c.hint}</span>
              </span>
            </label>
          ))}
        </fieldset>
        {/* The progress area keeps its height from the start, so the dialog does not jump when a save begins. */}
        <div className="mirror-status" aria-live="polite">
          {progress && (
            <>
              <ProgressBar value={percentOf(progress.bytesDone, Math.max(1, progress.bytesTotal))} label="Saving results" valueText={mirrorProgressText(progress)} tone={outcome?.tone === 'danger' ? 'danger' : outcome ? 'success' : 'info'} />
              <span className="small num" data-testid="mirror-progress">
                {mirrorProgressText(progress)}
              </span>
              <span className="small num" data-testid="mirror-summary">
                {mirrorSummaryText(progress)}
              </span>
              {outcome && <span className={`small tone-${outcome.tone}`} data-testid="mirror-outcome">{outcome.text}</span>}
            </>
          )}
        </div>
        {progress && progress.errors.length > 0 && (
          <ul className="dialog-list small mirror-errors" aria-label="Files not saved">
            {progress.errors.map((e) => (
              <li key={e.path}>
                <span className="mono">{e.path}</span>: <span className="mono">{e.code}</span> — {e.message}
              </li>
            ))}
          </ul>
        )}
        {error && (
          <p className="small field-error" role="alert">
            <span className="mono">{error.code}</span> — {error.message}
          </p>
        )}
      </div>
      <div className="dialog-actions">
        {ended && (
          <Button onClick={() => reveal.mutate({ path: progress.folder })} busy={reveal.isPending}>
            Show in folder
          </Button>
        )}
        {running && progress && (
          <Button variant="danger" onClick={() => stop.mutate({ mirrorId: progress.mirrorId })} disabled={stop.isPending}>
            Stop
          </Button>
        )}
        <Button onClick={close}>{running ? 'Hide' : ended ? 'Close' : 'Cancel'}</Button>
        {!running && (
          <Button
            variant="primary"
            disabled={!folder}
            onClick={() => {
              setProgress(null);
              start.mutate({ scope, layout: chosenLayout, conflict: chosenConflict });
            }}
          >
            {ended ? 'Save again' : 'Save results'}
          </Button>
        )}
      </div>
    </dialog>
  );
};
