import { useId, useMemo, useState } from 'react';
import type { AssemblyFile } from '../../../../shared/api/assembly-status';
import { Button } from '../../components/Button';
import { ResultThumbnail } from '../../components/Thumbnail';
import { fileDetailGroups } from './file-details';
import { mediaKindOf } from '../../lib/selection';
import { resultNameOf, resultUrlOf } from './file-meta';

/** The Details button of a file row and the panel it opens; the panel is only built while open (500 rows). */
export const FileDetailsToggle = ({ assemblyId, file }: { assemblyId: string; file: AssemblyFile }) => {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const name = resultNameOf(file);
  return (
    <>
      <Button size="sm" variant="ghost" aria-expanded={open} aria-controls={open ? panelId : undefined} onClick={() => setOpen((o) => !o)} aria-label={`${open ? 'Hide details' : 'Details'} of ${name}`} data-testid="file-details-toggle">
        {open ? 'Hide details' : 'Details'}
      </Button>
      {open && <FileDetails id={panelId} assemblyId={assemblyId} file={file} />}
    </>
  );
};

/**
 * Every record field and meta key of one file, grouped (File, Image, Camera, Location, Audio/Video,
 * Document, Dates, Hashes, Other); dates in the user's time zone with UTC on hover; the preview with the
 * record's thumbhash as its placeholder while it loads.
 */
export const FileDetails = ({ id, assemblyId, file }: { id: string; assemblyId: string; file: AssemblyFile }) => {
  const groups = useMemo(() => fileDetailGroups(file), [file]);
  const name = resultNameOf(file);
  const thumbhash = typeof file.thumbhash === 'string' ? file.thumbhash : null;
  return (
    <section id={id} className="file-details" aria-label={`Details of ${name}`} data-testid="file-details" data-thumbhash={thumbhash ? 'present' : 'absent'}>
      <div className="file-details-preview">
        <ResultThumbnail assemblyId={assemblyId} url={resultUrlOf(file)} kind={mediaKindOf({ mime: file.mime, name })} size={128} thumbhash={thumbhash} />
      </div>
      <div className="file-details-groups">
        {groups.map((group) => (
          <section key={group.name} className="file-details-group" data-testid="file-detail-group" data-group={group.name} aria-label={group.name}>
            <h4 className="file-details-title">{group.name}</h4>
            <dl>
              {group.rows.map((row) => (
                <div key={`${row.source}:${row.key}`} className="file-detail" data-testid="file-detail" data-key={row.key} data-source={row.source}>
                  <dt>
                    <code>{row.key}</code>
                  </dt>
                  <dd title={row.title} className={group.name === 'Dates' || group.name === 'Hashes' ? 'num' : undefined}>
                    {row.text}
                    {/* Hover shows the UTC value; screen readers and keyboard users get it as text. */}
                    {group.name === 'Dates' && row.title && <span className="visually-hidden"> ({row.title})</span>}
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </section>
  );
};
