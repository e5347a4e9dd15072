import type { ChatStartOptions } from '../../shared/local-service/chat-option';
import { createAssemblyFollower } from './assemblies/assembly-follower';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { EventName, EventPayload } from '../../shared/ipc/contract';
import { AppErrorCode, err, ok, type Result } from '../../shared/result';
import type { ApiClient } from './api/api-client';
import { createCoreEvents } from './events';
import type { HandlerContext } from './handlers/context';
import { createFileHandleRegistry, type FileHandleRegistry } from './files/file-handles';
import { createForkServiceProcess, sourceServiceEntry } from './local-service/fork-service-process';
import { superviseLocalService, type SupervisorOptions } from './local-service/supervisor';
import { createLocalAccess, LOCAL_SERVICE_UNAVAILABLE } from './local-service/local-access';
import { openChatSettings } from './local-service/chat-settings';
import { createChatRestarter } from './local-service/chat-restart';
import type { ServiceProcessPort, ServiceReady } from './ports/service-process';
import { pruneStaging, removeFinishedBatches } from './files/staging-janitor';
import { createHandlers } from './handlers/index';
import { createMirrorService } from './results-mirror/mirror-service';
import type { DraftPorts } from './handlers/draft-handlers';
import { createDraft, type Draft } from './drafts/draft';
import { openDraftStore } from './drafts/draft-store';
import type { Handlers } from './ipc/handlers';
import { startDesktopSignals } from './desktop-signals/desktop-signals';
import type { DesktopPort } from './ports/desktop';
import { openPreferenceStore, type PreferenceStore } from './preferences/preference-store';
import { pruneDragCache } from './files/drag-cache';
import { readStatusOf } from './files/result-download';
import type { SecretStore } from './ports/secret-store';
import { createKeyRotation, type KeyRotationDeps } from './rotation/key-rotation';
import { openRotationLog } from './rotation/rotation-log';
import { createClipboardGuard } from './ports/clipboard-guard';
import { createRunManager, type RunManager } from './runs/run-manager';
import { openRunStore } from './runs/run-store';
import { openTrialStore } from './templates/trial-store';
import { createTransferEngine, type TransferEngine } from './transfers/transfer-engine';
import { createVault, type Vault } from './vault/vault';
import { clientKeyAccount } from './sign-in/client-key';
import { createClientKeyStore } from './sign-in/client-key-store';
import { createWatchFolders, type WatchFolders } from './watch-folders/watch-folders';
import { createWorkspaceClient, refreshTokenAccount } from './workspaces/workspace-client';
import { createWorkspaceStore, LOCAL_WORKSPACE_ID, type StoredWorkspace } from './workspaces/workspace-store';
import type { NotifyOptions } from '../../shared/local-service/notify-options';
import { createWebhookTester, type WebhookTesterService } from './webhooks/webhook-tester';

/** The embedded service is restarting or hung: the request was not sent. */
export { LOCAL_SERVICE_UNAVAILABLE };
/** The draft (picked roots, steps choice) could not be written to the data dir; it still works in memory. */
export const DRAFT_NOT_SAVED = 'DRAFT_NOT_SAVED';

export interface CorePorts {
  dataDir: string;
  downloadsDir: string;
  secretStore: SecretStore;
  desktop: DesktopPort;
  host: 'electron' | 'browser';
  version: string;
  localService?: {
    port?: number;
    /** The service's notify options (`ASSEMBLYLINE_NOTIFY_*`, read by the host's composition root). */
    notifications?: NotifyOptions;
    /** Robot jobs at once (`ASSEMBLYLINE_JOB_SLOTS`, read by the host's composition root). */
    jobSlots?: number;
    /** /ai/chat's endpoint, model and key (`ASSEMBLYLINE_CHAT_*`, read by the host's composition root); they win over the settings saved in the app. */
    chat?: ChatStartOptions;
    /** How the service's own process is started: utilityProcess in Electron; default a forked Node process running the source entry. */
    process?: ServiceProcessPort;
    /** Health-check and backoff tuning (tests use short intervals). */
    supervision?: Pick<SupervisorOptions, 'healthIntervalMs' | 'healthTimeoutMs' | 'maxHealthFailures' | 'backoffBaseMs' | 'backoffMaxMs' | 'startTimeoutMs'>;
  };
  /** How long a copied secret stays on the clipboard (30 s unless a test shortens it). */
  clipboardClearMs?: number;
  /** Test hook: the rotation assistant stops after this step, as if the app had quit. */
  rotationStopAfter?: KeyRotationDeps['stopAfter'];
  /** Upload tuning of the transfer engine: tus bytes per PATCH, and the stall timeout (tests use short ones). */
  upload?: { chunkSize?: number; stallTimeoutMs?: number };
}

