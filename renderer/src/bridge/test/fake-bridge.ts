import type { AssemblylineBridge, PickedFile, PickedRoot } from '../../../../shared/ipc/bridge';
import type { ChannelName, ChannelRequest, ChannelResponse, EventName, EventPayload } from '../../../../shared/ipc/contract';
import type { AssemblyListItem } from '../../../../shared/ipc/assembly-models';
import type { Asset } from '../../../../shared/ipc/asset-models';
import type { AppInfo, Run, SelectedFile } from '../../../../shared/ipc/models';
import type { RunUpdate } from '../../../../shared/ipc/run-update';
import type { Template, TemplateTrial } from '../../../../shared/ipc/template-models';
import { ok, type Result } from '../../../../shared/result';
import { createFakeTransfers, type FakeTransfers } from './fake-transfers';
import { sampleBill, sampleStats } from './fake-account';
import type { DraftChoice } from '../../../../shared/ipc/draft-choice';
import type { FolderRef, WatchFolder, WatchFolderInput } from '../../../../shared/ipc/watch-folder-models';

const refText = (ref: FolderRef): string => ('path' in ref ? ref.path : `/picked/${ref.handle}`);

/** A watch as core answers right after `watch-folders:add`. */
export const fakeWatch = (id: string, input: WatchFolderInput, over: Partial<WatchFolder> = {}): WatchFolder => ({
  id,
  folder: refText(input.folder),
  output: refText(input.output),
  recipe: input.recipe.kind === 'template' ? { kind: 'template', templateId: input.recipe.templateId, fields: input.recipe.fields ?? {} } : input.recipe,
  reprocessStale: input.reprocessStale ?? false,
  afterSuccess: !input.afterSuccess || input.afterSuccess.kind !== 'move' ? (input.afterSuccess ?? { kind: 'keep' }) : { kind: 'move', folder: refText(input.afterSuccess.folder) },
  conflict: input.conflict ?? 'overwrite',
  settleMs: input.settleMs ?? 2_000,
  paused: false,
  state: 'watching',
  error: null,
  lastActivityAt: null,
  counts: { done: 0, failed: 0, queued: 0, skipped: 0 },
  latestErrors: [],
  ...over,
});
import type { AppPreferences } from '../../../../shared/ipc/desktop-models';
import type { ChatSettingsView } from '../../../../shared/ipc/chat-settings-models';

/**
 * An in-memory AssemblylineBridge for renderer unit tests ONLY (end-to-end tests use the real host).
 * Defaults behave like a small, healthy core; tests override channels and push events with `emit`.
 */

type Handler<C extends ChannelName> = (request: ChannelRequest<C>) => Result<ChannelResponse<C>> | Promise<Result<ChannelResponse<C>>>;
export type FakeHandlers = { [C in ChannelName]?: Handler<C> };

export interface FakeBridge extends AssemblylineBridge {
  readonly calls: { channel: ChannelName; request: unknown }[];
  readonly picked: PickedFile[][];
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  listenerCount(event: EventName): number;
  /** Play the browser host's link going down or coming back (`onConnection`). */
  setConnected(connected: boolean): void;
  /** core's draft and transfer queue, in memory (see fake-transfers.ts). */
  readonly queue: FakeTransfers;
}

export const sampleAppInfo = (over: Partial<AppInfo> = {}): AppInfo => ({
  version: '0.1.0',
  host: 'browser',
  platform: 'linux',
  dataDir: '/home/me/.assemblyline',
  localServiceUrl: 'http://127.0.0.1:43210',
  activeWorkspaceId: 'local',
  vault: { backend: 'os-keyring', secure: true, detail: 'Secrets are kept in the OS keyring.' },
  ...over,
});

/** The fake's handles are the picked root's name (real ones are random ids core issues). */
export const localFile = (relativePath: string, size = 1000, mime: string | null = 'image/jpeg'): SelectedFile => ({
  handle: `fh-${relativePath.split('/')[0] ?? relativePath}`,
  relativePath,
  name: relativePath.split('/').pop() ?? relativePath,
  size,
  mime,
});

