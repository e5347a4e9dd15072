import { useEffect, useState } from 'react';
import type { Credential } from '../../../../shared/ipc/template-models';
import { useBridgeMutation } from '../../bridge/use-bridge';
import { Button } from '../../components/Button';
import { ClosablePane } from '../../components/ClosablePane';
import { ErrorPanel } from '../../components/ErrorPanel';
import { Spinner } from '../../components/Spinner';
import { CredentialTestReportView } from './CredentialTestReportView';
import { TestPathField } from './TestPathField';

/** "Test" on a saved credential: core reads its content (secrets included) and connects; runs on open. */
export const CredentialTestPane = ({ credential, onClose }: { credential: Credential; onClose: () => void }) => {
  const [path, setPath] = useState('');
  const test = useBridgeMutation('credentials:test');
  const run = (folder: string) => test.mutate({ id: credential.id, ...(folder.trim() ? { path: folder.trim() } : {}) });
  // Once per credential shown: the user asked for a test by opening the pane.
  useEffect(() => run(''), [credential.id]);

  return (
    <ClosablePane onClose={onClose} label={`Test of ${credential.name}`} data-testid="credential-test-pane">
      <h2 className="section-title">Test of &quot;{credential.name}&quot;</h2>
      {credential.type === 'sftp' && <TestPathField value={path} onChange={setPath} />}
      {test.isPending && <Spinner size={20} label="Testing the credentials" />}
      {test.error && <ErrorPanel title="Could not test" code={test.error.code} message={test.error.message} httpCode={test.error.httpCode} />}
      {test.data && !test.isPending && <CredentialTestReportView report={test.data} />}
      <div className="template-actions">
        <Button onClick={onClose}>Close</Button>
        <Button variant="primary" onClick={() => run(path)} busy={test.isPending} disabled={test.isPending}>
          Test again
        </Button>
      </div>
    </ClosablePane>
  );
};
