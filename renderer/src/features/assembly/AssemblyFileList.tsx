import { useState } from 'react';
import { ProgressBar } from '../../components/ProgressBar';
import { formatBytes } from '../../lib/format';
import { fileRows, type FileRow, type LocalFile } from './assembly-files';
import type { AssemblyStatus } from '../../../../shared/api/assembly-status';
import { FileDetailsToggle } from './FileDetails';
import { metaLine } from './file-meta';

/** Rows shown at first and added per "Show more": the list grows in the page, it never scrolls on its own. */
const PAGE = 100;

const Row = ({ assemblyId, row }: { assemblyId: string; row: FileRow }) => {
  const meta = row.upload ? metaLine(row.upload) : '';
  return (
    <li className="asm-file" data-testid="file-row" data-local={row.local ? 'yes' : 'no'}>
      <span className="asm-file-name" title={row.local ? `Sent by this app from ${row.name}` : row.name}>
        {row.name}
      </span>
      <span className="num small">{row.size === null ? '' : formatBytes(row.size)}</span>
      <span className={`asm-file-sending small tone-${row.sending?.tone ?? 'neutral'}`} data-testid="file-sending" title={row.sending?.text}>
        {row.sending?.percent !== null && row.sending?.percent !== undefined ? (
          <span className="asm-file-bar">
            <ProgressBar size="sm" value={row.sending.percent} label={`Upload of ${row.name}`} valueText={row.sending.text} />
          </span>
        ) : null}
        {row.sending?.text ?? (row.upload ? 'Received' : '')}
      </span>
      <span className="num small muted" data-testid="upload-meta">
        {meta}
      </span>
      <span className="asm-file-progress num small">
        {row.processing !== null ? (
          <>
            <span className="asm-file-bar">
              <ProgressBar size="sm" value={row.processing} tone={row.processing >= 100 ? 'success' : 'info'} label={`Processing of ${row.name}`} valueText={`${Math.round(row.processing)} %`} />
            </span>
            {Math.round(row.processing)} %
          </>
        ) : null}
      </span>
      <span className={`asm-file-outcome small tone-${row.outcome?.tone ?? 'neutral'}`} data-testid="upload-outcome" data-outcome={row.outcome?.tone ?? 'none'} title={row.outcome?.text}>
        {row.outcome?.text ?? ''}
      </span>
      {row.upload ? <FileDetailsToggle assemblyId={assemblyId} file={row.upload} /> : <span />}
    </li>
  );
};

interface Props {
  readonly assemblyId: string;
  readonly status: AssemblyStatus | null;
  readonly local: readonly LocalFile[];
  /** How many files this app sends in all (its list may hold only the first page of them). */
  readonly localTotal: number;
  readonly perFile: ReadonlyMap<string, number>;
  /** Where the rest of this app's files are, when it sent more than the list holds (Transfers). */
  readonly moreInTransfers?: () => void;
}

/**
 * Every file of the Assembly, once: where this app sent it from and how far, the upload the service
 * recorded (size, dimensions, duration, every field under Details), its processing while the Assembly runs,
 * and its results or why none. The first 100 rows, more on request: the page scrolls, the list does not.
 */
export const AssemblyFileList = ({ assemblyId, status, local, localTotal, perFile, moreInTransfers }: Props) => {
  const [shown, setShown] = useState(PAGE);
  const rows = fileRows(status, local, perFile);
  const total = Math.max(rows.length, localTotal);
  return (
    <section aria-labelledby="asm-files-title">
      <h2 id="asm-files-title" className="section-title">
        Files <span className="muted num">· {total.toLocaleString('en-US')}</span>
      </h2>
      {rows.length === 0 ? (
        <p className="muted" data-testid="no-files">
          {status?.ok === 'ASSEMBLY_UPLOADING' ? 'No file has arrived yet.' : 'No files were uploaded to this Assembly.'}
        </p>
      ) : (
        <ul className="boxed-list asm-files" aria-label="Files">
          {rows.slice(0, shown).map((row) => (
            <Row key={row.key} assemblyId={assemblyId} row={row} />
          ))}
        </ul>
      )}
      {rows.length > shown && (
        <button type="button" className="link-btn" onClick={() => setShown((n) => n + PAGE)}>
          Show {Math.min(PAGE, rows.length - shown).toLocaleString('en-US')} more of {rows.length.toLocaleString('en-US')}
        </button>
      )}
      {localTotal > local.length && moreInTransfers && (
        <p className="muted small">
          {(localTotal - local.length).toLocaleString('en-US')} more files of it are in Transfers.{' '}
          <button type="button" className="link-btn" onClick={moreInTransfers}>
            Show them in Transfers
          </button>
        </p>
      )}
    </section>
  );
};
