import type { AssemblyStatus } from '../../../../shared/api/assembly-status';
import { VirtualList } from '../../components/VirtualList';
import { formatBytes } from '../../lib/format';
import { describeOutcome, uploadOutcomes, type AssemblyEnd } from './upload-outcomes';

const ROW_HEIGHT = 40;

/**
 * What became of each file the service received, once the Assembly is over: its results, or why a step
 * produced none (an empty file, a file of the wrong kind), from the status's results and warnings.
 */
export const RunUploads = ({ status, end }: { status: AssemblyStatus | null; end: AssemblyEnd }) => {
  const outcomes = uploadOutcomes(status);
  if (outcomes.length === 0) return null;
  return (
    <VirtualList
      className="run-files run-uploads"
      label="What became of each file"
      data-testid="upload-outcomes"
      count={outcomes.length}
      rowHeight={ROW_HEIGHT}
      maxVisibleRows={10}
      getRowKey={(i) => outcomes[i]?.id ?? i}
      renderRow={(index) => {
        const o = outcomes[index];
        if (!o) return null;
        const { text, tone } = describeOutcome(o, end);
        return (
          <div className="run-file-row" data-testid="upload-outcome" data-outcome={tone}>
            <span className="file-path" title={o.name}>
              {o.name}
            </span>
            <span className="run-file-bytes num">{o.size === null ? '' : formatBytes(o.size)}</span>
            <span className={`run-upload-outcome tone-${tone}`} title={text}>
              {text}
            </span>
          </div>
        );
      }}
    />
  );
};
