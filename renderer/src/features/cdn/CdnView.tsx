import { cdnUrlBase } from '../../../../shared/api/cdn-url-base';
import { useState } from 'react';
import { cdnScopeProblem, CDN_SIGN_SCOPE, scopesAllowCdnSigning } from '../../../../shared/api/scopes';
import type { CdnPreviewResult } from '../../../../shared/ipc/template-models';
import { toAppError } from '../../bridge/bridge-error';
import { useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { EmptyState } from '../../components/EmptyState';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { formatBytes } from '../../lib/format';
import { useNavigation, useUnsavedChanges } from '../../state/navigation-store';
import { useToasts } from '../../state/toast-store';
import './cdn.css';

const EXPIRY = [
  { seconds: 900, label: '15 minutes' },
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '1 day' },
  { seconds: 604_800, label: '7 days' },
  { seconds: 2_592_000, label: '30 days' },
];

type Param = { readonly name: string; readonly value: string };

/** Builds a signed content-delivery URL; the signing happens in the main process with a Smart CDN key. */
export const CdnView = () => {
  const info = useBridgeQuery('app:info', {});
  const workspaces = useBridgeQuery('workspaces:list', {});
  const keys = useBridgeQuery('authKeys:list', {});
  const templates = useBridgeQuery('templates:list', { pagesize: 200 }, { retry: false });
  // Stored assets are the natural inputs: a Smart CDN reads them by path.
  const assets = useBridgeQuery('assets:list', { prefix: '', limit: 200 }, { retry: false });
  const navigate = useNavigation((s) => s.navigate);
  const active = workspaces.data?.find((w) => w.id === info.data?.activeWorkspaceId);
  const allowed = (keys.data ?? []).filter((k) => k.smartCdn && k.isActive);
  // A key with a scope list signs only with smart_cdn:sign in it: the others are explained, not offered.
  const cdnKeys = allowed.filter((k) => scopesAllowCdnSigning(k.scopes));
  const unscoped = allowed.filter((k) => !scopesAllowCdnSigning(k.scopes));
  const [keyId, setKeyId] = useState('');
  const [slug, setSlug] = useState<string | null>(null);
  const [template, setTemplate] = useState('');
  const [input, setInput] = useState('');
  const [params, setParams] = useState<Param[]>([{ name: '', value: '' }]);
  const [expiry, setExpiry] = useState(3600);
  const [copied, setCopied] = useState(false);
  // What was last sent to be signed: typed input not signed yet (or changed since) is asked about on leaving.
  const [signedFor, setSignedFor] = useState<string | null>(null);
  const toast = useToasts((s) => s.show);
  const preview = useBridgeMutation('cdn:preview');
  const sign = useBridgeMutation('cdn:sign', {
    onSuccess: (signed) => {
      setCopied(false);
      preview.mutate({ url: signed.url });
    },
  });
  const open = useBridgeMutation('shell:openUrl', { onError: (e) => toast(`${e.code}: ${e.message}`, 'danger') });

  const chosenKey = keyId || cdnKeys[0]?.id || '';
  const workspaceSlug = slug ?? active?.slug ?? '';
  const ready = chosenKey !== '' && workspaceSlug !== '' && template.trim() !== '' && input.trim() !== '';
  const typed = JSON.stringify({ keyId, slug, template, input, params, expiry });
  const anythingTyped = template.trim() !== '' || input.trim() !== '' || params.some((p) => p.name.trim() !== '' || p.value !== '');
  useUnsavedChanges(anythingTyped && !(sign.isSuccess && signedFor === typed), 'the CDN URL form');
  const setParam = (i: number, p: Partial<Param>) => setParams(params.map((x, j) => (j === i ? { ...x, ...p } : x)));

  const copy = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      setCopied(true);
    } catch (error) {
      toast(`Could not copy: ${toAppError(error).message}`, 'danger');
    }
  };

  return (
    <div className="templates-view cdn-view">
      <div className="section-head">
        <h1 className="page-title">Signed CDN URLs</h1>
      </div>
      <p className="muted">A URL that serves a file through a Template, valid until it expires. It is signed in the main process; no secret reaches this page.</p>
      {keys.isError && <ErrorPanel title="Could not load the keys that can sign" code={keys.error.code} message={keys.error.message} httpCode={keys.error.httpCode} />}
      {keys.isPending && <Spinner size={24} label="Loading keys" />}
      {keys.data && cdnKeys.length === 0 && (
        <EmptyState title="No key may sign CDN URLs" action={<Button onClick={() => navigate({ name: 'auth-keys' })}>Open Auth Keys</Button>}>
          {unscoped.length === 0 ? (
            <>Turn on &quot;Allowed for Smart CDN&quot; for an active key, or create one.</>
          ) : (
            <span data-testid="cdn-scope-problem">{cdnScopeProblem(unscoped[0]!.authKey, unscoped[0]!.scopes ?? [])}</span>
          )}
        </EmptyState>
      )}
      {cdnKeys.length > 0 && unscoped.length > 0 && (
        <p className="muted" data-testid="cdn-scope-problem">
          Not offered: {unscoped.map((k) => `${k.authKey.slice(0, 16)}…`).join(', ')} — allowed for Smart CDN, but {unscoped.length === 1 ? 'its scope list lacks' : 'their scope lists lack'}{' '}
          <span className="mono">{CDN_SIGN_SCOPE}</span>.
        </p>
      )}
      {cdnKeys.length > 0 && (
        <form
          className="template-detail cdn-form"
          aria-label="CDN URL"
          onSubmit={(e) => {
            e.preventDefault();
            setSignedFor(typed);
            sign.mutate({
              keyId: chosenKey,
              workspaceSlug,
              template: template.trim(),
              input: input.trim(),
              params: Object.fromEntries(params.filter((p) => p.name.trim() !== '').map((p) => [p.name.trim(), p.value])),
              expiresInSeconds: expiry,
            });
          }}
        >
          <div className="form-grid">
            <label className="form-field">
              <span className="field-label">Signing key</span>
              <select className="input mono" value={chosenKey} onChange={(e) => setKeyId(e.currentTarget.value)} aria-label="Signing key">
                {cdnKeys.map((k) => (
                  <option key={k.id} value={k.id}>
                    {k.authKey.slice(0, 16)}… {k.description ? `(${k.description})` : ''}
                  </option>
                ))}
              </select>
            </label>
            <label className="form-field">
              <span className="field-label">Workspace slug</span>
              <input className="input mono" value={workspaceSlug} onChange={(e) => setSlug(e.currentTarget.value.toLowerCase())} aria-label="Workspace slug" spellCheck={false} />
              {active && workspaceSlug && (
                <span className="small muted" data-testid="cdn-url-base">
                  URLs start with {cdnUrlBase({ endpoint: active.kind === 'local' ? (info.data?.localServiceUrl ?? active.endpoint) : active.endpoint, slug: workspaceSlug, local: active.kind === 'local' })}/…
                </span>
              )}
            </label>
            <label className="form-field">
              <span className="field-label">Template</span>
              <input className="input mono" value={template} onChange={(e) => setTemplate(e.currentTarget.value)} aria-label="Template" placeholder="serve-thumbnails" spellCheck={false} list="cdn-templates" />
              <datalist id="cdn-templates">
                {(templates.data?.items ?? []).map((t) => (
                  <option key={t.id} value={t.name} />
                ))}
              </datalist>
            </label>
            <label className="form-field">
              <span className="field-label">File path</span>
              <input className="input mono" value={input} onChange={(e) => setInput(e.currentTarget.value)} aria-label="File path" placeholder="photos/cat.jpg" spellCheck={false} list="cdn-assets" />
              <datalist id="cdn-assets">
                {(assets.data?.assets ?? []).map((a) => (
                  <option key={a.assetId} value={a.path} />
                ))}
              </datalist>
            </label>
          </div>
          <fieldset className="form-field cdn-params">
            <legend className="field-label">Parameters</legend>
            {params.map((p, i) => (
              <div key={i} className="param-row">
                <input className="input mono" value={p.name} placeholder="name" aria-label={`Parameter ${i + 1} name`} onChange={(e) => setParam(i, { name: e.currentTarget.value })} />
                <input className="input mono" value={p.value} placeholder="value" aria-label={`Parameter ${i + 1} value`} onChange={(e) => setParam(i, { value: e.currentTarget.value })} />
                <Button size="sm" variant="ghost" aria-label={`Remove parameter ${i + 1}`} onClick={() => setParams(params.filter((_, j) => j !== i))} disabled={params.length === 1}>
                  Remove
                </Button>
              </div>
            ))}
            <Button size="sm" onClick={() => setParams([...params, { name: '', value: '' }])}>
              Add parameter
            </Button>
          </fieldset>
          <label className="form-field">
            <span className="field-label">Expires in</span>
            <select className="input" value={expiry} onChange={(e) => setExpiry(Number(e.currentTarget.value))} aria-label="Expires in">
              {EXPIRY.map((x) => (
                <option key={x.seconds} value={x.seconds}>
                  {x.label}
                </option>
              ))}
            </select>
          </label>
          <div className="template-actions">
            <Button type="submit" variant="primary" busy={sign.isPending} disabled={!ready || sign.isPending}>
              Sign URL
            </Button>
          </div>
          {sign.error && <ErrorPanel title="Not signed" code={sign.error.code} message={sign.error.message} httpCode={sign.error.httpCode} />}
          {sign.data && (
            <div className="cdn-result" data-testid="cdn-result">
              <label className="form-field">
                <span className="field-label">Signed URL · valid until {new Date(sign.data.expiresAt).toLocaleString()}</span>
                <textarea className="input textarea mono" readOnly rows={3} value={sign.data.url} aria-label="Signed URL" onFocus={(e) => e.currentTarget.select()} />
              </label>
              <div className="template-actions">
                <Button onClick={() => void copy(sign.data.url)}>{copied ? 'Copied' : 'Copy URL'}</Button>
                <Button onClick={() => open.mutate({ url: sign.data.url })}>Open in browser</Button>
                <Button onClick={() => preview.mutate({ url: sign.data.url })} busy={preview.isPending} disabled={preview.isPending}>
                  Fetch again
                </Button>
              </div>
              <CdnPreview pending={preview.isPending} data={preview.data} error={preview.error} />
            </div>
          )}
        </form>
      )}
    </div>
  );
};

