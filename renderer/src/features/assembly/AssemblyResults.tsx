import { useState } from 'react';
import type { AssemblyFile } from '../../../../shared/api/assembly-status';
import { toAppError, unwrap } from '../../bridge/bridge-error';
import { useBridge } from '../../bridge/BridgeProvider';
import { Button } from '../../components/Button';
import { ResultThumbnail } from '../../components/Thumbnail';
import { formatBytes } from '../../lib/format';
import { downloadTallyText, resultDownloads, type DownloadTally } from './result-downloads';
import { mediaKindOf } from '../../lib/selection';
import { useResultDrag } from '../../hooks/use-result-drag';
import { useToasts } from '../../state/toast-store';
import { resultNameOf, resultUrlOf } from '../run/ResultCard';
import { metaLine } from './AssemblyFiles';
import { FileDetailsToggle } from './FileDetails';

/**
 * Results per step, each with its preview (core fetches it, only from this Assembly's own record), and
 * the files on disk: **Download results** saves them all into the downloads folder as the run view does
 * (core checks every URL against this Assembly's status record), Open / Show in folder per file.
 */
export const AssemblyResults = ({ assemblyId, results }: { assemblyId: string; results: Record<string, AssemblyFile[]> }) => {
  const bridge = useBridge();
  const toast = useToasts((s) => s.show);
  // Where each URL was saved this session: Open and Show in folder reuse it instead of downloading again.
  const [saved, setSaved] = useState<Record<string, string>>({});
  const [tally, setTally] = useState<DownloadTally | null>(null);
  const [running, setRunning] = useState(false);
  const [busyUrl, setBusyUrl] = useState<string | null>(null);
  const dragProps = useResultDrag();
  const steps = Object.entries(results);
  if (steps.length === 0) return null;

  const download = async (url: string, name: string): Promise<string> => {
    const known = saved[url];
    if (known) return known;
    const path = unwrap(await bridge.invoke('results:download', { assemblyId, url, name })).path;
    setSaved((s) => ({ ...s, [url]: path }));
    return path;
  };

  const downloadAll = async () => {
    const plan = resultDownloads(results);
    const next: DownloadTally = { total: plan.length, saved: 0, failed: [] };
    setRunning(true);
    setTally({ ...next });
    for (const item of plan) {
      try {
        await download(item.url, item.name);
        next.saved += 1;
      } catch (error) {
        const e = toAppError(error);
        next.failed.push({ name: item.name, code: e.code, message: e.message });
      }
      setTally({ ...next, failed: [...next.failed] });
    }
    setRunning(false);
    if (next.failed.length > 0) toast(downloadTallyText(next, false), 'danger');
  };

  const withFile = async (action: 'open' | 'reveal', url: string, name: string) => {
    setBusyUrl(url);
    try {
      const path = await download(url, name);
      unwrap(await bridge.invoke(action === 'open' ? 'shell:openPath' : 'shell:revealPath', { path }));
    } catch (error) {
      const e = toAppError(error);
      toast(`${action === 'open' ? 'Could not open' : 'Could not show'} ${name}: ${e.code} — ${e.message}`, 'danger');
    } finally {
      setBusyUrl(null);
    }
  };

  const copy = async (url: string, name: string) => {
    try {
      await navigator.clipboard.writeText(url);
      toast(`URL of ${name} copied.`, 'success');
    } catch {
      toast('Could not copy: the clipboard is not available here.', 'danger');
    }
  };

  const lastSaved = Object.values(saved).at(-1);
  return (
    <section aria-labelledby="asm-results-title">
      <div className="section-head asm-results-head">
        <h2 id="asm-results-title" className="section-title">
          Results
        </h2>
        <span className="muted small" role="status" aria-live="polite" data-testid="download-status">
          {tally ? downloadTallyText(tally, running) : ''}
        </span>
        {tally && !running && lastSaved && (
          <Button size="sm" onClick={() => void withFile('reveal', Object.keys(saved).at(-1)!, 'the results')}>
            Show in folder
          </Button>
        )}
        <Button size="sm" variant="primary" busy={running} disabled={running} onClick={() => void downloadAll()} data-testid="download-results">
          Download results
        </Button>
      </div>
      {steps.map(([step, files]) => (
        <div key={step} className="result-group" data-testid="result-step" data-step={step}>
          <h3 className="group-title">
            <code>{step}</code> <span className="muted">· {files.length}</span>
          </h3>
          <ul className="asm-results">
            {files.slice(0, 200).map((file, i) => {
              const name = resultNameOf(file);
              const url = resultUrlOf(file);
              return (
                <li key={file.id ?? i} className="asm-result" data-testid="assembly-result" {...dragProps({ assemblyId, url, name, mime: file.mime })}>
                  <ResultThumbnail assemblyId={assemblyId} url={url} kind={mediaKindOf({ mime: file.mime, name })} size={64} thumbhash={file.thumbhash ?? null} />
                  <span className="asm-result-main">
                    <span className="asm-file-name" title={name}>
                      {name}
                    </span>
                    <span className="muted small num">
                      {[typeof file.size === 'number' ? formatBytes(file.size) : '', metaLine(file)].filter(Boolean).join(' · ')}
                    </span>
                  </span>
                  {url && (
                    <span className="result-actions">
                      <Button size="sm" busy={busyUrl === url} disabled={busyUrl !== null} onClick={() => void withFile('open', url, name)} aria-label={`Open ${name}`}>
                        Open
                      </Button>
                      <Button size="sm" disabled={busyUrl !== null} onClick={() => void withFile('reveal', url, name)} aria-label={`Show in folder: ${name}`}>
                        Show in folder
                      </Button>
                      <Button size="sm" onClick={() => void copy(url, name)} aria-label={`Copy URL of ${name}`}>
                        Copy URL
                      </Button>
                    </span>
                  )}
                  <FileDetailsToggle assemblyId={assemblyId} file={file} />
                </li>
              );
            })}
          </ul>
        </div>
      ))}
    </section>
  );
};
