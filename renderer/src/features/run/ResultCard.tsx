import { useState } from 'react';
import type { AssemblyFile } from '../../../../shared/api/assembly-status';
import { toAppError, unwrap } from '../../bridge/bridge-error';
import { useBridge } from '../../bridge/BridgeProvider';
import { Button } from '../../components/Button';
import { Card } from '../../components/Card';
import { formatBytes } from '../../lib/format';
import { useToasts } from '../../state/toast-store';
import { ResultThumbnail } from '../../components/Thumbnail';
import { mediaKindOf } from '../../lib/selection';
import { useResultDrag } from '../../hooks/use-result-drag';

export const resultUrlOf = (file: AssemblyFile): string | null => file.ssl_url || file.url || null;
export const resultNameOf = (file: AssemblyFile): string => file.name || file.basename || file.id || 'result';
export const dimensionsOf = (file: AssemblyFile): string | null => {
  const { width, height } = file.meta ?? {};
  return typeof width === 'number' && typeof height === 'number' ? `${width} × ${height}` : null;
};

/** One result file: preview, facts, and Open / Show in folder / Copy URL; drag it out to the desktop. Downloads once, then reuses the path. */
export const ResultCard = ({ runId, file }: { runId: string; file: AssemblyFile }) => {
  const bridge = useBridge();
  const toast = useToasts((s) => s.show);
  const [savedPath, setSavedPath] = useState<string | null>(null);
  const [busy, setBusy] = useState<'open' | 'reveal' | null>(null);
  const [copied, setCopied] = useState(false);
  const url = resultUrlOf(file);
  const name = resultNameOf(file);
  const dims = dimensionsOf(file);
  const kind = mediaKindOf({ mime: file.mime, name });
  const dragProps = useResultDrag()({ runId, url, name, mime: file.mime });

  const withDownload = async (action: 'open' | 'reveal') => {
    if (!url) return;
    setBusy(action);
    try {
      const path = savedPath ?? unwrap(await bridge.invoke('results:download', { runId, url, name })).path;
      setSavedPath(path);
      unwrap(await bridge.invoke(action === 'open' ? 'shell:openPath' : 'shell:revealPath', { path }));
    } catch (error) {
      const e = toAppError(error);
      toast(`${action === 'open' ? 'Could not open' : 'Could not show'} ${name}: ${e.code} — ${e.message}`, 'danger');
    } finally {
      setBusy(null);
    }
  };

  const copy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
      toast('Copied URL', 'success');
      setTimeout(() => setCopied(false), 1_500);
    } catch (error) {
      toast(`Could not copy: ${toAppError(error).message}`, 'danger');
    }
  };

  return (
    <Card className="result-card" data-testid="result-card" role="listitem" aria-label={name} {...dragProps}>
      <ResultThumbnail runId={runId} url={url} kind={kind} size={96} thumbhash={file.thumbhash ?? null} />
      <div className="result-body">
        <span className="result-name" title={name}>
          {name}
        </span>
        <span className="result-facts muted num">
          {file.size !== undefined ? formatBytes(file.size) : '—'}
          {dims && ` · ${dims}`}
          {file.mime && ` · ${file.mime}`}
        </span>
        <div className="result-actions">
          <Button size="sm" onClick={() => void withDownload('open')} busy={busy === 'open'} disabled={!url || busy !== null} aria-label={`Open ${name}`}>
            Open
          </Button>
          <Button size="sm" onClick={() => void withDownload('reveal')} busy={busy === 'reveal'} disabled={!url || busy !== null} aria-label={`Show in folder: ${name}`}>
            Show in folder
          </Button>
          <Button size="sm" onClick={() => void copy()} disabled={!url} aria-label={`Copy URL of ${name}`}>
            {copied ? 'Copied' : 'Copy URL'}
          </Button>
        </div>
      </div>
    </Card>
  );
};
