import type { AssemblyFile } from '../../../../shared/api/assembly-status';
import type { AssemblyUpdate } from '../../../../shared/ipc/assembly-models';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes, formatPlayTime } from '../../lib/format';
import { dimensionsOf, resultNameOf } from '../run/ResultCard';
import { FileDetailsToggle } from './FileDetails';

/** "640 × 480 · 0:04" from a file's meta: what a producer checks first. */
export const metaLine = (file: AssemblyFile): string => {
  const parts: string[] = [];
  const dims = dimensionsOf(file);
  if (dims) parts.push(dims);
  const duration = file.meta?.duration;
  if (typeof duration === 'number') parts.push(formatPlayTime(duration));
  return parts.join(' · ');
};

/** The uploads with their meta, and per-file processing progress while it runs (when the Assembly asked for it). */
export const AssemblyFiles = ({ assemblyId, uploads, progress }: { assemblyId: string; uploads: readonly AssemblyFile[]; progress: AssemblyUpdate['progress'] }) => {
  const perFile = new Map((progress?.perFile ?? []).map((p) => [p.originalId, p.progress]));
  return (
    <section aria-labelledby="asm-uploads-title">
      <h2 id="asm-uploads-title" className="section-title">
        Uploads <span className="muted num">· {uploads.length.toLocaleString('en-US')}</span>
      </h2>
      {uploads.length === 0 ? (
        <p className="muted">No files were uploaded to this Assembly.</p>
      ) : (
        <ul className="asm-files" aria-label="Uploads">
          {uploads.slice(0, 500).map((file, i) => {
            const done = file.id ? perFile.get(file.id) : undefined;
            return (
              <li key={file.id ?? i} className="asm-file" data-testid="assembly-upload">
                <span className="asm-file-name">{resultNameOf(file)}</span>
                <span className="muted small">{file.mime ?? file.type ?? ''}</span>
                <span className="num small">{typeof file.size === 'number' ? formatBytes(file.size) : ''}</span>
                <span className="num small" data-testid="upload-meta">
                  {metaLine(file)}
                </span>
                {done !== undefined ? (
                  <span className="asm-file-progress num small">
                    <span className="asm-file-bar">
                      <ProgressBar size="sm" value={done} tone={done >= 100 ? 'success' : 'info'} label={`Processing of ${resultNameOf(file)}`} valueText={`${Math.round(done)} %`} />
                    </span>
                    {Math.round(done)} %
                  </span>
                ) : (
                  <span />
                )}
                <FileDetailsToggle assemblyId={assemblyId} file={file} />
              </li>
            );
          })}
        </ul>
      )}
      {uploads.length > 500 && <p className="muted small">And {(uploads.length - 500).toLocaleString('en-US')} more (see the status record).</p>}
    </section>
  );
};
