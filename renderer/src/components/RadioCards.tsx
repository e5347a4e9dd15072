import { useId, type ReactNode } from 'react';

export interface RadioCardOption<V extends string> {
  value: V;
  label: string;
  /** One line under the label; read out as the radio's description. */
  description?: ReactNode;
}

/**
 * A choice of one mode among a few, each with a line of explanation. Native radios sharing `name`, so
 * Tab enters the group once and the arrow keys move the choice; the group is a radiogroup named by its
 * legend, each radio named by its label alone and described by its line.
 */
export const RadioCards = <V extends string>({
  name,
  legend,
  options,
  value,
  onChange,
}: {
  name: string;
  legend: string;
  options: readonly RadioCardOption<V>[];
  value: V;
  onChange: (value: V) => void;
}) => {
  const id = useId();
  return (
    <fieldset className="form-field radio-cards" role="radiogroup" aria-labelledby={`${id}-legend`}>
      <legend id={`${id}-legend`} className="field-label">
        {legend}
      </legend>
      {options.map((o) => (
        <label key={o.value} className="form-check">
          <input
            type="radio"
            name={name}
            value={o.value}
            checked={value === o.value}
            onChange={() => onChange(o.value)}
            aria-labelledby={`${id}-${o.value}`}
            {...(o.description ? { 'aria-describedby': `${id}-${o.value}-hint` } : {})}
          />
          <span>
            <span id={`${id}-${o.value}`}>{o.label}</span>
            {o.description && (
              <span id={`${id}-${o.value}-hint`} className="small muted block">
                {o.description}
              </span>
            )}
          </span>
        </label>
      ))}
    </fieldset>
  );
};
