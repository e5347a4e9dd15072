import { useState } from 'react';
import { useBridgeQuery } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { useStepsChoice } from '../../state/steps-store';
import { TemplateSteps } from './TemplateSteps';

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The Template's own `fields` (defaults a request may override), as strings. */
export const templateDefaultFields = (content: unknown): Record<string, string> =>
  isRecord(content) && isRecord(content.fields) ? Object.fromEntries(Object.entries(content.fields).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])) : {};

/** "Run a Template": the workspace's Templates and the latest built-ins, then the fields to send with it. */
export const TemplatePicker = () => {
  const templateId = useStepsChoice((s) => s.templateId);
  const fields = useStepsChoice((s) => s.templateFields);
  const chooseTemplate = useStepsChoice((s) => s.chooseTemplate);
  const setFields = useStepsChoice((s) => s.setTemplateFields);
  const [newField, setNewField] = useState('');
  const list = useBridgeQuery('templates:list', { pagesize: 850, sort: 'name', order: 'asc', includeBuiltin: 'latest' });

  if (list.isPending) return <Spinner label="Loading Templates" />;
  if (list.isError) return <ErrorPanel title="Could not load Templates" code={list.error.code} message={list.error.message} httpCode={list.error.httpCode} />;
  const chosen = list.data.items.find((t) => t.id === templateId) ?? null;
  const defaults = chosen ? templateDefaultFields(chosen.content) : {};
  const names = [...new Set([...Object.keys(defaults), ...Object.keys(fields)])];

  return (
    <div className="template-picker">
      <label className="form-field">
        <span className="field-label">Template</span>
        <select className="input" value={templateId ?? ''} onChange={(e) => chooseTemplate(e.currentTarget.value || null)} data-testid="template-select">
          <option value="">Choose a Template…</option>
          {list.data.items.map((t) => (
            <option key={t.id} value={t.id}>
              {t.builtinVersion ? `${t.description.split('.')[0] ?? t.name} (${t.id})` : t.name}
            </option>
          ))}
        </select>
      </label>
      {chosen && chosen.description && <p className="muted small">{chosen.description}</p>}
      {chosen && <TemplateSteps templateId={chosen.id} />}
      {chosen && (
        <fieldset className="fields-editor">
          <legend className="field-label">Fields</legend>
          {names.length === 0 && <p className="muted small">This Template declares no fields. Add any your steps read as {'${fields.name}'}.</p>}
          {names.map((name) => (
            <label key={name} className="field-row">
              <code className="code-chip">{name}</code>
              <input className="input" value={fields[name] ?? ''} placeholder={defaults[name] ?? ''} onChange={(e) => setFields({ ...fields, [name]: e.currentTarget.value })} aria-label={`Field ${name}`} />
            </label>
          ))}
          <div className="field-row">
            <input className="input" value={newField} placeholder="New field name" aria-label="New field name" onChange={(e) => setNewField(e.currentTarget.value)} />
            <Button
              size="sm"
              disabled={newField.trim() === '' || names.includes(newField.trim())}
              onClick={() => {
                setFields({ ...fields, [newField.trim()]: '' });
                setNewField('');
              }}
            >
              Add field
            </Button>
          </div>
        </fieldset>
      )}
    </div>
  );
};
