import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { Template } from '../../../../shared/ipc/template-models';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { CodeEditor } from '../../components/CodeEditor';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { dayBound, formatContent, formatServiceDate } from '../../lib/template-dates';
import { useNavigation } from '../../state/navigation-store';
import { useStepsChoice } from '../../state/steps-store';
import { useToasts } from '../../state/toast-store';
import { useDebounced } from '../../hooks/use-debounced';

const PAGE_SIZE = 25;
type Sort = 'created' | 'modified' | 'name' | 'last_used' | 'id';

/** Templates of the active workspace: search, sort, date range, paging, built-ins; a detail pane with actions. */
export const TemplatesView = ({ selectedId }: { selectedId?: string | undefined }) => {
  const navigate = useNavigation((s) => s.navigate);
  const [keywords, setKeywords] = useState('');
  const [sort, setSort] = useState<Sort>('created');
  const [order, setOrder] = useState<'asc' | 'desc'>('desc');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [builtins, setBuiltins] = useState(false);
  const [page, setPage] = useState(1);
  // The selected Template lives in the URL (#/templates/<id>): a reload keeps it; selecting another
  // replaces the history entry, so Back leaves the screen rather than stepping through every click.
  const selected = selectedId;
  const setSelected = (id: string | undefined) => navigate(id ? { name: 'templates', selectedId: id } : { name: 'templates' }, { replace: true });
  const search = useDebounced(keywords.trim(), 300);

  useEffect(() => setPage(1), [search, sort, order, from, to, builtins]);

  const fromdate = dayBound(from, 'from');
  const todate = dayBound(to, 'to');
  const list = useBridgeQuery(
    'templates:list',
    {
      page,
      pagesize: PAGE_SIZE,
      sort,
      order,
      includeBuiltin: builtins ? 'latest' : 'none',
      ...(search ? { keywords: search } : {}),
      ...(fromdate ? { fromdate } : {}),
      ...(todate ? { todate } : {}),
    },
    { placeholderData: (previous) => previous },
  );
  const items = list.data?.items ?? [];
  const count = list.data?.count ?? 0;
  const current = items.find((t) => t.id === selected) ?? null;
  const filtered = search !== '' || from !== '' || to !== '';

  return (
    <div className="templates-view">
      <div className="section-head">
        <h1 className="page-title">Templates</h1>
        <Button variant="primary" onClick={() => navigate({ name: 'template-editor' })}>
          New Template
        </Button>
      </div>

      <div className="toolbar" role="search" aria-label="Find Templates">
        <input
          type="search"
          className="input toolbar-search"
          placeholder="Search names (% and _ are wildcards)"
          aria-label="Search Templates by name"
          value={keywords}
          onChange={(e) => setKeywords(e.currentTarget.value)}
        />
        <label className="toolbar-field">
          <span className="muted small">Sort</span>
          <select className="input" value={sort} onChange={(e) => setSort(e.currentTarget.value as Sort)} aria-label="Sort by">
            <option value="created">Created</option>
            <option value="modified">Modified</option>
            <option value="name">Name</option>
            <option value="last_used">Last used</option>
            <option value="id">Id</option>
          </select>
        </label>
        <label className="toolbar-field">
          <span className="muted small">Order</span>
          <select className="input" value={order} onChange={(e) => setOrder(e.currentTarget.value as 'asc' | 'desc')} aria-label="Order">
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </select>
        </label>
        <label className="toolbar-field">
          <span className="muted small">Created from</span>
          <input type="date" className="input" value={from} onChange={(e) => setFrom(e.currentTarget.value)} aria-label="Created from" />
        </label>
        <label className="toolbar-field">
          <span className="muted small">to</span>
          <input type="date" className="input" value={to} onChange={(e) => setTo(e.currentTarget.value)} aria-label="Created to" />
        </label>
        <label className="toolbar-check">
          <input type="checkbox" checked={builtins} onChange={(e) => setBuiltins(e.currentTarget.checked)} />
          Show built-in
        </label>
      </div>

      {list.isError && (
        <ErrorPanel title="Could not load Templates" code={list.error.code} message={list.error.message} httpCode={list.error.httpCode} action={<Button size="sm" onClick={() => void list.refetch()}>Try again</Button>} />
      )}

      <div className="templates-split">
        <section className="templates-list-pane" aria-label="Templates" aria-busy={list.isFetching}>
          {list.isPending && (
            <div className="center-pane">
              <Spinner size={24} label="Loading Templates" />
            </div>
          )}
          {list.data && items.length === 0 && (
            <EmptyState title={filtered ? 'No Templates match' : 'No Templates yet'} action={!filtered && <Button variant="primary" onClick={() => navigate({ name: 'template-editor' })}>New Template</Button>}>
              {filtered ? 'Try other words or dates, or show built-in Templates.' : 'A Template keeps a processing recipe to run again on new files.'}
            </EmptyState>
          )}
          {items.length > 0 && (
            <ul className="template-list" aria-label="Template list">
              {items.map((t) => (
                <li key={t.id}>
                  <button type="button" className="template-row" aria-current={t.id === selected ? 'true' : undefined} onClick={() => setSelected(t.id)}>
                    <span className="template-row-main">
                      <span className="template-name">{t.name}</span>
                      <span className="mono small muted">{t.id}</span>
                    </span>
                    <span className="template-row-meta small muted">
                      {t.builtinVersion ? <Badge tone="info">built-in</Badge> : <>Modified {formatServiceDate(t.modified)}</>}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {count > 0 && (
            <nav className="pager" aria-label="Pages">
              <Button size="sm" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                Previous
              </Button>
              <span className="num small" data-testid="templates-range">
                {(page - 1) * PAGE_SIZE + 1}–{Math.min(page * PAGE_SIZE, count)} of {count}
              </span>
              <Button size="sm" disabled={page * PAGE_SIZE >= count} onClick={() => setPage(page + 1)}>
                Next
              </Button>
            </nav>
          )}
        </section>
        <section className="template-detail-pane" aria-label="Template">
          {current ? <TemplateDetail template={current} onDeleted={() => setSelected(undefined)} /> : <p className="muted empty-hint">Select a Template to see its content.</p>}
        </section>
      </div>
    </div>
  );
};

const TemplateDetail = ({ template, onDeleted }: { template: Template; onDeleted: () => void }) => {
  const navigate = useNavigation((s) => s.navigate);
  const useTemplate = useStepsChoice((s) => s.chooseTemplate);
  const toast = useToasts((s) => s.show);
  const client = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const remove = useBridgeMutation('templates:delete', {
    onSuccess: () => {
      setConfirming(false);
      toast(`Deleted the Template "${template.name}".`, 'success');
      void client.invalidateQueries({ queryKey: ['templates:list'] });
      onDeleted();
    },
  });
  const builtin = template.builtinVersion !== null;
  return (
    <div className="template-detail" data-testid="template-detail">
      <div className="template-detail-head">
        <div>
          <h2 className="section-title template-detail-name">{template.name}</h2>
          <p className="mono small muted">{template.id}</p>
        </div>
        <div className="template-badges">
          {builtin && <Badge tone="info">built-in {template.builtinVersion}</Badge>}
          {template.requireSignatureAuth === 1 && <Badge tone="warning">signature required</Badge>}
        </div>
      </div>
      {template.description && <p className="template-description">{template.description}</p>}
      <dl className="template-facts small">
        <dt>Created</dt>
        <dd>{formatServiceDate(template.created)}</dd>
        <dt>Modified</dt>
        <dd>{formatServiceDate(template.modified)}</dd>
        <dt>Last used</dt>
        <dd>{formatServiceDate(template.lastUsed)}</dd>
      </dl>
      <div className="template-actions">
        <Button
          variant="primary"
          onClick={() => {
            useTemplate(template.id);
            navigate({ name: 'upload' });
          }}
        >
          Run on files
        </Button>
        {!builtin && <Button onClick={() => navigate({ name: 'template-editor', id: template.id })}>Edit</Button>}
        <Button onClick={() => navigate({ name: 'template-editor', id: template.id, copy: true })}>Duplicate</Button>
        {!builtin && (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Delete
          </Button>
        )}
      </div>
      {remove.error && <ErrorPanel title="Could not delete the Template" code={remove.error.code} message={remove.error.message} httpCode={remove.error.httpCode} />}
      <CodeEditor key={template.id} value={formatContent(template.content)} readOnly label={`Content of ${template.name}`} height="420px" data-testid="template-content" />
      <ConfirmDialog
        open={confirming}
        title={`Delete "${template.name}"?`}
        confirmLabel="Delete Template"
        tone="danger"
        busy={remove.isPending}
        onCancel={() => setConfirming(false)}
        onConfirm={() => remove.mutate({ id: template.id })}
      >
        Assemblies that name this Template by id will fail with TEMPLATE_NOT_FOUND. This cannot be undone.
      </ConfirmDialog>
    </div>
  );
};
