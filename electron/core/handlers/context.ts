import type { Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import type { DesktopPort } from '../ports/desktop';
import type { RunManager } from '../runs/run-manager';
import type { Vault } from '../vault/vault';
import type { WorkspaceStore } from '../workspaces/workspace-store';

/** What handlers may use: built once by createCore, passed to every domain's handler factory. */
export interface HandlerContext {
  version: string;
  host: 'electron' | 'browser';
  dataDir: string;
  downloadsDir: string;
  stagingDir: string;
  localServiceUrl: string | null;
  vault: Vault;
  workspaces: WorkspaceStore;
  runs: RunManager;
  desktop: DesktopPort;
  /** The API client of a workspace (the active one when id is undefined). */
  clientFor(workspaceId: string | undefined): Result<{ workspaceId: string; api: ApiClient }>;
  /** True when a workspace's requests can be signed (vault secret, or the embedded service's key in memory). */
  canSign(workspaceId: string): Promise<boolean>;
}
