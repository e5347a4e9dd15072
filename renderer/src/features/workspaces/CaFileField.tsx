import { useRef, useState } from 'react';
import type { AppError } from '../../../../shared/result';
import type { CaFile } from '../../../../shared/ipc/workspace-models';
import { useBridge } from '../../bridge/BridgeProvider';
import { toAppError, unwrap } from '../../bridge/bridge-error';
import { Button } from '../../components/Button';
import { DateTime } from '../../components/DateTime';

/** What the form does with the workspace's CA file: keep the stored one, use a newly picked one, or remove it. */
export type CaChoice = { kind: 'keep' } | { kind: 'set'; file: CaFile } | { kind: 'remove' };

/** The `caPem` of workspaces:save/test for a choice: absent keeps the stored CA, null removes it. */
export const caPemOf = (choice: CaChoice): { caPem?: string | null } =>
  choice.kind === 'set' ? { caPem: choice.file.pem } : choice.kind === 'remove' ? { caPem: null } : {};

/**
 * A company deployment's own certificate authority (PEM). The picked file goes to core by handle, which reads
 * and checks it (workspaces:readCaFile): the page never reads it. A file that is no CA is said so at the field,
 * with the code, and the rest of the form stays as typed.
 */
export const CaFileField = ({
  stored,
  value,
  onChange,
}: {
  stored: { subject: string; validTo: string } | null;
  value: CaChoice;
  onChange: (next: CaChoice) => void;
}) => {
  const bridge = useBridge();
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<AppError | null>(null);
  const [busy, setBusy] = useState(false);
  const shown = value.kind === 'set' ? value.file : value.kind === 'keep' ? stored : null;

  const pick = async (files: FileList | null) => {
    const file = files?.[0];
    if (!file) return;
    setBusy(true);
    setProblem(null);
    try {
      const [root] = unwrap(await bridge.handlesForFiles([{ file, relativePath: file.name }]));
      if (!root) throw new Error('The file could not be read.');
      onChange({ kind: 'set', file: unwrap(await bridge.invoke('workspaces:readCaFile', { handle: root.handle })) });
    } catch (e) {
      setProblem(toAppError(e));
    } finally {
      setBusy(false);
      if (input.current) input.current.value = '';
    }
  };

  return (
    <div className="form-field" data-testid="ca-file-field">
      <span className="field-label">
        CA file <span className="muted small">(only for a deployment whose certificates its own authority signs)</span>
      </span>
      <span className="small" data-testid="ca-file-state">
        {shown ? (
          <>
            Trusts <strong>{shown.subject}</strong>
            {shown.validTo ? (
              <>
                {' '}
                until <DateTime value={shown.validTo} />
              </>
            ) : null}
            {value.kind === 'set' ? ' (saved with the workspace)' : ''}
          </>
        ) : (
          <span className="muted">None: the system&apos;s certificate authorities.</span>
        )}
      </span>
      <span className="ca-file-actions">
        <Button size="sm" onClick={() => input.current?.click()} busy={busy} disabled={busy}>
          {shown ? 'Choose another CA file…' : 'Choose CA file…'}
        </Button>
        {shown && (
          <Button size="sm" onClick={() => onChange(stored && value.kind === 'set' ? { kind: 'keep' } : { kind: 'remove' })}>
            {stored && value.kind === 'set' ? 'Keep the saved CA file' : 'Remove CA file'}
          </Button>
        )}
      </span>
      <input
        ref={input}
        className="visually-hidden"
        type="file"
        accept=".pem,.crt,.cer,application/x-pem-file"
        aria-label="CA file"
        aria-invalid={problem !== null}
        aria-describedby={problem ? 'ca-file-problem' : undefined}
        tabIndex={-1}
        onChange={(e) => void pick(e.currentTarget.files)}
      />
      {problem && (
        <span className="field-error" id="ca-file-problem" role="alert" data-testid="ca-file-problem">
          {problem.message} <span className="mono">({problem.code})</span>
        </span>
      )}
    </div>
  );
};
