import '../webhooks/webhooks.css';
import { useId, useState } from 'react';
import { NOTIFICATION_PAYLOAD_OPTIONS } from '../../../../shared/api/instructions';
import { DEFAULT_STACK_VERSION, RECOMMENDED_STACK_VERSION } from '../../../../shared/api/stack-version';
import { MAX_OPTION_FIELDS } from '../../../../shared/ipc/draft-choice';
import { Button } from '../../components/Button';
import { ErrorPanel } from '../../components/ErrorPanel';
import { CloseIcon } from '../../components/Icons';
import { IconButton } from '../../components/IconButton';
import { PAYLOAD_LABELS } from '../../lib/notify-form';
import { checkUploadOptions, FFMPEG_STACK_ROBOTS, optionLimits, optionsSummary, type OptionProblems } from './upload-options';
import { useStepsChoice } from '../../state/steps-store';
import { useWebhookTester } from '../webhooks/use-webhook-tester';

/** One labelled input with its hint or, when it has one, its problem (announced, and tied to the input). */
const OptionInput = ({
  label,
  value,
  onChange,
  problem,
  hint,
  placeholder,
  type = 'text',
  list,
  inputMode,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  problem: string | undefined;
  hint?: string | null;
  placeholder?: string;
  type?: 'text' | 'url';
  list?: string;
  inputMode?: 'numeric';
}) => {
  const id = useId();
  return (
    <label className="form-field option-field">
      <span className="field-label">{label}</span>
      <input
        className="input"
        type={type}
        value={value}
        placeholder={placeholder}
        list={list}
        inputMode={inputMode}
        aria-label={label}
        aria-invalid={problem !== undefined}
        aria-describedby={`${id}-note`}
        onChange={(e) => onChange(e.currentTarget.value)}
      />
      <span id={`${id}-note`} className={problem ? 'field-error' : 'muted small'} role={problem ? 'alert' : undefined}>
        {problem ?? hint ?? '\u00a0'}
      </span>
    </label>
  );
};

/**
 * "Options": the Assembly's request params beyond the steps — notify URL (and what its notification
 * leaves out), max size, max number of files, referer, custom fields and the encoding stack version. Closed
 * by default with a one-line summary; opens by itself while an option holds Start. Kept in the draft.
 */