export const sampleRun = (over: Partial<Run> = {}): Run => ({
  runId: 'run-1',
  workspaceId: 'local',
  assemblyId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  createdAt: '2026-11-22T05:00:00.000Z',
  state: 'ASSEMBLY_UPLOADING',
  error: null,
  totals: { bytesTotal: 3000, bytesUploaded: 0, filesTotal: 2, filesUploaded: 0, speedBps: 0, etaSeconds: null },
  files: [
    { fileId: 'f1', relativePath: 'photos/a.jpg', size: 1000, bytesUploaded: 0, state: 'queued' },
    { fileId: 'f2', relativePath: 'photos/b.jpg', size: 2000, bytesUploaded: 0, state: 'queued' },
  ],
  status: null,
  ...over,
});

/** A stored asset as core reads it (assets:list / assets:get). */
export const sampleAsset = (over: Partial<Asset> = {}): Asset => ({
  assetId: 'abcdefghijklmnopqrstuA',
  versionId: 'v2cdefghijklmnopqrstug',
  path: 'photos/a.jpg',
  filename: 'a.jpg',
  mime: 'image/jpeg',
  size: 2048,
  md5hash: '0123456789abcdef0123456789abcdef',
  sha256: null,
  width: 640,
  height: 480,
  hasAlpha: false,
  thumbhash: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-21T10:00:00.000Z',
  ...over,
});

export const sampleTemplate = (over: Partial<Template> = {}): Template => ({
  id: '0123456789abcdef0123456789abcdef',
  name: 'Holiday photos',
  content: { steps: { ':original': { robot: '/upload/handle' } } },
  requireSignatureAuth: 0,
  description: '',
  created: '2026-11-20 10:00:00',
  modified: '2026-11-21 10:00:00',
  lastUsed: null,
  builtinVersion: null,
  ...over,
});

/** A run as a row of Activity's list (core's merge: the run's extras on its Assembly). */
export const runAsListItem = (run: Run): AssemblyListItem => ({
  id: run.assemblyId,
  parentId: null,
  templateId: null,
  state: run.error?.code ?? run.state,
  error: run.error?.code ?? null,
  created: run.createdAt,
  fileNames: run.files.map((f) => f.relativePath.split('/').pop() ?? f.relativePath),
  numInputFiles: run.totals.filesTotal,
  bytes: run.totals.bytesTotal,
  executionDuration: null,
  notifyUrl: null,
  run: { runId: run.runId, state: run.state, totals: run.totals },
});

const notFaked = () => ({ ok: false as const, error: { code: 'NOT_IN_FAKE', message: 'Not faked.' } });

