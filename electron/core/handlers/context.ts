import type { ServiceStatus } from '../../../shared/ipc/service-models';
import type { Result } from '../../../shared/result';
import type { ApiClient } from '../api/api-client';
import type { AssemblyFollower } from '../assemblies/assembly-follower';
import type { Draft } from '../drafts/draft';
import type { DraftPorts } from './draft-handlers';
import type { FileHandleRegistry } from '../files/file-handles';
import type { ClipboardGuard } from '../ports/clipboard-guard';
import type { DesktopPort } from '../ports/desktop';
import type { PreferenceStore } from '../preferences/preference-store';
import type { LocalAccess } from '../local-service/local-access';
import type { ChatSettingsStore } from '../local-service/chat-settings';
import type { ChatRestarter } from '../local-service/chat-restart';
import type { KeyRotation } from '../rotation/key-rotation';
import type { RunManager } from '../runs/run-manager';
import type { TrialStore } from '../templates/trial-store';
import type { MirrorService } from '../results-mirror/mirror-service';
import type { TransferEngine } from '../transfers/transfer-engine';
import type { Vault } from '../vault/vault';
import type { WatchFolders } from '../watch-folders/watch-folders';
import type { WebhookTesterService } from '../webhooks/webhook-tester';
import type { WorkspaceStore } from '../workspaces/workspace-store';
import type { ClientKeyStore } from '../sign-in/client-key-store';

/** What handlers may use: built once by createCore, passed to every domain's handler factory. */
export interface HandlerContext {
  version: string;
  host: 'electron' | 'browser';
  dataDir: string;
  downloadsDir: string;
  stagingDir: string;
  readonly localServiceUrl: string | null;
  /** The embedded service's process as the supervisor sees it. */
  serviceStatus(): ServiceStatus;
  /** The local service's chat model (/ai/chat), saved in the data dir, its key in the vault. */
  chatSettings: ChatSettingsStore;
  /** Restarts the local service with saved chat settings once no Assembly is executing. */
  chatRestart: ChatRestarter;
  vault: Vault;
  workspaces: WorkspaceStore;
  /** Sign-in keys core generated: deletes the ones no workspace uses (workspaces:clientKeyDiscard, core start). */
  clientKeys: ClientKeyStore;
  runs: RunManager;
  /** "Try this Template here first": the tries and the Local copies they made (template-trials.sqlite). */
  trialStore: TrialStore;
  /** Follows Assemblies a detail view shows (not runs of this app) → `assembly:updated`. */
  assemblyFollower: AssemblyFollower;
  /** Results mirrored to disk (results:mirror), with the remembered folder, layout and policy. */
  mirrors: MirrorService;
  /** The durable transfer queue (batches into Assemblies, tus + multipart, pacing, checksums). */
  transfers: TransferEngine;
  /** Watch folders: each file that lands in one goes through the transfer queue; results to the output folder. */
  watchFolders: WatchFolders;
  /** Handles of what the user picked: the only files the page can name. */
  files: FileHandleRegistry;
  /** The Upload view's selection (drafts/draft.ts); `take()` hands it to a transfer. */
  drafts: Draft;
  /** The transfer settings and upload history the pre-flight plan reads (wired to the engine). */
  draftPorts: DraftPorts;
  rotation: KeyRotation;
  desktop: DesktopPort;
  /** The app's preferences (keep running in the background). */
  preferences: PreferenceStore;
  /** Copies secrets to the clipboard and clears them again. */
  clipboard: ClipboardGuard;
  /** The in-app webhook tester's receiver (loopback, started on demand, closed with core). */
  webhooks: WebhookTesterService;
  /** The Local workspace's key: restore full access, switch keys (through the service's child process). */
  localAccess: LocalAccess;
  /** The API client of a workspace (the active one when id is undefined). */
  clientFor(workspaceId: string | undefined): Result<{ workspaceId: string; api: ApiClient }>;
  /** The Auth Secret of a workspace (vault, or the embedded service's in memory). Core-only. */
  secretOf(workspaceId: string): Promise<string | null>;
  /** Drop the cached client (and its tokens) of a workspace whose secret changed. */
  forgetClient(workspaceId: string): void;
  /** True when a workspace's requests can be signed (vault secret, or the embedded service's key in memory). */
  canSign(workspaceId: string): Promise<boolean>;
}

/** Runs `use` with the API client of a workspace (the active one when undefined), or answers why there is none. */
export async function withApi<T>(
  ctx: HandlerContext,
  workspaceId: string | undefined,
  use: (api: ApiClient, workspaceId: string) => Promise<Result<T>>,
): Promise<Result<T>> {
  const client = ctx.clientFor(workspaceId);
  return client.ok ? use(client.value.api, client.value.workspaceId) : client;
}