export interface Core {
  handlers: Handlers;
  onEvent(listener: <E extends EventName>(name: E, payload: EventPayload<E>) => void): () => void;
  /** Where the browser host writes dropped files before `files:scan`. */
  stagingDir: string;
  /** Hosts register what the user picked here; the page gets only the handles. */
  files: FileHandleRegistry;
  /** The Upload view's selection (drafts:*); `take()` hands it to a transfer. */
  drafts: Draft;
  /** For host UI beyond the contract (e.g. accepting an unprotected secret store). */
  vault: Vault;
  /** Runs (persisted in `<dataDir>/core.sqlite`); `settled(runId)` waits for a run to end. */
  runs: RunManager;
  /** The transfer queue (`<dataDir>/transfers.sqlite`). */
  transfers: TransferEngine;
  /** Watch folders (`<dataDir>/watch-folders.sqlite`). */
  watchFolders: WatchFolders;
  /** The app's preferences (`<dataDir>/preferences.json`); the Electron host follows background mode. */
  preferences: PreferenceStore;
  /** The embedded service's URL (the same across its restarts), or null when it never started. */
  readonly localServiceUrl: string | null;
  /** The embedded service's process id (tests kill or stop it). */
  localServicePid(): number | undefined;
  /** Tell every page about an error no request was waiting for (the host's process-level handlers call this). */
  reportError(code: string, message: string): void;
  close(): Promise<void>;
}

/**
 * The composition root of every capability, shared by both hosts. Starts the embedded local service,
 * keeps its secret in the vault (or, when the vault is not secure, only in memory), and builds the
 * handlers of every channel.
 */
