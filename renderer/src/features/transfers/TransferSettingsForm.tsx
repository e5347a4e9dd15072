import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useId, useState } from 'react';
import type { PlanWarning, TransferSettings } from '../../../../shared/ipc/transfer-models';
import { bridgeKey, useBridgeMutation, useBridgeQuery } from '../../bridge/use-bridge';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { FieldWarnings } from '../../components/FieldWarnings';
import { useUnsavedChanges } from '../../state/navigation-store';

export const settingsKey = () => bridgeKey('transfers:settings', {});

const MB = 1_000_000;
// core's defaults are binary (4 MiB, 20 GiB): these two fields show them as whole numbers.
const MIB = 1024 ** 2;
const GIB = 1024 ** 3;

interface NumberFieldProps {
  readonly label: string;
  /** Stored value (bytes, files…); null = empty (no limit). */
  readonly value: number | null;
  /** Shown value = stored / scale. */
  readonly scale?: number;
  readonly min: number;
  readonly max?: number;
  readonly integer?: boolean;
  readonly nullable?: boolean;
  readonly unit?: string;
  readonly hint?: string;
  readonly onCommit: (value: number | null) => void;
  readonly warnings?: readonly PlanWarning[];
  readonly field: string;
  /** A rule across fields (Smallest ≤ Largest): the problem with this value, or null. */
  readonly check?: (value: number | null) => string | null;
  readonly onUnsaved: OnUnsaved;
}

/** A field says whether it holds typed text not saved (not yet sent, or refused at the field). */
type OnUnsaved = (field: string, unsaved: boolean) => void;

/**
 * Typed text is unsaved until it was sent (on blur or Enter; a refused value never is) or equals the saved
 * value. The field tells the form, which asks before Close, Escape or leaving the screen throws it away.
 */
const useUnsavedText = (field: string, text: string, saved: string, onUnsaved: OnUnsaved) => {
  const [sent, setSent] = useState<string | null>(null);
  useEffect(() => setSent(null), [saved]);
  const unsaved = text !== saved && text !== sent;
  useEffect(() => {
    onUnsaved(field, unsaved);
    return () => onUnsaved(field, false);
  }, [field, unsaved, onUnsaved]);
  return () => setSent(text);
};

const shown = (value: number | null, scale: number): string => (value === null ? '' : String(Math.round((value / scale) * 1000) / 1000));

/**
 * What is wrong with a number field's text, in words that say why, or null. Pure. ("abc", 0, 99 and -5 in
 * "Files at once" are each refused at the field, never snapped back to the saved value without a word.)
 */
export const numberProblem = (text: string, { min, max, integer = false, nullable = false, unit }: { min: number; max?: number | undefined; integer?: boolean; nullable?: boolean; unit?: string | undefined }): string | null => {
  const t = text.trim();
  const range = max !== undefined ? `${min}–${max}${unit ? ` ${unit}` : ''}` : `${min}${unit ? ` ${unit}` : ''} or more`;
  if (t === '') return nullable ? null : `Enter a number (${range}).`;
  const n = Number(t);
  if (!Number.isFinite(n)) return `"${t}" is not a number: enter ${integer ? 'a whole number, ' : ''}${range}.`;
  if (integer && !Number.isInteger(n)) return `Enter a whole number (${range}), not ${t}.`;
  if (n < min) return `${t} is too small: at least ${min}${unit ? ` ${unit}` : ''}.`;
  if (max !== undefined && n > max) return `${t} is too large: at most ${max}${unit ? ` ${unit}` : ''}.`;
  return null;
};

/**
 * A number input that saves when it loses focus or on Enter. A value it cannot save stays in the field
 * with the reason under it (not saved, and said so) until it is fixed; the saved value shows again when
 * it changes elsewhere.
 */
