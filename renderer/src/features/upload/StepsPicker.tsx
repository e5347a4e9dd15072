import { lazy, Suspense, useMemo, useRef } from 'react';
import { PRESETS } from '../../../../shared/api/presets';
import type { Steps } from '../../../../shared/api/instructions';
import type { PlanWarning } from '../../../../shared/ipc/transfer-models';
import type { CodeEditorHandle } from '../../components/CodeEditor';
import { FieldWarnings } from '../../components/FieldWarnings';
import { Spinner } from '../../components/Spinner';
import { stepsMarkers, type StepsCheck } from '../../lib/step-checks';
import { CUSTOM_PRESET, TEMPLATE_PRESET, useStepsChoice } from '../../state/steps-store';
import { TemplatePicker } from './TemplatePicker';

// CodeMirror loads when Custom is chosen, not with the app's first screen.
const CodeEditor = lazy(() => import('../../components/CodeEditor').then((m) => ({ default: m.CodeEditor })));
const EDITOR_HEIGHT = '240px';

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
  const editor = useRef<CodeEditorHandle>(null);
  // Each problem at its line: a mark in the gutter and under the text, and "Line N" in the list below.
  const markers = useMemo(() => stepsMarkers(customText, check), [customText, check]);

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
          <span className="field-label" aria-hidden="true">
            Steps (JSON)
          </span>
          <div className={`steps-editor-frame${check.kind === 'ok' ? '' : ' invalid'}`}>
            <Suspense
              fallback={
                <div className="code-editor center-pane" style={{ height: EDITOR_HEIGHT }}>
                  <Spinner size={18} label="Loading the editor" />
                </div>
              }
            >
              <CodeEditor
                value={customText}
                onChange={setCustomText}
                diagnostics={markers}
                label="Steps (JSON)"
                height={EDITOR_HEIGHT}
                invalid={check.kind !== 'ok'}
                describedBy="steps-status"
                handleRef={editor}
                data-testid="steps-editor"
              />
            </Suspense>
          </div>
          <div id="steps-status" className="steps-status" aria-live="polite">
            {check.kind === 'syntax' && (
              <div className="steps-error" data-testid="steps-error">
                <span>
                  {check.error.message}: expected {check.error.expected}.
                </span>
                <button type="button" className="link-btn" onClick={() => editor.current?.focusAt(check.error.line, check.error.column)}>
                  Go to error
                </button>
              </div>
            )}
            {check.kind === 'invalid' && (
              <ul className="steps-error" data-testid="steps-error">
                {check.problems.map((p, i) => (
                  <li key={i}>
                    <button type="button" className="link-btn" onClick={() => editor.current?.focusAt(markers[i]?.line ?? 1)} data-testid="steps-error-line">
                      Line {markers[i]?.line ?? 1}
                    </button>
                    : {p.message} <code className="code-chip">{p.code}</code>
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
