import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { WatchFolder } from '../../../../shared/ipc/watch-folder-models';
import { useBridge } from '../../bridge/BridgeProvider';
import { bridgeKey, useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { PauseIcon, PlayIcon, WatchIcon } from '../../components/Icons';
import { Spinner } from '../../components/Spinner';
import { formatCount } from '../../lib/format';
import { DateTime } from '../../components/DateTime';
import { WatchDialog } from './WatchDialog';
import { WatchItems } from './WatchItems';
import { afterSuccessLabel, conflictLabel, recipeLabel, watchStateBadge } from './watch-view';
import './watch-folders.css';

const WatchCard = ({ watch, onEdit, onRemove }: { watch: WatchFolder; onEdit: () => void; onRemove: () => void }) => {
  const [open, setOpen] = useState(false);
  const client = useQueryClient();
  const refresh = { onSuccess: () => void client.invalidateQueries({ queryKey: ['watch-folders:list'] }) };
  const pause = useBridgeMutation('watch-folders:pause', refresh);
  const resume = useBridgeMutation('watch-folders:resume', refresh);
  const badge = watchStateBadge(watch);
  const c = watch.counts;
  const toggle = watch.paused ? resume : pause;
  return (
    <li className="card watch-card" data-testid="watch-card" aria-label={`Watch ${watch.folder}`}>
      <div className="watch-card-head">
        <div className="watch-card-title">
          <span className="mono watch-path" title={watch.folder}>
            {watch.folder}
          </span>
          <Badge tone={badge.tone} data-testid="watch-state">
            {badge.label}
          </Badge>
        </div>
        <div className="watch-card-actions">
          <Button size="sm" icon={watch.paused ? <PlayIcon /> : <PauseIcon />} busy={toggle.isPending} onClick={() => toggle.mutate({ id: watch.id })}>
            {watch.paused ? 'Resume' : 'Pause'}
          </Button>
          <Button size="sm" onClick={onEdit}>
            Edit
          </Button>
          <Button size="sm" variant="danger" onClick={onRemove}>
            Remove
          </Button>
        </div>
      </div>
      <p className="muted small watch-facts">
        {recipeLabel(watch.recipe)} → <span className="mono">{watch.output}</span> · {afterSuccessLabel(watch)}
        {conflictLabel(watch) ? ` · ${conflictLabel(watch)}` : ''}
        {watch.reprocessStale ? ' · reprocesses stale files' : ''}
      </p>
      <p className="watch-counts num" data-testid="watch-counts">
        {formatCount(c.done, 'done', 'done')} · {formatCount(c.failed, 'failed', 'failed')} · {formatCount(c.queued, 'queued', 'queued')} · {formatCount(c.skipped, 'skipped', 'skipped')}
        <span className="muted small"> · last activity {watch.lastActivityAt ? <DateTime value={watch.lastActivityAt} /> : 'none yet'}</span>
      </p>
      {watch.error && <ErrorPanel title="The watch stopped" code="WATCH_FOLDER_INVALID" message={watch.error} />}
      {watch.latestErrors.length > 0 && (
        <ul className="watch-errors" aria-label="Latest errors">
          {watch.latestErrors.map((e) => (
            <li key={e.relativePath}>
              <span className="mono">{e.relativePath}</span>: {e.error}
            </li>
          ))}
        </ul>
      )}
      {(pause.error ?? resume.error) && <ErrorPanel title="Could not change the watch" code={(pause.error ?? resume.error)!.code} message={(pause.error ?? resume.error)!.message} />}
      <Button size="sm" variant="ghost" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'Hide files' : 'Show files'}
      </Button>
      {open && <WatchItems id={watch.id} />}
    </li>
  );
};

/** Watch folders: each watch with its state, counts, last activity and latest errors; add, edit, pause, resume, remove. */
export const WatchFoldersView = () => {
  const bridge = useBridge();
  const client = useQueryClient();
  const list = useBridgeQuery('watch-folders:list', {});
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<WatchFolder | null>(null);
  /** The watch being edited, as it was when the dialog opened (a refresh meanwhile does not reset the form). */
  const [editing, setEditing] = useState<WatchFolder | null>(null);
  const refresh = () => void client.invalidateQueries({ queryKey: ['watch-folders:list'] });
  const add = useBridgeMutation('watch-folders:add', { onSuccess: () => (setAdding(false), refresh()) });
  const update = useBridgeMutation('watch-folders:update', {
    onSuccess: (saved) => {
      // The row shows the change at once; the list is read again behind it.
      client.setQueryData<WatchFolder[]>(bridgeKey('watch-folders:list', {}), (list) => list?.map((w) => (w.id === saved.id ? saved : w)));
      setEditing(null);
      refresh();
    },
  });
  const remove = useBridgeMutation('watch-folders:remove', { onSuccess: () => (setRemoving(null), refresh()) });

  // core says when a watch changed; the list (and any open file list) is read again.
  useEffect(
    () =>
      bridge.on('watch-folders:changed', () => {
        void client.invalidateQueries({ queryKey: ['watch-folders:list'] });
        void client.invalidateQueries({ queryKey: ['watch-folders:items'] });
      }),
    [bridge, client],
  );

  const addButton = (
    <Button variant="primary" onClick={() => (add.reset(), setAdding(true))}>
      Add watch folder
    </Button>
  );
  return (
    <div className="watch-view" data-testid="watch-folders-view">
      <div className="section-head">
        <h1 className="page-title">Watch folders</h1>
        {list.data && list.data.length > 0 && addButton}
      </div>
      <p className="muted">Files copied into a watched folder are processed once they stop growing; their results are written to the output folder. Unchanged files are not processed twice, even after a restart.</p>
      {list.isPending && <Spinner size={24} label="Loading watch folders" />}
      {list.isError && <ErrorPanel title="Could not load the watch folders" code={list.error.code} message={list.error.message} action={<Button onClick={() => void list.refetch()}>Retry</Button>} />}
      {list.data && list.data.length === 0 && (
        <EmptyState icon={<WatchIcon />} title="No watch folders" action={addButton}>
          Pick a folder, what to do with each file, and where the results go.
        </EmptyState>
      )}
      {list.data && list.data.length > 0 && (
        <ul className="watch-list">
          {list.data.map((w) => (
            <WatchCard key={w.id} watch={w} onEdit={() => (update.reset(), setEditing(w))} onRemove={() => (remove.reset(), setRemoving(w))} />
          ))}
        </ul>
      )}
      <WatchDialog open={adding} busy={add.isPending} error={add.error} onAdd={(input) => add.mutate(input)} onCancel={() => setAdding(false)} />
      {/* Mounted per edit (keyed by watch): the form starts from that watch as it is. */}
      {editing && <WatchDialog key={editing.id} open watch={editing} busy={update.isPending} error={update.error} onSave={(change) => update.mutate(change)} onCancel={() => setEditing(null)} />}
      <ConfirmDialog open={removing !== null} title="Stop watching this folder?" confirmLabel="Remove watch" tone="danger" busy={remove.isPending} onConfirm={() => removing && remove.mutate({ id: removing.id })} onCancel={() => setRemoving(null)}>
        <p>
          <span className="mono">{removing?.folder}</span> is no longer watched and its record of processed files is forgotten. Files and results on disk stay.
        </p>
        {remove.error && <ErrorPanel title="Could not remove the watch" code={remove.error.code} message={remove.error.message} />}
      </ConfirmDialog>
    </div>
  );
};
