import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import type { ChatSettingsView } from '../../../../shared/ipc/chat-settings-models';
import { bridgeKey, useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { Badge } from '../../components/Badge';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { useUnsavedChanges } from '../../state/navigation-store';
import { useToasts } from '../../state/toast-store';
import { chatFormProblems, chatFormToInput, chatFormValid, hostsText, type ChatForm } from './chat-model-form';

const fromView = (v: ChatSettingsView): ChatForm => ({
  endpoint: v.endpoint,
  model: v.model,
  timeout: v.timeoutMs === null ? '' : String(v.timeoutMs),
  toolServerHosts: hostsText(v.toolServerHosts),
});

/**
 * The local service's chat model: the OpenAI-compatible server its /ai/chat steps ask. The API key is
 * write-only (core keeps it in the vault); "Test chat server" lists the server's models (core asks it).
 */
/** A field's invalid state and the id of its error text, for the input. */
const invalidAttrs = (id: string, problem: string | null) => ({ 'aria-invalid': problem !== null, 'aria-describedby': problem ? `${id}-error` : undefined });

/** The error text under a field (its id is what invalidAttrs points to). */
const FieldError = ({ id, problem }: { id: string; problem: string | null }) =>
  problem ? (
    <span className="field-error" id={`${id}-error`}>
      {problem}
    </span>
  ) : null;

export const ChatModelSettings = () => {
  const client = useQueryClient();
  const toast = useToasts((s) => s.show);
  const settings = useBridgeQuery('service:chatSettings', {}, {
    // While a restart waits for executing Assemblies, follow it until it is done.
    refetchInterval: (q) => (q.state.data?.pendingRestart ? 2_000 : false),
  });
  const view = settings.data;
  const [form, setForm] = useState<ChatForm | null>(null);
  const [apiKey, setApiKey] = useState('');
  const [removeKey, setRemoveKey] = useState(false);
  const ids = { endpoint: useId(), model: useId(), timeout: useId(), key: useId(), models: useId(), hint: useId(), hosts: useId() };
  useEffect(() => {
    if (view && form === null) setForm(fromView(view));
  }, [view, form]);

  const test = useBridgeMutation('service:chatModels');
  const save = useBridgeMutation('service:saveChatSettings', {
    onSuccess: (next) => {
      client.setQueryData(bridgeKey('service:chatSettings', {}), next);
      setForm(fromView(next));
      setApiKey('');
      setRemoveKey(false);
      toast(next.pendingRestart ? 'Saved the chat model. The local service restarts once the running Assemblies finish.' : 'Saved the chat model; the local service uses it now.', 'success');
    },
  });

  const env = view?.environment ?? null;
  const locked = env !== null;
  const f = form ?? { endpoint: '', model: '', timeout: '', toolServerHosts: '' };
  // ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS wins over the saved list: shown, not editable.
  const envHosts = view?.toolServerHostsFromEnvironment ?? null;
  const problems = chatFormProblems(f);
  const dirty = view !== undefined && (JSON.stringify(f) !== JSON.stringify(fromView(view)) || apiKey !== '' || removeKey);
  const canSave = !locked && dirty && chatFormValid(problems) && !save.isPending;
  useUnsavedChanges(dirty && !save.isPending, 'the chat model settings');
  // While the environment decides, test what actually runs.
  const testEndpoint = env ? (env.endpoint ?? '') : f.endpoint.trim();
  // A stored key goes only to the endpoint it was saved with (core drops it when the endpoint changes).
  const sameEndpoint = (a: string, b: string) => a.trim().replace(/\/+$/, '') === b.trim().replace(/\/+$/, '');
  const movedEndpoint = view !== undefined && view.endpoint !== '' && !sameEndpoint(f.endpoint, view.endpoint);
  const canTest = testEndpoint !== '' && (env !== null || problems.endpoint === null) && !test.isPending;
  const set = (change: Partial<ChatForm>) => setForm({ ...f, ...change });

  return (
    <section aria-label="Chat model" className="settings-group chat-model-settings" data-testid="chat-model-settings">
      <h2 className="section-title">
        Chat model <span className="muted chat-model-scope">· local service</span>
      </h2>
      <p className="small muted chat-model-hint">
        The local service's <span className="mono">/ai/chat</span> steps ask this OpenAI-compatible server: Ollama at{' '}
        <span className="mono">http://127.0.0.1:11434/v1</span>, LM Studio, llama.cpp, or a hosted API.
      </p>
      {settings.isError && <ErrorPanel title="Could not read the chat model" code={settings.error.code} message={settings.error.message} />}
      {settings.isPending && <Spinner size={20} label="Loading the chat model" />}
      {env && (
        <div className="chat-model-env" role="note" data-testid="chat-env-note">
          <p className="small">
            <Badge tone="info">Environment</Badge> The app was started with <span className="mono">ASSEMBLYLINE_CHAT_*</span> variables: they win over the settings
            below, which are kept for when they are not set.
          </p>
          <dl className="chat-model-env-values small">
            <dt>Endpoint</dt>
            <dd className="mono">{env.endpoint ?? 'not set'}</dd>
            <dt>Model</dt>
            <dd className="mono">{env.model ?? 'default'}</dd>
            <dt>Timeout</dt>
            <dd>{env.timeoutMs === null ? 'default (120 s)' : `${env.timeoutMs} ms`}</dd>
            <dt>API key</dt>
            <dd>{env.hasApiKey ? 'set' : 'not set'}</dd>
            <dt>Tool servers</dt>
            <dd className="mono">{envHosts ? hostsText(envHosts) : 'default (loopback and own domains)'}</dd>
          </dl>
        </div>
      )}
      {view && (
        <form
          className="chat-model-form"
          aria-label="Chat model settings"
          onSubmit={(e) => {
            e.preventDefault();
            if (canSave) save.mutate(chatFormToInput(f, apiKey, removeKey));
          }}
        >
          <fieldset className="settings-group chat-model-fields" disabled={locked}>
            <div className="form-field">
              <label className="field-label" htmlFor={ids.endpoint}>
                Endpoint URL
              </label>
              <input
                id={ids.endpoint}
                className="input mono"
                value={f.endpoint}
                onChange={(e) => set({ endpoint: e.currentTarget.value })}
                placeholder="http://127.0.0.1:11434/v1"
                {...invalidAttrs(ids.endpoint, problems.endpoint)}
                spellCheck={false}
              />
              <FieldError id={ids.endpoint} problem={problems.endpoint} />
            </div>
            <div className="form-field">
              <label className="field-label" htmlFor={ids.model}>
                Model
              </label>
              <input
                id={ids.model}
                className="input mono"
                value={f.model}
                onChange={(e) => set({ model: e.currentTarget.value })}
                placeholder="default"
                list={test.data ? ids.models : undefined}
                spellCheck={false}
              />
              <span className="small muted">Sent when a step names no model. Test chat server lists what the server has.</span>
            </div>
            <div className="form-field">
              <label className="field-label" htmlFor={ids.timeout}>
                Timeout (ms)
              </label>
              <input
                id={ids.timeout}
                className="input chat-model-timeout"
                inputMode="numeric"
                value={f.timeout}
                onChange={(e) => set({ timeout: e.currentTarget.value })}
                placeholder="120000"
                {...invalidAttrs(ids.timeout, problems.timeout)}
              />
              <FieldError id={ids.timeout} problem={problems.timeout} />
            </div>
            <div className="form-field">
              <label className="field-label" htmlFor={ids.key}>
                API key
              </label>
              <div className="chat-model-key">
                <input
                  id={ids.key}
                  className="input mono"
                  type="password"
                  autoComplete="off"
                  value={apiKey}
                  disabled={removeKey}
                  onChange={(e) => setApiKey(e.currentTarget.value)}
                  placeholder={
                    removeKey
                      ? 'Removed when you save'
                      : !view.hasApiKey
                        ? 'None (most local servers need none)'
                        : movedEndpoint
                          ? 'Type it again for this endpoint (the stored key is not sent elsewhere)'
                          : 'Stored — leave empty to keep it'
                  }
                />
                {view.hasApiKey && (
                  <Button size="sm" variant={removeKey ? 'secondary' : 'ghost'} onClick={() => setRemoveKey(!removeKey)} aria-pressed={removeKey}>
                    {removeKey ? 'Keep key' : 'Remove key'}
                  </Button>
                )}
              </div>
              <span className="small muted">Kept in the system keychain by the app; never shown again.</span>
            </div>
            <div className="form-field">
              <label className="field-label" htmlFor={ids.hosts}>
                Tool servers may be on
              </label>
              <input
                id={ids.hosts}
                className="input mono"
                value={envHosts ? hostsText(envHosts) : f.toolServerHosts}
                disabled={envHosts !== null}
                onChange={(e) => set({ toolServerHosts: e.currentTarget.value })}
                placeholder="loopback, tools.example.com, *.example.org"
                {...invalidAttrs(ids.hosts, envHosts ? null : problems.toolServerHosts)}
                aria-describedby={[envHosts || !problems.toolServerHosts ? null : `${ids.hosts}-error`, `${ids.hosts}-hint`].filter(Boolean).join(' ')}
                spellCheck={false}
              />
              {!envHosts && <FieldError id={ids.hosts} problem={problems.toolServerHosts} />}
              <span className="small muted" id={`${ids.hosts}-hint`}>
                {envHosts ? (
                  <>
                    Set by <span className="mono">ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS</span>, which wins over this setting.
                  </>
                ) : (
                  <>
                    Hosts a chat step's tool servers (<span className="mono">mcp_servers</span>) may be on, comma-separated: host names, <span className="mono">*.example.com</span> for
                    subdomains, <span className="mono">loopback</span>, or <span className="mono">*</span> for any host. Empty: loopback and the local service's own domains.
                  </>
                )}
              </span>
            </div>
          </fieldset>
          <p className="small muted" id={ids.hint}>
            Saving restarts the local service (a few seconds). If Assemblies are executing, the restart waits until they have finished, so none is cut short.
          </p>
          {view.pendingRestart && (
            <p className="small chat-model-pending" role="status" data-testid="chat-restart-pending">
              <Spinner size={14} /> Saved. The local service restarts with these settings once {view.pendingRestart.executing === 1 ? 'the executing Assembly has' : `the ${view.pendingRestart.executing} executing Assemblies have`}{' '}
              finished.
            </p>
          )}
          {save.error && <ErrorPanel title="The chat model was not saved" code={save.error.code} message={save.error.message} />}
          <div className="template-actions">
            <Button
              disabled={!canTest}
              busy={test.isPending}
              onClick={() => test.mutate({ endpoint: testEndpoint, ...(apiKey !== '' && !removeKey && !env ? { apiKey } : {}) })}
            >
              Test chat server
            </Button>
            <Button type="submit" variant="primary" disabled={!canSave} busy={save.isPending} aria-describedby={ids.hint}>
              Save
            </Button>
          </div>
          {test.error && <ErrorPanel title="The chat server did not answer as expected" code={test.error.code} message={test.error.message} httpCode={test.error.httpCode} data-testid="chat-test-error" />}
          {test.data && (
            <div className="chat-model-list" data-testid="chat-models">
              <p className="small" role="status">
                {test.data.models.length === 0 ? 'Connected, but the server lists no models.' : `Connected: ${test.data.models.length} model${test.data.models.length === 1 ? '' : 's'}. Pick one:`}
              </p>
              <datalist id={ids.models}>
                {test.data.models.map((m) => (
                  <option key={m} value={m} />
                ))}
              </datalist>
              <ul className="chat-model-choices" aria-label="Models on the server">
                {test.data.models.map((m) => (
                  <li key={m}>
                    <Button size="sm" variant={m === f.model ? 'primary' : 'secondary'} disabled={locked} aria-pressed={m === f.model} onClick={() => set({ model: m })}>
                      <span className="mono">{m}</span>
                    </Button>
                  </li>
                ))}
              </ul>
            </div>
          )}
        </form>
      )}
    </section>
  );
};