/** Why the URL served no file, in the words of who refused: the CDN's Template rules, the run, or the URL. */
const previewErrorTitle = (status: number, code: string): string => {
  if (code === 'CDN_TEMPLATE_ROBOT_NOT_ALLOWED' || code === 'CDN_TEMPLATE_TOO_MANY_STEPS' || code === 'CDN_TEMPLATE_NO_STEPS') return 'The Template cannot run on the Smart CDN';
  return status === 422 || status === 504 ? 'The Template failed on this input' : 'The URL served no file';
};

/** What the signed URL serves: the image (fetched by core), its type, size and cache state, or why it failed. */
const CdnPreview = ({ pending, data, error }: { pending: boolean; data: CdnPreviewResult | undefined; error: { code: string; message: string; httpCode?: number } | null }) => (
  <section className="cdn-preview" aria-label="Preview" aria-busy={pending} data-testid="cdn-preview">
    <h2 className="field-label">What the URL serves</h2>
    {pending && <Spinner size={20} label="Fetching the URL (the Template runs on a first fetch)" />}
    {!pending && error && <ErrorPanel title="Could not fetch the URL" code={error.code} message={error.message} httpCode={error.httpCode} />}
    {!pending && data?.error && (
      <ErrorPanel title={previewErrorTitle(data.status, data.error.code)} code={data.error.code} message={data.error.message} httpCode={data.status} />
    )}
    {!pending && data && !data.error && (
      <>
        <p className="cdn-preview-facts" data-testid="cdn-preview-facts">
          <span className="mono">{data.contentType ?? 'no type'}</span> · {formatBytes(data.size)}
          {data.cache && (
            <Badge tone={data.cache === 'HIT' ? 'success' : 'neutral'} title="X-Cache: a HIT was served from the cache without running the Template">
              cache {data.cache.toLowerCase()}
            </Badge>
          )}
        </p>
        <div className="cdn-preview-frame">
          {data.dataUrl ? <img src={data.dataUrl} alt="What the signed URL serves" data-testid="cdn-preview-image" /> : <span className="muted">Not an image (or over 8 MB): open the URL to see it.</span>}
        </div>
      </>
    )}
  </section>
);
