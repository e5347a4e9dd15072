import { useState } from 'react';
import type { MirrorScope } from '../../../../shared/ipc/mirror-models';
import { Button } from '../../components/Button';
import { ExportManifestDialog } from './ExportManifestDialog';
import { SaveResultsDialog } from './SaveResultsDialog';

interface Props {
  readonly scope: MirrorScope;
  readonly what: string;
  /** Only the manifest (Activity's selection has no "save" yet when nothing is chosen). */
  readonly manifestOnly?: boolean;
  readonly size?: 'sm' | 'md';
  /** Names for the buttons when a screen shows several (a batch's header). */
  readonly labelSuffix?: string;
}

/** "Save results to folder…" and "Export manifest…" for a run, a batch or Activity's rows. */
export const ResultsActions = ({ scope, what, manifestOnly = false, size = 'md', labelSuffix }: Props) => {
  const [saving, setSaving] = useState(false);
  const [exporting, setExporting] = useState(false);
  return (
    <>
      {!manifestOnly && (
        <Button size={size} onClick={() => setSaving(true)} aria-label={labelSuffix ? `Save results to folder: ${labelSuffix}` : undefined}>
          Save results to folder…
        </Button>
      )}
      <Button size={size} onClick={() => setExporting(true)} aria-label={labelSuffix ? `Export manifest: ${labelSuffix}` : undefined}>
        Export manifest…
      </Button>
      {!manifestOnly && <SaveResultsDialog open={saving} scope={scope} what={what} onClose={() => setSaving(false)} />}
      <ExportManifestDialog open={exporting} scope={scope} what={what} onClose={() => setExporting(false)} />
    </>
  );
};
