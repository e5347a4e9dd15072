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
import { dayBound, formatContent } from './template-dates';
import { useNavigation } from '../../state/navigation-store';
import { useStepsChoice } from '../../state/steps-store';
import { useToasts } from '../../state/toast-store';
import { useDebounced } from '../../hooks/use-debounced';
import {
  changeTemplateList,
  DEFAULT_TEMPLATE_LIST,
  isFiltered,
  TEMPLATE_BUILTINS,
  TEMPLATE_SORTS,
  templateListToQuery,
  type TemplateBuiltins,
  type TemplateListParams,
  type TemplateOrder,
  type TemplateSort,
} from '../../lib/template-list-params';
import './templates.css';
import { TemplateTrialPanel } from './TemplateTrialPanel';
import { DateTime } from '../../components/DateTime';

const PAGE_SIZE = 25;

const SORT_LABELS: Readonly<Record<TemplateSort, string>> = { created: 'Created', modified: 'Modified', name: 'Name', last_used: 'Last used', id: 'Id' };
const BUILTIN_LABELS: Readonly<Record<TemplateBuiltins, string>> = {
  none: 'None',
  latest: 'Latest versions',
  all: 'All versions',
  'exclusively-latest': 'Only built-in',
  'exclusively-all': 'Only built-in, all versions',
};

/**
 * Templates of the active workspace: search, sort, order, date range, built-ins and paging (all in the URL,
 * so reload and Back keep them), a detail pane with actions.
 */
