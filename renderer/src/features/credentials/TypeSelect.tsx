import { CREDENTIAL_TYPES, groupedCredentialTypes } from '../../../../shared/api/credential-types';

const GROUPS = groupedCredentialTypes();

/** Every type by the name users know it by, grouped; the raw code the API takes shown after it. */
export const TypeSelect = ({ value, onChange }: { value: string; onChange: (type: string) => void }) => (
  <label className="form-field">
    <span className="field-label">Type</span>
    <select className="input" value={value} onChange={(e) => onChange(e.currentTarget.value)} aria-label="Type" aria-describedby="credential-type-code">
      {GROUPS.map((g) => (
        <optgroup key={g.group} label={g.group}>
          {g.types.map((t) => (
            <option key={t.type} value={t.type}>
              {t.label} ({t.type})
            </option>
          ))}
        </optgroup>
      ))}
      {!(CREDENTIAL_TYPES as readonly string[]).includes(value) && <option value={value}>{value}</option>}
    </select>
    <span className="small muted" id="credential-type-code">
      API type <code>{value}</code>
    </span>
  </label>
);
