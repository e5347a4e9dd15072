import { useEffect, useState } from 'react';
import type { ManifestFormat, MirrorScope } from '../../../../shared/ipc/mirror-models';
import { useBridgeMutation } from '../../bridge/use-bridge';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { formatCount } from '../../lib/format';
import { useToasts } from '../../state/toast-store';
import './results.css';

interface Props {
  readonly open: boolean;
  readonly scope: MirrorScope;
  /** What the manifest lists ("this Assembly", "12 Assemblies shown"). */
  readonly what: string;
  readonly onClose: () => void;
  /** Where it was written (the page offers "Show in folder"). */
  readonly onExported?: (path: string) => void;
}

/**
 * "Export manifest": CSV (one row per result) or JSON (nested); core asks where with the host's save dialog
 * (the browser host writes to its downloads folder). Once written, the dialog stays with where the file went
 * (a toast alone is gone in seconds), until the user closes it.
 */
export const ExportManifestDialog = ({ open, scope, what, onClose, onExported }: Props) => {
  const [format, setFormat] = useState<ManifestFormat>('csv');
  const [saved, setSaved] = useState<{ path: string; rows: number } | null>(null);
  const toast = useToasts((s) => s.show);
  useEffect(() => {
    if (open) setSaved(null);
  }, [open]);
  const exporter = useBridgeMutation('manifest:export', {
    onSuccess: (r) => {
      if (r.path === null) return;
      toast(`Manifest saved: ${formatCount(r.rows, 'row')} in ${r.path}`, 'success');
      setSaved({ path: r.path, rows: r.rows });
      onExported?.(r.path);
    },
  });
  return (
    <ConfirmDialog
      open={open}
      title="Export manifest"
      confirmLabel={saved ? 'Export again…' : 'Export…'}
      cancelLabel={saved ? 'Close' : 'Cancel'}
      busy={exporter.isPending}
      onConfirm={() => exporter.mutate({ scope, format })}
      onCancel={onClose}
    >
      {saved && (
        <p className="small manifest-saved" role="status" data-testid="manifest-saved">
          Saved {formatCount(saved.rows, 'row')} to <code className="mono">{saved.path}</code>
        </p>
      )}
      <p className="muted small">
        {what}: each input&apos;s path, size and md5, its Assembly and state, and each result&apos;s step, name, URL, hash and where it was saved on this computer.
      </p>
      <div role="radiogroup" aria-label="Manifest format" className="mirror-options">
        <label className="toolbar-check">
          <input type="radio" name="manifest-format" checked={format === 'csv'} onChange={() => setFormat('csv')} />
          <span>
            CSV <span className="muted small">— one row per result, for spreadsheets</span>
          </span>
        </label>
        <label className="toolbar-check">
          <input type="radio" name="manifest-format" checked={format === 'json'} onChange={() => setFormat('json')} />
          <span>
            JSON <span className="muted small">— Assemblies, their inputs and results, nested</span>
          </span>
        </label>
      </div>
      {exporter.error && (
        <p className="small field-error" role="alert">
          <span className="mono">{exporter.error.code}</span> — {exporter.error.message}
        </p>
      )}
    </ConfirmDialog>
  );
};