export const TemplatesView = ({ selectedId, list: listParams }: { selectedId?: string | undefined; list?: TemplateListParams | undefined }) => {
  const navigate = useNavigation((s) => s.navigate);
  const params = listParams ?? DEFAULT_TEMPLATE_LIST;
  // The selected Template and the list params live in the URL (#/templates/<id>?sort=name…): a reload
  // keeps them; a change replaces the history entry, so Back leaves the screen rather than stepping
  // through every click.
  const selected = selectedId;
  const go = (id: string | undefined, next: TemplateListParams) =>
    navigate({ name: 'templates', ...(id ? { selectedId: id } : {}), ...(templateListToQuery(next) === '' ? {} : { list: next }) }, { replace: true });
  const setSelected = (id: string | undefined) => go(id, params);
  const change = (c: Partial<TemplateListParams>) => go(selected, changeTemplateList(params, c));
  const { page, sort, order, from, to, builtins } = params;

  // The search box answers each keystroke; the URL (and the list) follow once typing pauses.
  const [keywords, setKeywords] = useState(params.q);
  const search = useDebounced(keywords.trim(), 300);
  useEffect(() => {
    if (search !== params.q.trim()) change({ q: search });
    // Only the settled text matters here; params are read fresh on each render.
  }, [search]);

  const fromdate = dayBound(from, 'from');
  const todate = dayBound(to, 'to');
  const list = useBridgeQuery(
    'templates:list',
    {
      page,
      pagesize: PAGE_SIZE,
      sort,
      order,
      includeBuiltin: builtins,
      ...(params.q.trim() ? { keywords: params.q.trim() } : {}),
      ...(fromdate ? { fromdate } : {}),
      ...(todate ? { todate } : {}),
    },
    { placeholderData: (previous) => previous },
  );
  const items = list.data?.items ?? [];
  const count = list.data?.count ?? 0;
  const current = items.find((t) => t.id === selected) ?? null;
  const filtered = isFiltered(params);
  const badRange = from !== '' && to !== '' && from > to;

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
          className="input toolbar-search templates-search"
          placeholder="Search names (% and _ are wildcards)"
          aria-label="Search Templates by name"
          value={keywords}
          onChange={(e) => setKeywords(e.currentTarget.value)}
        />
        <label className="toolbar-field">
          <span className="muted small">Sort</span>
          <select className="input" value={sort} onChange={(e) => change({ sort: e.currentTarget.value as TemplateSort })} aria-label="Sort by">
            {TEMPLATE_SORTS.map((s) => (
              <option key={s} value={s}>
                {SORT_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label className="toolbar-field">
          <span className="muted small">Order</span>
          <select className="input" value={order} onChange={(e) => change({ order: e.currentTarget.value as TemplateOrder })} aria-label="Order">
            <option value="desc">Descending</option>
            <option value="asc">Ascending</option>
          </select>
        </label>
        <label className="toolbar-field">
          <span className="muted small">Created from</span>
          <input type="date" className="input" value={from} max={to || undefined} onChange={(e) => change({ from: e.currentTarget.value })} aria-label="Created from" aria-invalid={badRange} />
        </label>
        <label className="toolbar-field">
          <span className="muted small">to</span>
          <input type="date" className="input" value={to} min={from || undefined} onChange={(e) => change({ to: e.currentTarget.value })} aria-label="Created to" aria-invalid={badRange} />
        </label>
        <label className="toolbar-field">
          <span className="muted small">Built-in</span>
          <select className="input" value={builtins} onChange={(e) => change({ builtins: e.currentTarget.value as TemplateBuiltins })} aria-label="Built-in Templates">
            {TEMPLATE_BUILTINS.map((b) => (
              <option key={b} value={b}>
                {BUILTIN_LABELS[b]}
              </option>
            ))}
          </select>
        </label>
        {/* Always there (disabled at the defaults), so the toolbar never moves when it applies. */}
        <Button
          size="sm"
          variant="ghost"
          className="toolbar-reset"
          disabled={templateListToQuery({ ...params, page: 1 }) === '' && keywords === ''}
          onClick={() => {
            setKeywords('');
            go(selected, DEFAULT_TEMPLATE_LIST);
          }}
        >
          Reset
        </Button>
      </div>

      {badRange && (
        <p className="field-error" role="alert">
          The start date is after the end date: no Template can match.
        </p>
      )}
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
              {page > 1 ? 'This page is past the end of the list.' : filtered ? 'Try other words or dates, or show built-in Templates.' : 'A Template keeps a processing recipe to run again on new files.'}
            </EmptyState>
          )}
          {items.length > 0 && (
            <ul className="boxed-list template-list" aria-label="Template list">
              {items.map((t) => (
                <li key={t.id}>
                  <button type="button" className="template-row" aria-current={t.id === selected ? 'true' : undefined} onClick={() => setSelected(t.id)}>
                    <span className="template-row-main">
                      <span className="template-name">{t.name}</span>
                      <span className="mono small muted">{t.id}</span>
                    </span>
                    <span className="template-row-meta small muted">
                      {t.builtinVersion ? <Badge tone="info">built-in</Badge> : <>Modified <DateTime value={t.modified} /></>}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          {count > 0 && (
            <nav className="pager" aria-label="Pages">
              <Button size="sm" disabled={page <= 1} onClick={() => change({ page: page - 1 })}>
                Previous
              </Button>
              <span className="num small" data-testid="templates-range">
                {(page - 1) * PAGE_SIZE + 1}–{Math.min(page * PAGE_SIZE, count)} of {count}
              </span>
              <Button size="sm" disabled={page * PAGE_SIZE >= count} onClick={() => change({ page: page + 1 })}>
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
  // "Try this Template here first" is for a remote workspace's Templates: the Local one would try itself.
  const info = useBridgeQuery('app:info', {}, { staleTime: Infinity });
  const workspaces = useBridgeQuery('workspaces:list', {}, { staleTime: 30_000 });
  const active = workspaces.data?.find((w) => w.id === info.data?.activeWorkspaceId);
  const [trying, setTrying] = useState(false);
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
        <dd>
          <DateTime value={template.created} />
        </dd>
        <dt>Modified</dt>
        <dd>
          <DateTime value={template.modified} />
        </dd>
        <dt>Last used</dt>
        <dd>
          <DateTime value={template.lastUsed} />
        </dd>
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
        {active?.kind === 'remote' && (
          <Button onClick={() => setTrying((t) => !t)} aria-expanded={trying}>
            Try this Template here first
          </Button>
        )}
        {!builtin && (
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Delete
          </Button>
        )}
      </div>
      {trying && active?.kind === 'remote' && <TemplateTrialPanel key={`${active.id}/${template.id}`} templateId={template.id} workspaceId={active.id} workspaceName={active.name} />}
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