const NumberField = ({ label, value, scale = 1, min, max, integer = false, nullable = false, unit, hint, onCommit, warnings = [], field, check, onUnsaved }: NumberFieldProps) => {
  const id = useId();
  const [text, setText] = useState(shown(value, scale));
  // Only a change of the saved value (here or elsewhere) replaces what is typed.
  useEffect(() => setText(shown(value, scale)), [value, scale]);
  const parsed = text.trim() === '' ? null : Number(text);
  const own = numberProblem(text, { min, max, integer, nullable, unit });
  const error = own ?? check?.(parsed === null ? null : Math.round(parsed * scale)) ?? null;
  const sent = useUnsavedText(field, text, shown(value, scale), onUnsaved);
  const commit = () => {
    if (error) return;
    sent();
    const next = parsed === null ? null : Math.round(parsed * scale);
    if (next !== value) onCommit(next);
  };
  return (
    <div className="form-field setting-field" data-field={field}>
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <span className="setting-input">
        <input
          id={id}
          className="input num"
          inputMode="decimal"
          value={text}
          aria-invalid={error !== null}
          aria-describedby={`${id}-hint`}
          onChange={(e) => setText(e.currentTarget.value)}
          onBlur={commit}
          onKeyDown={(e) => e.key === 'Enter' && commit()}
        />
        {unit && <span className="muted">{unit}</span>}
      </span>
      <span id={`${id}-hint`} className={error ? 'field-error' : 'muted small'} data-testid={error ? 'field-error' : undefined}>
        {error ? `${error} Not saved.` : hint}
      </span>
      <FieldWarnings warnings={warnings} field={field} />
    </div>
  );
};

const patterns = (text: string): string[] =>
  text
    .split('\n')
    .map((p) => p.trim())
    .filter(Boolean);

const PatternsField = ({ field, label, value, hint, onCommit, onUnsaved }: { field: string; label: string; value: readonly string[]; hint: string; onCommit: (v: string[]) => void; onUnsaved: OnUnsaved }) => {
  const id = useId();
  const [text, setText] = useState(value.join('\n'));
  useEffect(() => setText(value.join('\n')), [value]);
  const sent = useUnsavedText(field, text, value.join('\n'), onUnsaved);
  return (
    <div className="form-field setting-field">
      <label htmlFor={id} className="field-label">
        {label}
      </label>
      <textarea
        id={id}
        className="textarea mono"
        rows={2}
        value={text}
        placeholder="*.jpg"
        aria-describedby={`${id}-hint`}
        onChange={(e) => setText(e.currentTarget.value)}
        onBlur={() => {
          sent();
          const next = patterns(text);
          if (next.join('\n') !== value.join('\n')) onCommit(next);
        }}
      />
      <span id={`${id}-hint`} className="muted small">
        {hint}
      </span>
    </div>
  );
};

export type SettingsSection = 'speed' | 'batching' | 'skip';

/**
 * The transfer engine's settings. Each change is saved at once (`transfers:saveSettings`) and core applies
 * concurrency and the bandwidth limit to running transfers live. Warnings from the pre-flight plan are
 * shown at the field they concern.
 */
