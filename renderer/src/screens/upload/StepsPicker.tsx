import { useRef } from 'react';
import { PRESETS } from '../../../../shared/api/presets';
import type { Steps } from '../../../../shared/api/instructions';
import type { PlanWarning } from '../../../../shared/ipc/transfer-models';
import { FieldWarnings } from '../../components/FieldWarnings';
import type { StepsCheck } from '../../lib/step-checks';
import { CUSTOM_PRESET, TEMPLATE_PRESET, useStepsChoice } from '../../state/steps-store';
import { TemplatePicker } from './TemplatePicker';

const summary = (steps: Steps): string =>
  Object.entries(steps)
    .map(([name, step]) => `${name} (${step.robot})`)
    .join(' → ');

/** "What to do": preset cards as a native radio group (arrow keys work), plus a JSON editor for custom steps. */
export const StepsPicker = ({ check, warnings = [] }: { check: StepsCheck; warnings?: readonly PlanWarning[] }) => {
  const presetId = useStepsChoice((s) => s.presetId);
  const customText = useStepsChoice((s) => s.customText);
  const choose = useStepsChoice((s) => s.choose);
  const setCustomText = useStepsChoice((s) => s.setCustomText);
  const editor = useRef<HTMLTextAreaElement>(null);

  const goToError = (offset: number) => {
    const el = editor.current;
    if (!el) return;
    el.focus();
    el.setSelectionRange(offset, Math.min(offset + 1, el.value.length));
  };

  return (
    <fieldset className="steps-picker">
      <legend className="section-title">What to do</legend>
      <div className="preset-list">
        {PRESETS.map((preset) => (
          <label key={preset.id} className={`preset-card${presetId === preset.id ? ' selected' : ''}`}>
            <input type="radio" name="preset" value={preset.id} checked={presetId === preset.id} onChange={() => choose(preset.id)} />
            <span className="preset-text">
              <span className="preset-label">{preset.label}</span>
              <span className="preset-desc muted">{preset.description}</span>
            </span>
          </label>
        ))}
        <label className={`preset-card${presetId === CUSTOM_PRESET ? ' selected' : ''}`}>
          <input type="radio" name="preset" value={CUSTOM_PRESET} checked={presetId === CUSTOM_PRESET} onChange={() => choose(CUSTOM_PRESET)} />
          <span className="preset-text">
            <span className="preset-label">Custom steps (JSON)</span>
            <span className="preset-desc muted">Write the Assembly's steps yourself, starting from the last preset.</span>
          </span>
        </label>
        <label className={`preset-card${presetId === TEMPLATE_PRESET ? ' selected' : ''}`}>
          <input type="radio" name="preset" value={TEMPLATE_PRESET} checked={presetId === TEMPLATE_PRESET} onChange={() => choose(TEMPLATE_PRESET)} />
          <span className="preset-text">
            <span className="preset-label">A Template</span>
            <span className="preset-desc muted">Run one of this workspace's Templates or a built-in, with its fields.</span>
          </span>
        </label>
      </div>

      {presetId === TEMPLATE_PRESET ? (
        <>
          <TemplatePicker />
          <FieldWarnings warnings={warnings} field="template" />
        </>
      ) : presetId === CUSTOM_PRESET ? (
        <div className="steps-editor-wrap">
          <label htmlFor="steps-editor" className="field-label">
            Steps (JSON)
          </label>
          <textarea
            id="steps-editor"
            ref={editor}
            className={`steps-editor mono${check.kind === 'ok' ? '' : ' invalid'}`}
            data-testid="steps-editor"
            spellCheck={false}
            autoCapitalize="off"
            autoComplete="off"
            aria-invalid={check.kind !== 'ok'}
            aria-describedby="steps-status"
            value={customText}
            onChange={(e) => setCustomText(e.currentTarget.value)}
            rows={10}
          />
          <div id="steps-status" className="steps-status" aria-live="polite">
            {check.kind === 'syntax' && (
              <div className="steps-error" data-testid="steps-error">
                <span>
                  {check.error.message}: expected {check.error.expected}.
                </span>
                <button type="button" className="link-btn" onClick={() => goToError(check.error.offset)}>
                  Go to error
                </button>
              </div>
            )}
            {check.kind === 'invalid' && (
              <ul className="steps-error" data-testid="steps-error">
                {check.problems.map((p, i) => (
                  <li key={i}>
                    {p.message} <code className="code-chip">{p.code}</code>
                  </li>
                ))}
              </ul>
            )}
            {check.kind === 'ok' && <span className="steps-ok">Looks valid: {summary(check.steps)}. The service checks the rest when you start.</span>}
          </div>
        </div>
      ) : (
        <ol className="pipeline" aria-label="Steps of this preset">
          {Object.entries(PRESETS.find((p) => p.id === presetId)?.steps ?? {}).map(([name, step]) => (
            <li key={name}>
              <code className="pipeline-name">{name}</code>
              <span className="muted">{step.robot}</span>
              {step.result === true && <span className="pipeline-result">result</span>}
            </li>
          ))}
        </ol>
      )}
      {presetId !== TEMPLATE_PRESET && <FieldWarnings warnings={warnings} field="steps" />}
    </fieldset>
  );
};
