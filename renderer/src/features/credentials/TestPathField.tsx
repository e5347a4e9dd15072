/** The folder an SFTP test lists and writes a small file into; the login folder when empty. */
export const TestPathField = ({ value, onChange }: { value: string; onChange: (path: string) => void }) => (
  <label className="form-field">
    <span className="field-label">Folder to test</span>
    <input className="input mono" value={value} onChange={(e) => onChange(e.currentTarget.value)} aria-label="Folder to test" placeholder="the login folder" spellCheck={false} autoComplete="off" />
    <span className="small muted">Test credential lists it and writes a small file there, then removes it.</span>
  </label>
);