export const TransferSettingsForm = ({
  sections,
  warnings = [],
  onUnsavedChange,
}: {
  sections: readonly SettingsSection[];
  warnings?: readonly PlanWarning[];
  /** Whether any field holds typed text not saved: the panel holding the form asks before it closes. */
  onUnsavedChange?: (unsaved: boolean) => void;
}) => {
  const client = useQueryClient();
  const [unsaved, setUnsaved] = useState<ReadonlySet<string>>(new Set());
  const onUnsaved = useCallback<OnUnsaved>(
    (field, is) =>
      setUnsaved((now) => {
        if (now.has(field) === is) return now;
        const next = new Set(now);
        if (is) next.add(field);
        else next.delete(field);
        return next;
      }),
    [],
  );
  useUnsavedChanges(unsaved.size > 0, 'the transfer settings');
  useEffect(() => onUnsavedChange?.(unsaved.size > 0), [unsaved, onUnsavedChange]);
  const settings = useBridgeQuery('transfers:settings', {});
  const save = useBridgeMutation('transfers:saveSettings', { onSuccess: (s) => client.setQueryData(settingsKey(), s) });
  const modeId = useId();

  if (settings.isPending) return <Spinner size={16} label="Loading settings" />;
  if (settings.isError) return <ErrorPanel title="Could not read the transfer settings" code={settings.error.code} message={settings.error.message} />;
  const s = settings.data;
  const put = (patch: Partial<TransferSettings>) => save.mutate(patch);
  const putSkip = (patch: Partial<TransferSettings['skip']>) => save.mutate({ skip: { ...s.skip, ...patch } });
  // Smallest and Largest file: one shape, each refusing a value past the other (every file would be left out).
  const sizeBound = (which: 'minBytes' | 'maxBytes') => {
    const smallest = which === 'minBytes';
    const other = smallest ? s.skip.maxBytes : s.skip.minBytes;
    const past = (v: number | null): v is number => v !== null && other !== null && (smallest ? v > other : v < other);
    return (
      <NumberField
        onUnsaved={onUnsaved}
        field={which}
        label={smallest ? 'Smallest file' : 'Largest file'}
        value={s.skip[which]}
        scale={MB}
        min={0}
        nullable
        unit="MB"
        hint="Empty = no limit."
        check={(v) => (past(v) ? `${smallest ? 'Larger than the largest' : 'Smaller than the smallest'} file (${shown(other, MB)} MB): every file would be left out.` : null)}
        onCommit={(v) => putSkip({ [which]: v })}
        warnings={warnings}
      />
    );
  };

  return (
    <div className="settings-form" aria-busy={save.isPending || undefined}>
      {save.error && <ErrorPanel title="The setting was not saved" code={save.error.code} message={save.error.message} />}
      {sections.includes('speed') && (
        <fieldset className="settings-group">
          <legend className="section-title">Speed</legend>
          <NumberField onUnsaved={onUnsaved} field="concurrency" label="Files at once" value={s.concurrency} min={1} max={32} integer hint="1–32. Applies to running transfers." onCommit={(v) => put({ concurrency: v ?? 1 })} warnings={warnings} />
          <NumberField onUnsaved={onUnsaved} field="bandwidthLimitBps" label="Bandwidth limit" value={s.bandwidthLimitBps} scale={MB} min={0} unit="MB/s" hint="0 = unlimited. Applies at once." onCommit={(v) => put({ bandwidthLimitBps: v ?? 0 })} warnings={warnings} />
          <NumberField
            onUnsaved={onUnsaved}
            field="multipartMaxFileBytes"
            label="Send files up to this size many per request"
            value={s.multipartMaxFileBytes}
            scale={MIB}
            min={0}
            unit="MiB"
            hint="Larger files go by tus, resumable. 0 = tus for every file."
            onCommit={(v) => put({ multipartMaxFileBytes: v ?? 0 })}
            warnings={warnings}
          />
        </fieldset>
      )}
      {sections.includes('batching') && (
        <fieldset className="settings-group">
          <legend className="section-title">Assemblies</legend>
          <div className="form-field setting-field" data-field="batchMode">
            <label htmlFor={modeId} className="field-label">
              Make one Assembly
            </label>
            <select id={modeId} className="input" value={s.batchMode} onChange={(e) => put({ batchMode: e.currentTarget.value as TransferSettings['batchMode'] })}>
              <option value="per-drop">per drop</option>
              <option value="per-folder">per top-level folder</option>
              <option value="every-n">every N files or N GB</option>
            </select>
            <FieldWarnings warnings={warnings} field="batchMode" />
          </div>
          <div className="settings-row">
            <NumberField onUnsaved={onUnsaved} field="batchMaxFiles" label="At most files per Assembly" value={s.batchMaxFiles} min={1} max={100_000} integer onCommit={(v) => put({ batchMaxFiles: v ?? 1 })} warnings={warnings} />
            <NumberField onUnsaved={onUnsaved} field="batchMaxBytes" label="At most per Assembly" value={s.batchMaxBytes} scale={GIB} min={0.001} unit="GiB" onCommit={(v) => put({ batchMaxBytes: v ?? GIB })} warnings={warnings} />
          </div>
        </fieldset>
      )}
      {sections.includes('skip') && (
        <fieldset className="settings-group">
          <legend className="section-title">Skip rules</legend>
          <PatternsField field="include" onUnsaved={onUnsaved} label="Only files matching" value={s.skip.include} hint="One pattern a line (*.jpg, raw/**). Empty = every file." onCommit={(include) => putSkip({ include })} />
          <PatternsField field="exclude" onUnsaved={onUnsaved} label="Leave out files matching" value={s.skip.exclude} hint="One pattern a line." onCommit={(exclude) => putSkip({ exclude })} />
          <label className="form-check">
            <input type="checkbox" checked={s.skip.skipHidden} onChange={(e) => putSkip({ skipHidden: e.currentTarget.checked })} /> Skip hidden and system files (.DS_Store, Thumbs.db)
          </label>
          <label className="form-check">
            <input type="checkbox" checked={s.skip.skipUnchanged} onChange={(e) => putSkip({ skipUnchanged: e.currentTarget.checked })} /> Skip files uploaded before, unchanged
          </label>
          <div className="settings-row">
            {sizeBound('minBytes')}
            {sizeBound('maxBytes')}
          </div>
        </fieldset>
      )}
    </div>
  );
};
