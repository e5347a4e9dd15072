import { useState } from 'react';
import type { AssemblyFile } from '../../../../shared/api/assembly-status';
import { toAppError, unwrap } from '../../bridge/bridge-error';
import { useBridge } from '../../bridge/BridgeProvider';
import { Button } from '../../components/Button';
import { ResultThumbnail } from '../../components/Thumbnail';
import { formatBytes } from '../../lib/format';
import { mediaKindOf } from '../../lib/selection';
import { useResultDrag } from './use-result-drag';
import { useToasts } from '../../state/toast-store';
import { FileDetailsToggle } from './FileDetails';
import { metaLine, resultNameOf, resultUrlOf } from './file-meta';

/** Results shown per step at first and added per "Show more": the page scrolls, the list does not. */
const PAGE = 24;

interface Props {
  readonly assemblyId: string;
  readonly results: Record<string, AssemblyFile[]>;
  /** The steps in the order they run, so results group as the pipeline reads. */
  readonly order: readonly string[];
  readonly busy: boolean;
}

/**
 * Results per step as they arrive (the status record, re-read on each `assembly_result_finished`), each
 * with its preview (core fetches it, only from this Assembly's own record), its facts, Open / Show in
 * folder / Copy URL, Details; drag one out to the desktop. Open and Show in folder download once
 * (core checks the URL against the record), then reuse the file.
 */
export const ResultsByStep = ({ assemblyId, results, order, busy }: Props) => {
  const bridge = useBridge();
  const toast = useToasts((s) => s.show);
  const [saved, setSaved] = useState<Record<string, string>>({});
  const [busyUrl, setBusyUrl] = useState<string | null>(null);
  const [shown, setShown] = useState<Record<string, number>>({});
  const dragProps = useResultDrag();
  const steps = Object.entries(results)
    .filter(([, files]) => files.length > 0)
    .sort(([a], [b]) => (order.indexOf(a) === -1 ? 1e9 : order.indexOf(a)) - (order.indexOf(b) === -1 ? 1e9 : order.indexOf(b)));
  const total = steps.reduce((n, [, files]) => n + files.length, 0);

  const download = async (url: string, name: string): Promise<string> => {
    const known = saved[url];
    if (known) return known;
    const path = unwrap(await bridge.invoke('results:download', { assemblyId, url, name })).path;
    setSaved((s) => ({ ...s, [url]: path }));
    return path;
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

  return (
    <section aria-labelledby="asm-results-title">
      <h2 id="asm-results-title" className="section-title">
        Results <span className="muted num">· {total.toLocaleString('en-US')}</span>
      </h2>
      {steps.length === 0 && (
        <p className="muted" data-testid="no-results">
          {busy ? 'None yet: results appear here, step by step, as the service makes them.' : 'No result files: no step was marked as a result, or none produced a file.'}
        </p>
      )}
      {steps.map(([step, files]) => {
        const limit = shown[step] ?? PAGE;
        return (
          <div key={step} className="result-group" data-testid="result-step" data-step={step}>
            <h3 className="group-title">
              <code>{step}</code> <span className="muted">· {files.length.toLocaleString('en-US')}</span>
            </h3>
            <ul className="boxed-list asm-results" aria-label={`Results of ${step}`}>
              {files.slice(0, limit).map((file, i) => {
                const name = resultNameOf(file);
                const url = resultUrlOf(file);
                return (
                  <li key={file.id ?? i} className="asm-result" data-testid="result-card" aria-label={name} {...dragProps({ assemblyId, url, name, mime: file.mime })}>
                    <ResultThumbnail assemblyId={assemblyId} url={url} kind={mediaKindOf({ mime: file.mime, name })} size={64} thumbhash={file.thumbhash ?? null} />
                    <span className="asm-result-main">
                      <span className="asm-file-name" title={name}>
                        {name}
                      </span>
                      <span className="muted small num">{[typeof file.size === 'number' ? formatBytes(file.size) : '', metaLine(file), file.mime ?? ''].filter(Boolean).join(' · ')}</span>
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
            {files.length > limit && (
              <button type="button" className="link-btn" onClick={() => setShown((s) => ({ ...s, [step]: limit + PAGE * 4 }))}>
                Show {Math.min(PAGE * 4, files.length - limit).toLocaleString('en-US')} more of {files.length.toLocaleString('en-US')}
              </button>
            )}
          </div>
        );
      })}
    </section>
  );
};
