// The ports a crash-test core runs with, the same in the child that gets killed and in the core that
// reopens its data dir: no OS keyring (the unprotected file store, accepted), recorded desktop calls,
// small upload chunks so a kill lands mid-file.
import path from 'node:path';
import type { CorePorts } from '../create-core';
import { createRecordingDesktop } from '../ports/recording-desktop';
import { createUnavailableSecretStore } from '../vault/unavailable-secret-store';

export interface CoreChildConfig {
  dataDir: string;
  files: { path: string; relativePath: string; name: string; size: number; mime: string | null }[];
  steps: Record<string, unknown>;
  chunkSize: number;
  /** A workspace on a service that outlives the core; absent = the embedded Local workspace. */
  remote?: { workspaceId: string; authSecret: string };
}

export const coreCrashPorts = (c: Pick<CoreChildConfig, 'dataDir' | 'chunkSize'>): CorePorts => ({
  dataDir: c.dataDir,
  downloadsDir: path.join(c.dataDir, 'downloads'),
  secretStore: createUnavailableSecretStore('No OS keyring in the crash suite.'),
  desktop: createRecordingDesktop(),
  host: 'browser',
  version: 'crash-test',
  upload: { chunkSize: c.chunkSize },
});