export const createFakeBridge = (handlers: FakeHandlers = {}): FakeBridge => {
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  const connectionListeners = new Set<(connected: boolean) => void>();
  const runs = new Map<string, Run>();
  const calls: FakeBridge['calls'] = [];
  const picked: PickedFile[][] = [];
  let nextRun = 1;
  /** The Upload view's steps choice as core would keep it. */
  let savedChoice: DraftChoice | null = null;
  let preferences: AppPreferences = { keepRunningInBackground: false };
  // The local service's chat model as core keeps it (the key only as "stored or not").
  let chat: Omit<ChatSettingsView, 'pendingRestart'> = { endpoint: '', model: '', timeoutMs: null, hasApiKey: false, toolServerHosts: [], toolServerHostsFromEnvironment: null, environment: null };
  const emitEvent = <E extends EventName>(event: E, payload: EventPayload<E>) => {
    for (const l of listeners.get(event) ?? []) (l as (p: typeof payload) => void)(payload);
  };
  const queue = createFakeTransfers(emitEvent, () => picked);
  const watches = new Map<string, WatchFolder>();
  const setPaused = (id: string, paused: boolean): Result<WatchFolder> => {
    const w = watches.get(id);
    if (!w) return { ok: false, error: { code: 'NOT_FOUND', message: `No watch folder with id ${id}.` } };
    const next: WatchFolder = { ...w, paused, state: paused ? 'paused' : 'watching' };
    watches.set(id, next);
    return ok(next);
  };

  const defaults: { [C in ChannelName]: Handler<C> } = {
    'app:info': () => ok(sampleAppInfo()),
    // As the browser host answers: background mode needs the Electron host's tray.
    'app:preferences': () => ok({ ...preferences, background: { available: false, reason: 'Only in the desktop app.' } }),
    'app:savePreferences': (change) => {
      preferences = { ...preferences, ...change };
      return ok({ ...preferences, background: { available: false, reason: 'Only in the desktop app.' } });
    },
    'service:status': () => ok({ phase: 'running', url: 'http://127.0.0.1:43210', restarts: 0, retryInMs: null, message: null }),
    'service:chatSettings': () => ok({ ...chat, pendingRestart: null }),
    'service:saveChatSettings': ({ endpoint, model, timeoutMs, apiKey, removeApiKey, toolServerHosts }) => {
      chat = { ...chat, endpoint, model, timeoutMs, hasApiKey: removeApiKey ? false : apiKey !== undefined || chat.hasApiKey, toolServerHosts: toolServerHosts ?? chat.toolServerHosts };
      return ok({ ...chat, pendingRestart: null });
    },
    'service:chatModels': () => ok({ models: ['llama3.2:1b', 'qwen2.5:0.5b'] }),
    'workspaces:list': () =>
      ok([{ id: 'local', name: 'Local (this computer)', kind: 'local', endpoint: 'http://127.0.0.1:43210', authKey: 'local-key', hasSecret: true, slug: 'local', authMode: 'signature', signatureAlgo: 'sha384', tokenScopes: null }]),
    'workspaces:save': () => notFaked(),
    'workspaces:remove': () => ok({}),
    'workspaces:activate': () => ok({}),
    'workspaces:test': () => ok({ ok: true, checks: [], skewSeconds: 0 }),
    'workspaces:readCaFile': () => notFaked(),
    'workspaces:signInAvailable': () => ok({ available: false, privateKeyJwt: false }),
    'workspaces:signIn': () => notFaked(),
    'workspaces:signInCancel': () => ok({}),
    'workspaces:clientKeyCreate': () => notFaked(),
    'workspaces:clientKeyDiscard': () => ok({}),
    'workspaces:clientKeyShow': () => notFaked(),
    'workspaces:clientKeyRegisterLocal': () => notFaked(),
    'workspaces:keyChoices': () => ok([]),
    'workspaces:switchKey': () => notFaked(),
    'workspaces:restoreLocalAccess': () => ok({ action: 'reactivated', authKey: 'local-key', scopeLimitLifted: false }),
    'rotations:list': () => ok([]),
    'rotations:start': () => notFaked(),
    'rotations:resume': () => notFaked(),
    'rotations:rollback': () => notFaked(),
    'rotations:deleteOldKey': () => notFaked(),
    'authKeys:copySecret': () => ok({ clearsInSeconds: 30 }),
    'authKeys:revealSecret': () => notFaked(),
    'files:scan': (req) => {
      const files = req.handles.map((h) => localFile(h.replace(/^fh-/, '')));
      return ok({ files, skipped: [], totalBytes: files.reduce((s, f) => s + f.size, 0) });
    },
    'files:thumbnail': () => ok({ dataUrl: null, kind: 'other', duration: null }),
    'drafts:add': (req) => queue.handle('drafts:add', req),
    'drafts:get': (req) => queue.handle('drafts:get', req),
    'drafts:rows': (req) => queue.handle('drafts:rows', req),
    'drafts:skipped': (req) => queue.handle('drafts:skipped', req),
    'drafts:remove': (req) => queue.handle('drafts:remove', req),
    'drafts:clear': (req) => queue.handle('drafts:clear', req),
    'drafts:plan': (req) => queue.handle('drafts:plan', req),
    'drafts:choice': () => ok(savedChoice),
    'drafts:saveChoice': (req) => {
      savedChoice = req.choice;
      return ok({});
    },
    'transfers:start': (req) => queue.handle('transfers:start', req),
    'transfers:overview': (req) => queue.handle('transfers:overview', req),
    'transfers:rows': (req) => queue.handle('transfers:rows', req),
    'transfers:control': (req) => queue.handle('transfers:control', req),
    'transfers:clearFinished': (req) => queue.handle('transfers:clearFinished', req),
    'transfers:settings': (req) => queue.handle('transfers:settings', req),
    'transfers:saveSettings': (req) => queue.handle('transfers:saveSettings', req),
    // Watch folders, in memory: added watches list as watching with no files.
    'watch-folders:list': () => ok([...watches.values()]),
    'watch-folders:add': (req) => {
      const w = fakeWatch(`wf-${watches.size + 1}`, req);
      watches.set(w.id, w);
      return ok(w);
    },
    // Edits apply as core would (folders resolved as typed or picked); the watched folder never changes.
    'watch-folders:update': (req) => {
      const w = watches.get(req.id);
      if (!w) return { ok: false, error: { code: 'NOT_FOUND', message: `No watch folder with id ${req.id}.` } };
      const next: WatchFolder = {
        ...w,
        ...(req.recipe ? { recipe: req.recipe.kind === 'template' ? { ...req.recipe, fields: req.recipe.fields ?? {} } : req.recipe } : {}),
        ...(req.output ? { output: refText(req.output) } : {}),
        ...(req.afterSuccess ? { afterSuccess: req.afterSuccess.kind === 'move' ? { kind: 'move', folder: refText(req.afterSuccess.folder) } : req.afterSuccess } : {}),
        ...(req.reprocessStale !== undefined ? { reprocessStale: req.reprocessStale } : {}),
        ...(req.conflict !== undefined ? { conflict: req.conflict } : {}),
        ...(req.settleMs !== undefined ? { settleMs: req.settleMs } : {}),
      };
      watches.set(w.id, next);
      return ok(next);
    },
    'watch-folders:pause': (req) => setPaused(req.id, true),
    'watch-folders:resume': (req) => setPaused(req.id, false),
    'watch-folders:remove': (req) => (watches.delete(req.id) ? ok({}) : { ok: false, error: { code: 'NOT_FOUND', message: `No watch folder with id ${req.id}.` } }),
    'watch-folders:items': () => ok({ items: [], total: 0 }),
    'runs:start': (req) => {
      const run = sampleRun({
        runId: `run-${nextRun++}`,
        state: 'CREATING',
        assemblyId: null,
        totals: { bytesTotal: req.files.reduce((s, f) => s + f.size, 0), bytesUploaded: 0, filesTotal: req.files.length, filesUploaded: 0, speedBps: 0, etaSeconds: null },
        files: req.files.map((f, i) => ({ fileId: `f${i + 1}`, relativePath: f.relativePath, size: f.size, bytesUploaded: 0, state: 'queued' as const })),
      });
      runs.set(run.runId, run);
      return ok(run);
    },
    'runs:list': () => ok([...runs.values()].reverse()),
    'runs:get': (req) => {
      const run = runs.get(req.runId);
      return run ? ok(run) : { ok: false, error: { code: 'NOT_FOUND', message: `No run ${req.runId}.` } };
    },
    'runs:cancel': (req) => {
      const run = runs.get(req.runId);
      if (!run) return { ok: false, error: { code: 'NOT_FOUND', message: `No run ${req.runId}.` } };
      const canceled = { ...run, state: 'ASSEMBLY_CANCELED' };
      runs.set(run.runId, canceled);
      return ok(canceled);
    },
    // Activity's list: the runs held, as core merges them (a test overrides it for service-only Assemblies).
    'assemblies:list': (req) => {
      const items = [...runs.values()].reverse().map(runAsListItem);
      const size = req.pageSize ?? 100;
      const page = req.page ?? 1;
      return ok({ items: items.slice((page - 1) * size, page * size), count: items.length, page, pageSize: size });
    },
    'assemblies:get': (req) => {
      // A run of this app is found by its Assembly, as core does.
      const run = [...runs.values()].find((r) => r.assemblyId === req.assemblyId);
      return ok({ status: run?.status ?? { ok: 'ASSEMBLY_COMPLETED', assembly_id: req.assemblyId, uploads: [], results: {} }, runId: run?.runId ?? null, replays: [] });
    },
    'assemblies:cancel': (req) => ok({ ok: 'ASSEMBLY_CANCELED', assembly_id: req.assemblyId, uploads: [], results: {} }),
    'assemblies:cancelMany': (req) => ok({ canceled: req.assemblyIds, alreadyEnded: [], failed: [] }),
    'assemblies:follow': () => ok({ following: false }),
    'assemblies:notifications': () => ok({ notifyUrl: null, attempts: [], pending: [] }),
    'assemblies:replayNotification': (req) => ok({ success: true, queued: req.wait === false, notifyUrl: req.notifyUrl ?? null, responseCode: 200, responseData: 'ok', error: null, duration: 0.01 }),
    'webhooks:start': () => ok({ url: 'http://127.0.0.1:45678/webhook', received: [] }),
    'webhooks:list': () => ok({ url: null, received: [] }),
    'webhooks:clear': () => ok({ url: null, received: [] }),
    'assemblies:replay': (req) => ok({ parentId: req.assemblyId, assemblyId: 'f'.repeat(32) }),
    'assemblies:replayMany': (req) => ok({ started: req.assemblyIds.map((parentId, i) => ({ parentId, assemblyId: String(i).padStart(32, 'e') })), failed: [] }),
    'queue:jobSlots': () => ok({ inUse: 0, total: 2, jobs: [], waiting: [], fetchedAt: new Date().toISOString() }),
    'queue:slotStats': (req) => ok({ granularity: 60, aggregation: req.aggregation, total: 2, points: [] }),
    'results:download': (req) => ok({ path: `/home/me/Downloads/${req.name}` }),
    'results:thumbnail': () => ok({ dataUrl: null, kind: 'other', duration: null }),
    'results:mirrorSettings': () => ok({ folder: null, layout: 'by-step', conflict: 'skip', canChooseFolder: true }),
    'results:chooseMirrorFolder': () => ok({ folder: '/home/me/Results', layout: 'by-step', conflict: 'skip', canChooseFolder: true, canceled: false }),
    'results:mirror': () => ok({ mirrorId: 'mirror-1', folder: '/home/me/Results' }),
    'results:mirrorCancel': () => ok({ canceled: true }),
    'manifest:export': () => ok({ path: '/home/me/Downloads/manifest-run.csv', assemblies: 1, rows: 1 }),
    'results:startDrag': () => ({ ok: false as const, error: { code: 'DRAG_UNAVAILABLE', message: 'This host drags the result URL itself.' } }),
    'shell:openPath': () => ok({}),
    'shell:revealPath': () => ok({}),
    'shell:openUrl': () => ok({}),
    'assets:list': () => ok({ assets: [], folders: [], nextCursor: null, workspace: 'local' }),
    'assets:get': () => notFaked(),
    'assets:rename': () => notFaked(),
    'assets:move': () => notFaked(),
    'assets:delete': () => ok({}),
    'assets:bulkMove': (req) => ok({ done: (req.assetIds ?? []).length, failed: [] }),
    'assets:bulkDelete': (req) => ok({ done: (req.assetIds ?? []).length, failed: [] }),
    'assets:download': () => ok({ path: '/downloads/asset' }),
    'assets:thumbnail': () => ok({ dataUrl: null, kind: 'other', duration: null }),
    'assets:useAsInput': () => ok({ assemblyId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' }),
    'templates:list': () => ok({ items: [sampleTemplate()], count: 1 }),
    'templates:get': (req) => ok(sampleTemplate({ id: req.id })),
    'templates:create': (req) => ok(sampleTemplate({ name: req.name, content: req.content })),
    'templates:update': (req) => ok(sampleTemplate({ id: req.id, ...(req.name ? { name: req.name } : {}) })),
    'templates:delete': () => ok({}),
    'templates:tryHere': (req) => ok(sampleTrial(req.id, false)),
    'templates:trial': () => ok(sampleTrial('tpl_sample', true)),
    'templates:lastTrial': () => ok(null),
    'credentials:list': () => ok([]),
    'credentials:create': (req) => ok({ id: 'c1', name: req.name, type: req.type, values: {}, secretsSet: [], created: null, modified: null }),
    'credentials:update': (req) => ok({ id: req.id, name: req.name, type: req.type, values: {}, secretsSet: [], created: null, modified: null }),
    'credentials:delete': () => ok({}),
    'credentials:test': (req) => ok({ ok: true, tested: true, target: req.id ?? req.draft?.type ?? '', checks: [{ id: 'reach', label: 'Reach the server', status: 'ok', message: 'answered' }] }),
    'account:bill': (req) => ok(sampleBill(req.month)),
    'account:stats': (req) => ok(sampleStats(req)),
    'authKeys:list': () => ok([]),
    'authKeys:scopes': () => ok(['templates:read', 'templates:write']),
    'authKeys:create': () => ({ ok: false, error: { code: 'NOT_IN_FAKE', message: 'Not faked.' } }),
    'authKeys:update': () => ({ ok: false, error: { code: 'NOT_IN_FAKE', message: 'Not faked.' } }),
    'authKeys:delete': () => ok({}),
    'cdn:sign': () => ({ ok: false, error: { code: 'NOT_IN_FAKE', message: 'Not faked.' } }),
    'cdn:preview': () => ({ ok: false, error: { code: 'NOT_IN_FAKE', message: 'Not faked.' } }),
  };

  const bridge: FakeBridge = {
    host: 'browser',
    calls,
    picked,
    async invoke<C extends ChannelName>(channel: C, request: ChannelRequest<C>) {
      calls.push({ channel, request });
      const handler = (handlers[channel] ?? defaults[channel]) as Handler<C>;
      const result = await handler(request);
      // Keep runs a test put in place so runs:get finds them.
      if (result.ok && (channel === 'runs:start' || channel === 'runs:cancel')) runs.set((result.value as Run).runId, result.value as Run);
      return result;
    },
    on(event, listener) {
      const set = listeners.get(event) ?? new Set();
      set.add(listener as (payload: never) => void);
      listeners.set(event, set);
      return () => set.delete(listener as (payload: never) => void);
    },
    async handlesForFiles(items): Promise<Result<PickedRoot[]>> {
      picked.push([...items]);
      const roots = new Set(items.map((i) => `fh-${i.relativePath.split('/')[0] ?? i.relativePath}`));
      return ok([...roots].map((handle) => ({ handle })));
    },
    emit(event, payload) {
      if (event === 'run:updated') {
        const { run } = payload as RunUpdate;
        runs.set(run.runId, run);
      }
      emitEvent(event, payload);
    },
    queue,
    listenerCount: (event) => listeners.get(event)?.size ?? 0,
    onConnection(listener) {
      connectionListeners.add(listener);
      return () => void connectionListeners.delete(listener);
    },
    setConnected(connected) {
      for (const l of [...connectionListeners]) l(connected);
    },
  };
  return bridge;
};

/** Seed a run into the fake so runs:get finds it. */
export const withRun = (bridge: FakeBridge, run: Run): FakeBridge => {
  bridge.emit('run:updated', { run, delta: null });
  return bridge;
};

/** A try of a remote Template: one store step swapped; ended shows both runs completed with figures. */
export function sampleTrial(templateId: string, ended: boolean): TemplateTrial {
  const side = (workspaceId: string, runId: string) => ({
    workspaceId,
    runId,
    assemblyId: ended ? `asm_${runId}` : null,
    state: ended ? 'ASSEMBLY_COMPLETED' : 'ASSEMBLY_UPLOADING',
    ended,
    error: null,
    executionSeconds: ended ? 1.5 : null,
  });
  return {
    id: 'trial_1',
    templateId,
    templateName: 'Thumbnails to S3',
    localTemplateId: 'tpl_local_copy',
    files: 1,
    changes: [{ step: 'store', kind: 'swapped', from: '/s3/store', to: '/transloadit/store', reason: 'The Local workspace has no Template Credentials named "prod_s3": the files are kept as this computer\'s stored assets instead.' }],
    remote: side('ws_remote', 'run_remote'),
    local: side('local', 'run_local'),
    ended,
    steps: [
      {
        step: 'thumb',
        remoteRobot: '/image/resize',
        localRobot: '/image/resize',
        remote: ended ? { results: 1, bytes: 2048, dimensions: ['256×171'], mediaSeconds: null, error: null } : null,
        local: ended ? { results: 1, bytes: 2000, dimensions: ['256×171'], mediaSeconds: null, error: null } : null,
      },
      { step: 'store', remoteRobot: '/s3/store', localRobot: '/transloadit/store', remote: ended ? { results: 1, bytes: 2048, dimensions: ['256×171'], mediaSeconds: null, error: null } : null, local: ended ? { results: 1, bytes: 2000, dimensions: ['256×171'], mediaSeconds: null, error: null } : null },
    ],
  };
}
