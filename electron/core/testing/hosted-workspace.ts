// What core tests against a deployment like the hosted one start with (used by *.test.ts only): a temp dir,
// the TLS multi-host deployment (service/testing/hosted-deployment.ts) signing every request, and the remote
// workspace a user would add for it — its endpoint, key and CA file. close() stops the deployment and
// removes the dir.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startHostedDeployment, type HostedDeployment, type HostedDeploymentOptions } from '../../../service/testing/hosted-deployment';
import type { StoredWorkspace } from '../workspaces/workspace-store';

export interface HostedWorkspace {
  /** The test's temp dir (the service's data is in `<dir>/service`). */
  dir: string;
  d: HostedDeployment;
  /** A remote workspace for the deployment: signature auth (sha384), its CA file. */
  workspace: StoredWorkspace;
  close(): Promise<void>;
}

/** Starts the deployment (signatures required; `rttMs` 10 unless given) in a fresh temp dir named after `prefix`. */
export async function startHostedWorkspace(prefix: string, o: Omit<HostedDeploymentOptions, 'dataDir'> = {}): Promise<HostedWorkspace> {
  const dir = await mkdtemp(path.join(tmpdir(), `al-${prefix}-`));
  let d: HostedDeployment;
  try {
    d = await startHostedDeployment({ requireSignature: true, rttMs: 10, ...o, dataDir: path.join(dir, 'service') });
  } catch (e) {
    await rm(dir, { recursive: true, force: true });
    throw e;
  }
  const workspace: StoredWorkspace = {
    id: 'ws-hosted', name: 'Hosted', kind: 'remote', endpoint: d.endpoint, authKey: d.service.authKey, signatureAlgo: 'sha384',
    slug: '', authMode: 'signature', tokenScopes: null, caPem: d.caPem,
  };
  return {
    dir, d, workspace,
    close: async () => {
      await d.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