export const UploadOptionsSection = () => {
  const options = useStepsChoice((s) => s.options);
  const setOptions = useStepsChoice((s) => s.setOptions);
  const [open, setOpen] = useState(false);
  const { start } = useWebhookTester();
  const problems: OptionProblems = checkUploadOptions(options);
  const blocked = Object.keys(problems).length > 0;
  const shown = open || blocked;
  const limits = optionLimits(options);
  const bodyId = useId();

  const setRow = (index: number, change: Partial<{ key: string; value: string }>) =>
    setOptions({ fields: options.fields.map((row, i) => (i === index ? { ...row, ...change } : row)) });

  return (
    <section className="upload-options" aria-label="Options" data-testid="upload-options">
      <button type="button" className="upload-options-toggle" aria-expanded={shown} aria-controls={bodyId} onClick={() => setOpen(!shown)}>
        <span className="section-title">Options</span>
        <span className={`upload-options-summary small ${blocked ? 'field-error' : 'muted'}`} data-testid="options-summary" title={blocked ? undefined : optionsSummary(options)}>
          {blocked ? 'Needs a fix' : optionsSummary(options)}
        </span>
        <span className="upload-options-chevron" aria-hidden="true">
          {shown ? '▾' : '▸'}
        </span>
      </button>
      {shown && (
        <div id={bodyId} className="upload-options-body">
          <div className="notify-field">
            <OptionInput
                label="Notify URL"
                type="url"
                value={options.notifyUrl}
                placeholder="https://example.com/webhook"
                problem={problems.notifyUrl}
                hint="Gets the Assembly's status when it is done."
                onChange={(notifyUrl) => setOptions({ notifyUrl })}
              />
            <div>
              <Button size="sm" busy={start.isPending} onClick={() => start.mutate({}, { onSuccess: (tester) => tester.url && setOptions({ notifyUrl: tester.url }) })}>
                Use the in-app tester
              </Button>
            </div>
            {start.isError && <ErrorPanel title="The webhook tester could not start" code={start.error.code} message={start.error.message} />}
            {options.notifyUrl.trim() !== '' && (
              <div className="notify-leave-out small" role="group" aria-label="Leave out of the notification">
                <span className="muted">Leave out:</span>
                {NOTIFICATION_PAYLOAD_OPTIONS.map((option) => (
                  <label key={option} className="toolbar-check">
                    <input
                      type="checkbox"
                      checked={options.leaveOut.includes(option)}
                      onChange={() => setOptions({ leaveOut: options.leaveOut.includes(option) ? options.leaveOut.filter((o) => o !== option) : [...options.leaveOut, option] })}
                    />
                    {PAYLOAD_LABELS[option]}
                  </label>
                ))}
              </div>
            )}
          </div>

          <div className="upload-options-grid">
            <OptionInput
              label="Max size per Assembly"
              value={options.maxSize}
              placeholder="e.g. 500 MB"
              problem={problems.maxSize}
              hint={limits.maxSize !== null ? `${limits.maxSize.toLocaleString('en-US')} bytes (max_size)` : 'All files of one Assembly together.'}
              onChange={(maxSize) => setOptions({ maxSize })}
            />
            <OptionInput
              label="Max files per Assembly"
              value={options.maxNumberOfFiles}
              placeholder="e.g. 100"
              inputMode="numeric"
              problem={problems.maxNumberOfFiles}
              hint="max_number_of_files: larger drops go as several Assemblies."
              onChange={(maxNumberOfFiles) => setOptions({ maxNumberOfFiles })}
            />
            <OptionInput
              label="Referer (regular expression)"
              value={options.referer}
              placeholder="e.g. ^https://example\.com/"
              problem={problems.referer}
              hint="Requests from this app carry no Referer, so they always pass."
              onChange={(referer) => setOptions({ referer })}
            />
            <OptionInput
              label="Encoding stack version"
              value={options.stackVersion}
              placeholder={`default ${DEFAULT_STACK_VERSION}`}
              list="stack-versions"
              problem={problems.stackVersion}
              hint={`ffmpeg_stack of the ${FFMPEG_STACK_ROBOTS.join(', ')} steps (a Template's too); "${RECOMMENDED_STACK_VERSION}" is recommended.`}
              onChange={(stackVersion) => setOptions({ stackVersion })}
            />
            <datalist id="stack-versions">
              <option value="v6" />
              <option value="v7" />
              <option value="v8" />
            </datalist>
          </div>

          <fieldset className="fields-editor option-fields">
            <legend className="field-label">Fields</legend>
            {options.fields.length === 0 && <p className="muted small">None. Steps and Templates read a field as {'${fields.name}'}.</p>}
            {options.fields.map((row, i) => (
              <div key={i} className="option-field-row" data-testid="option-field-row">
                <input className="input" value={row.key} placeholder="name" aria-label={`Field ${i + 1} name`} aria-invalid={problems.fieldRows?.[i] !== undefined} onChange={(e) => setRow(i, { key: e.currentTarget.value })} />
                <input className="input" value={row.value} placeholder="value" aria-label={`Field ${i + 1} value`} onChange={(e) => setRow(i, { value: e.currentTarget.value })} />
                <IconButton label={`Remove field ${i + 1}`} onClick={() => setOptions({ fields: options.fields.filter((_, j) => j !== i) })}>
                  <CloseIcon />
                </IconButton>
                {problems.fieldRows?.[i] && (
                  <span className="field-error option-field-problem" role="alert">
                    {problems.fieldRows[i]}
                  </span>
                )}
              </div>
            ))}
            <div>
              <Button size="sm" disabled={options.fields.length >= MAX_OPTION_FIELDS} onClick={() => setOptions({ fields: [...options.fields, { key: '', value: '' }] })}>
                Add field
              </Button>
            </div>
          </fieldset>
        </div>
      )}
    </section>
  );
};