export async function createCore(ports: CorePorts): Promise<Core> {
  const stagingDir = path.join(ports.dataDir, 'staging');
  await Promise.all([mkdir(ports.dataDir, { recursive: true }), mkdir(stagingDir, { recursive: true })]);

  const events = createCoreEvents();
  const reportError = (code: string, message: string) => events.emit('app:error', { code, message: message.slice(0, 2_000), at: new Date().toISOString() });
  const vault = await createVault({ secure: ports.secretStore, dir: path.join(ports.dataDir, 'vault') });
  const workspaces = await createWorkspaceStore(ports.dataDir);
  // Sign-in keys generated in a form that was then closed (or in a session that ended) are deleted.
  const clientKeys = createClientKeyStore({ dataDir: ports.dataDir, vault, workspaces });
  await clientKeys.prune();

  // The embedded service runs in its own process: a hang or crash there never freezes or ends the app.
  let serviceError: string | null = null;
  let firstAdopted = false;
  const clients = new Map<string, { key: string; api: ApiClient }>();
  // Which key Local signs with: the service's own full-access key, or the one the user switched to.
  const localAccess = createLocalAccess({
    workspaces,
    vault,
    admin: (op) => supervisor.admin(op),
    url: () => supervisor.current()?.url ?? null,
    forgetClient: (id) => void clients.delete(id),
  });
  const adoptService = (ready: ServiceReady) => localAccess.adopt(ready);
  // The chat model saved in the app (Workspaces › Chat model), unless ASSEMBLYLINE_CHAT_* decide.
  const chatSettings = openChatSettings(ports.dataDir, vault, ports.localService?.chat);
  const chat = await chatSettings.startOptions();
  const supervisor = superviseLocalService({
    process: ports.localService?.process ?? createForkServiceProcess({ entry: sourceServiceEntry() }),
    dataDir: path.join(ports.dataDir, 'local-service'),
    port: ports.localService?.port ?? 0,
    ...(ports.localService?.notifications ? { notifications: ports.localService.notifications } : {}),
    ...(ports.localService?.jobSlots !== undefined ? { jobSlots: ports.localService.jobSlots } : {}),
    ...(chat ? { chat } : {}),
    ...ports.localService?.supervision,
    onStatus: (status) => events.emit('service:status', status),
    // A restart keeps port, key and secret; a first start after a failed one brings them in now. (The
    // first start is adopted below, awaited, so the two never write workspaces.json at once.)
    onReady: (ready) => {
      // After the supervisor marked it running (this runs before), so the admin channel answers.
      if (firstAdopted) void Promise.resolve().then(() => adoptService(ready)).catch(() => undefined);
    },
  });
  let service: ServiceReady | null = null;
  try {
    service = await supervisor.firstStart;
  } catch (cause) {
    serviceError = cause instanceof Error ? cause.message : String(cause);
  }
  if (service) await adoptService(service);
  else {
    // Not running: no endpoint, but the key the user switched Local to is kept for the next start.
    const local = workspaces.get(LOCAL_WORKSPACE_ID);
    await workspaces.ensureLocal('', local?.keyChosen ? local.authKey : '', local?.keyChosen ?? false);
  }
  firstAdopted = true;

  const secretOf = async (workspaceId: string): Promise<string | null> => {
    // The embedded service told core its secret itself: for its own key that is the truth, whatever the
    // keyring holds (another app instance on the same keyring may have written its own). It also keeps
    // the Local workspace working without a secure vault, the secret then in memory only.
    const local = workspaceId === LOCAL_WORKSPACE_ID ? workspaces.get(LOCAL_WORKSPACE_ID) : null;
    const live = local ? localAccess.secretFor(local.authKey) : null;
    return live ?? (await vault.get(workspaceId));
  };

  const clientOf = (w: StoredWorkspace): ApiClient => {
    const key = JSON.stringify([w.endpoint, w.authKey, w.signatureAlgo ?? 'sha384', w.authMode, w.tokenScopes, w.clientKey ?? null, w.caPem ?? null]);
    const cached = clients.get(w.id);
    if (cached?.key === key) return cached.api;
    const { api } = createWorkspaceClient(w, {
      getSecret: () => secretOf(w.id),
      getRefreshToken: () => vault.get(refreshTokenAccount(w.id)),
      setRefreshToken: async (token) => void (await vault.set(refreshTokenAccount(w.id), token)),
      getClientKey: (kid) => vault.get(clientKeyAccount(kid)),
    });
    clients.set(w.id, { key, api });
    return api;
  };

  const clientFor = (workspaceId: string | undefined): Result<{ workspaceId: string; api: ApiClient }> => {
    const id = workspaceId ?? workspaces.activeId();
    const workspace = workspaces.get(id);
    if (!workspace) return err(AppErrorCode.notFound, `No workspace with id ${id}.`);
    if (!workspace.endpoint) {
      return err(AppErrorCode.network, `The local service is not running${serviceError ? `: ${serviceError}` : '.'}`);
    }
    // Answer at once while the embedded service restarts, rather than wait on a closed port. (A slow,
    // "not responding" service still gets the request: it may only be busy.)
    const phase = supervisor.status().phase;
    if (id === LOCAL_WORKSPACE_ID && (phase === 'restarting' || phase === 'starting')) {
      return err(LOCAL_SERVICE_UNAVAILABLE, 'The local service is restarting; try again in a moment.');
    }
    return ok({ workspaceId: id, api: clientOf(workspace) });
  };

  // The Upload view's draft of the last session: its staged roots are kept, and it is picked again below.
  const draftStore = openDraftStore(ports.dataDir, { onError: (message) => reportError(DRAFT_NOT_SAVED, message) });
  let draftRoots = (): string[] => draftStore.saved.files.roots.map((r) => r.path);
  const pathsInUse = (): string[] => [...runs.pathsInUse(), ...transfers.pathsInUse(), ...draftRoots()];
  const runs: RunManager = createRunManager({
    events,
    clientFor,
    store: openRunStore(ports.dataDir),
    onFinished: (files) => void removeFinishedBatches(stagingDir, files.map((f) => f.path), pathsInUse()).catch(() => undefined),
    reportError: (code, message) => reportError(code, message),
  });
  // The transfer queue: stored before runs are restored, so it hears their statuses; starts in restore().
  const transfers = createTransferEngine({
    dataDir: ports.dataDir,
    events,
    clientFor,
    runs,
    tus: {
      ...(ports.upload?.chunkSize ? { chunkSize: ports.upload.chunkSize } : {}),
      ...(ports.upload?.stallTimeoutMs ? { stallMs: ports.upload.stallTimeoutMs } : {}),
    },
    reportError: (code, message) => reportError(code, message),
  });
  // Runs of earlier sessions: listed again, and unfinished ones reattach to their Assembly and resume.
  await runs.restore();
  await transfers.restore();
  // Staged files the transfer queue or the saved draft still needs are kept: both continue from them.
  await pruneStaging(stagingDir, pathsInUse());

  const rotation = createKeyRotation({
    log: await openRotationLog(ports.dataDir),
    workspaces,
    vault,
    events,
    secretOf,
    forgetClient: (id) => void clients.delete(id),
    ...(ports.rotationStopAfter ? { stopAfter: ports.rotationStopAfter } : {}),
  });
  await rotation.recover();

  const preferences = openPreferenceStore(ports.dataDir);
  const chatRestart = createChatRestarter({
    applied: chat,
    options: () => chatSettings.startOptions(),
    executing: async () => {
      const answer = await supervisor.admin({ op: 'executing' });
      return answer.op === 'executing' ? answer.count : 0;
    },
    restart: (next) => supervisor.restartWith({ chat: next }),
    log: (message) => reportError(LOCAL_SERVICE_UNAVAILABLE, message),
  });
  // Results dragged out in earlier sessions: the drop targets copied them long ago.
  await pruneDragCache(path.join(ports.dataDir, 'drag-cache'), 24 * 60 * 60_000);
  const clipboard = createClipboardGuard(ports.desktop, ports.clipboardClearMs ?? 30_000);
  const files = createFileHandleRegistry();
  // The engine keeps the transfer settings (transfers:settings); until it is wired here, the defaults.
  const draftPorts: DraftPorts = { getSettings: () => transfers.settings(), isUploadedBefore: (path, size) => transfers.uploadedBefore(path, size) };
  const drafts = createDraft({ files, emit: (summary) => events.emit('draft:updated', summary), getSettings: () => draftPorts.getSettings(), store: draftStore });
  drafts.restore(draftStore.saved.files);
  draftRoots = () => drafts.rootPaths();

  // Watch folders: each file through the queue above; they catch up on what changed while the app was closed.
  const watchFolders = createWatchFolders({
    dataDir: ports.dataDir,
    transfers,
    runs,
    announce: (id, removed) => events.emit('watch-folders:changed', { id, ...(removed ? { removed } : {}) }),
    fetchFor: (workspaceId) => {
      const client = clientFor(workspaceId);
      return client.ok ? client.value.api.transport.fetch : undefined;
    },
    readStatusFor: (workspaceId) => {
      const client = clientFor(workspaceId);
      return client.ok ? readStatusOf(client.value.api) : undefined;
    },
    notify: (notice) => {
      events.emit('app:notification', notice);
      ports.desktop.notify?.(notice);
    },
  });
  await watchFolders.restore();
  // Drops that end (or fail) while the user looks elsewhere, and the queue on the taskbar; a watch folder's
  // files are announced by the watch, once their results are on disk.
  const stopDesktopSignals = startDesktopSignals(events, ports.desktop, (transferId) => watchFolders.ownsTransfer(transferId));
  const assemblyFollower = createAssemblyFollower((update) => events.emit('assembly:updated', update));
  // The webhook tester verifies with every workspace key's secret (the active one first); they stay here.
  const webhooks: WebhookTesterService = createWebhookTester({
    candidates: async () => {
      const active = workspaces.activeId();
      const ordered = [...workspaces.list()].sort((a, b) => Number(b.id === active) - Number(a.id === active));
      const found = await Promise.all(ordered.map(async (w) => ({ workspaceId: w.id, name: w.name, secret: await secretOf(w.id).catch(() => null) })));
      return found.filter((c): c is { workspaceId: string; name: string; secret: string } => c.secret !== null && c.secret !== '');
    },
    onReceived: (webhook) => events.emit('webhooks:received', webhook),
  });
  const mirrors = createMirrorService(ports.dataDir, (progress) => events.emit('results:mirrorProgress', progress));
  const trialStore = openTrialStore(ports.dataDir);
  const ctx: HandlerContext = {
    version: ports.version,
    host: ports.host,
    dataDir: ports.dataDir,
    downloadsDir: ports.downloadsDir,
    stagingDir,
    get localServiceUrl() {
      return supervisor.current()?.url ?? null;
    },
    serviceStatus: () => supervisor.status(),
    chatSettings,
    chatRestart,
    vault,
    workspaces,
    clientKeys,
    runs,
    trialStore,
    assemblyFollower,
    mirrors,
    transfers,
    watchFolders,
    files,
    drafts,
    draftPorts,
    rotation,
    desktop: ports.desktop,
    preferences,
    clipboard,
    localAccess,
    webhooks,
    clientFor,
    secretOf,
    // A new secret or refresh token must not be served from an old client's token cache.
    forgetClient: (id) => void clients.delete(id),
    canSign: async (id) => (await secretOf(id)) !== null || (await vault.get(refreshTokenAccount(id))) !== null,
  };

  let closed = false;
  return {
    handlers: createHandlers(ctx),
    onEvent: (listener) => events.on(listener),
    stagingDir,
    files,
    drafts,
    vault,
    runs,
    transfers,
    watchFolders,
    preferences,
    get localServiceUrl() {
      return supervisor.current()?.url ?? null;
    },
    localServicePid: () => supervisor.pid(),
    reportError,
    async close() {
      if (closed) return;
      closed = true;
      // A copied secret does not outlive the app on the clipboard.
      await clipboard.flush();
      stopDesktopSignals();
      assemblyFollower.close();
      chatRestart.close();
      await webhooks.close();
      await watchFolders.close();
      await mirrors.close();
      await transfers.close();
      drafts.close();
      await draftStore.flush();
      await runs.close();
      trialStore.close();
      await supervisor.close();
    },
  };
}
