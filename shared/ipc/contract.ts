import { z } from 'zod';
import { assemblyStatusSchema } from '../api/assembly-status';
import { instructionsSchema } from '../api/instructions';
import {
  appInfoSchema,
  fileHandleSchema,
  mediaPreviewSchema,
  runProgressSchema,
  runSchema,
  scanResultSchema,
  selectedFileSchema,
  workspaceSchema,
} from './models';
import {
  authKeyChangeSchema,
  authKeySchema,
  cdnPreviewSchema,
  cdnUrlRequestSchema,
  credentialInputSchema,
  credentialSchema,
  credentialTestReportSchema,
  credentialTestRequestSchema,
  templateInputSchema,
  templateListQuerySchema,
  templateListSchema,
  templateTrialSchema,
  templateSchema,
} from './template-models';
import { runUpdateSchema } from './run-update';
import { draftChoiceSchema } from './draft-choice';
import { appCommandSchema, appPreferencesSchema, appPreferencesViewSchema, desktopNoticeSchema } from './desktop-models';
import { appErrorEventSchema, serviceStatusSchema } from './service-models';
import {
  draftRowSchema,
  draftSkipSchema,
  draftSummarySchema,
  transferActionSchema,
  cancelCostSchema,
  transferChangesSchema,
  transferOverviewSchema,
  transferPlanSchema,
  transferRowsPageSchema,
  transferRowsQuerySchema,
  transferSchema,
  transferScopeSchema,
  transferSettingsSchema,
} from './transfer-models';
import { watchFolderInputSchema, watchFolderSchema, watchFolderUpdateSchema, watchFoldersChangedSchema, watchItemsPageSchema } from './watch-folder-models';
import {
  assemblyDetailSchema,
  assemblyIdSchema,
  assemblyListPageSchema,
  assemblyListQuerySchema,
  assemblyNotificationsSchema,
  assemblyUpdateSchema,
  notificationReplayRequestSchema,
  notificationReplaySchema,
  replayManyResultSchema,
  cancelManyResultSchema,
  replayOptionsSchema,
  replayStartedSchema,
} from './assembly-models';
import { receivedWebhookSchema, webhookTesterSchema } from './webhook-models';
import { conflictPolicySchema, manifestExportSchema, manifestFormatSchema, mirrorLayoutSchema, mirrorProgressSchema, mirrorScopeSchema, mirrorSettingsSchema } from './mirror-models';
import { billMonthSchema, billSchema, statsRequestSchema, statsSchema } from './account-models';
import { jobSlotsSchema, slotStatsQuerySchema, slotStatsSchema } from './queue-models';
import {
  assetBulkDeleteRequestSchema,
  assetBulkMoveRequestSchema,
  assetBulkResultSchema,
  assetDetailSchema,
  assetIdSchema,
  assetListPageSchema,
  assetListRequestSchema,
  assetSchema,
  assetUseRequestSchema,
  folderPathSchema,
} from './asset-models';
import {
  caFileSchema,
  caPemInputSchema,
  clientKeySchema,
  connectionReportSchema,
  connectionTestRequestSchema,
  keyChoiceSchema,
  restoreAccessResultSchema,
  rotationSchema,
  switchKeyRequestSchema,
  workspaceInputSchema,
} from './workspace-models';
import { chatModelsRequestSchema, chatModelsSchema, chatSettingsInputSchema, chatSettingsViewSchema } from './chat-settings-models';

/**
 * The one map of request/response channels between the renderer and core. The preload bridge, the
 * browser host's WebSocket bridge and core's handlers are all typed from it, and every request is parsed
 * with its schema on arrival (the renderer is untrusted). See shared/ipc/README.md to add a channel.
 */
export const channels = {
  'app:info': { request: z.object({}), response: appInfoSchema },
  /** The app's preferences (keep running in the background), with whether this host can honor them. */
  'app:preferences': { request: z.object({}), response: appPreferencesViewSchema },
  'app:savePreferences': { request: appPreferencesSchema.partial(), response: appPreferencesViewSchema },
  /** The embedded local service's process: running, restarting, not responding (also pushed as `service:status`). */
  'service:status': { request: z.object({}), response: serviceStatusSchema },
  /** The local service's chat model (/ai/chat): endpoint, model, timeout; the API key only as "stored or not". */
  'service:chatSettings': { request: z.object({}), response: chatSettingsViewSchema },
  /** Save them (the key to the vault) and restart the local service with them, once no Assembly is executing. */
  'service:saveChatSettings': { request: chatSettingsInputSchema, response: chatSettingsViewSchema },
  /** "Test chat server": the models an OpenAI-compatible endpoint lists (GET /models), or why it could not. */
  'service:chatModels': { request: chatModelsRequestSchema, response: chatModelsSchema },
  'workspaces:list': { request: z.object({}), response: z.array(workspaceSchema) },
  /** Add or edit a remote workspace; its Auth Secret goes to the vault and never comes back. */
  'workspaces:save': { request: workspaceInputSchema, response: workspaceSchema },
  'workspaces:remove': { request: z.object({ id: z.string().min(1) }), response: z.object({}) },
  'workspaces:activate': { request: z.object({ id: z.string().min(1) }), response: z.object({}) },
  /** Reach, key, secret, clock, token and scopes, each with what is wrong in words. */
  'workspaces:test': { request: connectionTestRequestSchema, response: connectionReportSchema },
  /**
   * The CA file the user picked for a workspace (a handle from bridge.handlesForFiles), read and checked in
   * core: its PEM text for workspaces:save/test and who it names, or CA_FILE_INVALID saying why not.
   */
  'workspaces:readCaFile': { request: z.object({ handle: fileHandleSchema }), response: caFileSchema },
  /** Whether a deployment offers "Sign in with browser" (it publishes OAuth metadata). */
  'workspaces:signInAvailable': {
    /** `caPem` (the form's CA file) or else the CA of workspace `id`: the discovery trusts what the workspace would. */
    request: z.object({ endpoint: z.string().url(), id: z.string().optional(), caPem: caPemInputSchema }),
    /** `privateKeyJwt`: its metadata says it takes client assertions signed with a private key. */
    response: z.object({ available: z.boolean(), privateKeyJwt: z.boolean().default(false) }),
  },
  /** OAuth with PKCE through the system browser and a loopback redirect; no secret typed. Resolves once the user answered. */
  'workspaces:signIn': {
    request: z.object({
      id: z.string().optional(),
      name: z.string().trim().min(1).max(100),
      endpoint: z.string().url(),
      slug: z.string().max(100).default(''),
      /** Sign in with this key (from workspaces:clientKeyCreate): client assertions instead of the app's plain client id. */
      clientKeyId: z.string().min(1).max(100).optional(),
      /** The deployment's own CA (as in workspaces:save): absent keeps the workspace's, null none. */
      caPem: caPemInputSchema,
    }),
    response: workspaceSchema,
  },
  /** A new ES256 key pair for signing in with a private key; the private key goes to the vault, the public half comes back. */
  'workspaces:clientKeyCreate': { request: z.object({}), response: clientKeySchema },
  /** The public half of a stored sign-in key, to show or copy again. */
  /** Delete a generated sign-in key the form no longer uses (canceled, or generated again); refused for a key a workspace uses. */
  'workspaces:clientKeyDiscard': { request: z.object({ kid: z.string().min(1).max(100) }), response: z.object({}) },
  'workspaces:clientKeyShow': { request: z.object({ kid: z.string().min(1).max(100) }), response: clientKeySchema },
  /** Register a sign-in key's public half with the embedded local service (the app holds its admin key). */
  'workspaces:clientKeyRegisterLocal': { request: z.object({ kid: z.string().min(1).max(100) }), response: z.object({ clientId: z.string() }) },
  /** Stop waiting for the browser (the pending workspaces:signIn answers SIGN_IN_CANCELED). */
  'workspaces:signInCancel': { request: z.object({}), response: z.object({}) },
  /** Keys a workspace may switch to (Local: every key of its own service, even when its key is inactive). */
  'workspaces:keyChoices': { request: z.object({ id: z.string().min(1) }), response: z.array(keyChoiceSchema) },
  /** Switch a workspace to another key; a remote one is proven with a connection test before it is saved. */
  'workspaces:switchKey': { request: switchKeyRequestSchema, response: workspaceSchema },
  /** Local only: reactivate or create a full-access key through the service's own process and sign with it. */
  'workspaces:restoreLocalAccess': { request: z.object({}), response: restoreAccessResultSchema },

  /** Key rotation assistant (see electron/core/rotation). */
  'rotations:list': { request: z.object({}), response: z.array(rotationSchema) },
  'rotations:start': { request: z.object({ workspaceId: z.string().min(1) }), response: rotationSchema },
  'rotations:resume': { request: z.object({ id: z.string().min(1) }), response: rotationSchema },
  'rotations:rollback': { request: z.object({ id: z.string().min(1) }), response: rotationSchema },
  'rotations:deleteOldKey': { request: z.object({ id: z.string().min(1) }), response: rotationSchema },

  /**
   * Expand picked files and folders (recursively) into the files to upload. The page names them by the
   * handles core issued for the pick (bridge.handlesForFiles), never by path.
   */
  'files:scan': {
    request: z.object({ handles: z.array(fileHandleSchema).min(1).max(10_000) }),
    response: scanResultSchema,
  },
  /**
   * A small preview of a picked file as a data: URL: the image, a video's poster frame, an audio file's
   * waveform (with the duration); null (the page shows the kind's icon) for other files or when none can be made.
   */
  'files:thumbnail': {
    request: z.object({
      handle: fileHandleSchema,
      relativePath: z.string().min(1).max(4096),
      size: z.number().int().min(16).max(512).default(96),
    }),
    response: mediaPreviewSchema,
  },

  /**
   * The draft: the Upload view's selection, held in core so a drop of 100 000 files never crosses the
   * bridge whole. `drafts:add` starts walking the picked roots (handles from bridge.handlesForFiles) and
   * answers at once; counts grow while `scanning`, announced by `draft:updated`.
   */
  'drafts:add': { request: z.object({ handles: z.array(fileHandleSchema).min(1).max(10_000) }), response: draftSummarySchema },
  'drafts:get': { request: z.object({}), response: draftSummarySchema },
  'drafts:rows': {
    request: z.object({ offset: z.number().int().nonnegative(), limit: z.number().int().min(1).max(1_000) }),
    response: z.object({ total: z.number().int(), rows: z.array(draftRowSchema) }),
  },
  /** Items of the drops that are not in the draft because they could not be read, with the reason. */
  'drafts:skipped': {
    request: z.object({ offset: z.number().int().nonnegative(), limit: z.number().int().min(1).max(1_000) }),
    response: z.object({ total: z.number().int(), items: z.array(draftSkipSchema) }),
  },
  'drafts:remove': { request: z.object({ ids: z.array(z.string().min(1)).min(1).max(100_000) }), response: draftSummarySchema },
  'drafts:clear': { request: z.object({}), response: draftSummarySchema },
  /** The pre-flight summary of the draft under the current settings and these instructions. */
  'drafts:plan': { request: z.object({ workspaceId: z.string().optional(), instructions: instructionsSchema }), response: transferPlanSchema },
  /** The Upload view's steps choice (preset, custom text, Template + fields) core keeps on disk; null until one was saved. */
  'drafts:choice': { request: z.object({}), response: draftChoiceSchema.nullable() },
  /** Keep this choice (the page saves it debounced as the user edits). */
  'drafts:saveChoice': { request: z.object({ choice: draftChoiceSchema }), response: z.object({}) },

  /** Queue the draft (after the skip rules) as a transfer: batches into Assemblies, uploads, verifies. Empties the draft. */
  'transfers:start': {
    /** `recipe`: what the page calls the instructions (a preset's title, a Template's name), to name the drop in Transfers. */
    request: z.object({ workspaceId: z.string().optional(), instructions: instructionsSchema, recipe: z.string().max(200).optional() }),
    response: transferSchema,
  },
  'transfers:overview': { request: z.object({}), response: transferOverviewSchema },
  /** A page of file rows, filtered, ordered by batch then path, with where each batch's rows start. */
  'transfers:rows': { request: transferRowsQuerySchema, response: transferRowsPageSchema },
  /**
   * Pause, resume, cancel or retry every file, a transfer, a batch, or chosen files. Canceling files that
   * an existing Assembly waits for sends that batch's other files again: without `resend: true` nothing
   * is done and `confirm` says what would be sent again (the page asks, then calls again with it).
   */
  'transfers:control': {
    request: z.object({ action: transferActionSchema, scope: transferScopeSchema, resend: z.boolean().optional() }),
    response: z.object({ affected: z.number().int(), confirm: cancelCostSchema.optional() }),
  },
  /** Take the finished drops (every file done, skipped or canceled; none failed) out of the list. */
  'transfers:clearFinished': { request: z.object({}), response: z.object({ transfers: z.number().int(), files: z.number().int(), keptWithFailures: z.number().int() }) },
  'transfers:settings': { request: z.object({}), response: transferSettingsSchema },
  /** Change settings; concurrency and the bandwidth limit apply to running transfers at once. */
  'transfers:saveSettings': { request: transferSettingsSchema.partial(), response: transferSettingsSchema },

  /** Watch folders (docs/desktop.md): every watch with its state, last activity, counts and latest errors. */
  'watch-folders:list': { request: z.object({}), response: z.array(watchFolderSchema) },
  /** Start watching a folder: new and changed files are processed once they stop growing; results go to the output folder. */
  'watch-folders:add': { request: watchFolderInputSchema, response: watchFolderSchema },
  /** Edit a watch (not its folder), checked as on add; its ledger is kept and the change applies to the next files. */
  'watch-folders:update': { request: watchFolderUpdateSchema, response: watchFolderSchema },
  'watch-folders:pause': { request: z.object({ id: z.string().min(1) }), response: watchFolderSchema },
  /** Resume: catches up on what changed while paused. */
  'watch-folders:resume': { request: z.object({ id: z.string().min(1) }), response: watchFolderSchema },
  /** Stop watching and forget the ledger (files and results on disk stay). */
  'watch-folders:remove': { request: z.object({ id: z.string().min(1) }), response: z.object({}) },
  /** A watch's files (its ledger), most recently changed first. */
  'watch-folders:items': {
    request: z.object({ id: z.string().min(1), offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(1_000).default(200) }),
    response: watchItemsPageSchema,
  },

  /** Create an Assembly in the active (or given) workspace and upload the picked files to it with tus. */
  'runs:start': {
    request: z.object({
      workspaceId: z.string().optional(),
      files: z.array(selectedFileSchema).max(100_000),
      instructions: instructionsSchema,
    }),
    response: runSchema,
  },
  'runs:list': { request: z.object({}), response: z.array(runSchema) },
  'runs:get': { request: z.object({ runId: z.string() }), response: runSchema },
  /** Cancel: stops the uploads and DELETEs the Assembly. */
  'runs:cancel': { request: z.object({ runId: z.string() }), response: runSchema },

  /**
   * The workspace's Assemblies (GET /assemblies: state, dates, keywords, page), newest first, with this
   * app's runs merged in: one row per Assembly, carrying its run's extras when the app started it.
   */
  'assemblies:list': { request: assemblyListQuerySchema, response: assemblyListPageSchema },
  /** Any Assembly's status record by id (not only runs of this app). */
  'assemblies:get': { request: z.object({ workspaceId: z.string().optional(), assemblyId: assemblyIdSchema }), response: assemblyDetailSchema },
  /**
   * Cancel any Assembly of the workspace that is still running (DELETE /assemblies/{id}). One this app
   * started is canceled through its run, so its uploads stop too. One that has already ended is left as it
   * is (the service would mark even a completed one canceled): the answer is its status record either way.
   */
  'assemblies:cancel': { request: z.object({ workspaceId: z.string().optional(), assemblyId: assemblyIdSchema }), response: assemblyStatusSchema },
  /** Cancel many (a filtered selection of Activity) the same way, 4 at a time; each outcome is reported. */
  'assemblies:cancelMany': {
    request: z.object({ workspaceId: z.string().optional(), assemblyIds: z.array(assemblyIdSchema).min(1).max(1000) }),
    response: cancelManyResultSchema,
  },
  /** Follow a running Assembly live (core's watcher: SSE, polling fallback) → `assembly:updated` until it ends. */
  'assemblies:follow': { request: z.object({ workspaceId: z.string().optional(), assemblyId: assemblyIdSchema }), response: z.object({ following: z.boolean() }) },
  /** Every notification delivery attempt (GET /assembly_notifications/{id}). */
  'assemblies:notifications': { request: z.object({ workspaceId: z.string().optional(), assemblyId: assemblyIdSchema }), response: assemblyNotificationsSchema },
  /** Send an ended Assembly's notification again, optionally to another URL (POST /assembly_notifications/{id}/replay). */
  'assemblies:replayNotification': { request: notificationReplayRequestSchema, response: notificationReplaySchema },
  /**
   * The in-app webhook tester: core's receiver on a loopback URL (started on demand, stopped on quit).
   * Signatures are verified in core with the workspaces' key secrets; only the outcome crosses.
   */
  'webhooks:start': { request: z.object({}), response: webhookTesterSchema },
  'webhooks:list': { request: z.object({}), response: webhookTesterSchema },
  'webhooks:clear': { request: z.object({}), response: webhookTesterSchema },
  /** Run an ended Assembly again (POST /assemblies/{id}/replay): a new Assembly with `parent_id`. */
  'assemblies:replay': {
    request: replayOptionsSchema.extend({ workspaceId: z.string().optional(), assemblyId: assemblyIdSchema }),
    response: replayStartedSchema,
  },
  /** Replay many (a filtered selection of Activity) with the same options; each outcome is reported. */
  'assemblies:replayMany': {
    request: replayOptionsSchema.extend({ workspaceId: z.string().optional(), assemblyIds: z.array(assemblyIdSchema).min(1).max(1000) }),
    response: replayManyResultSchema,
  },
  /** Job slots in use right now (GET /queues/job_slots, scope queues:read): the Queue screen polls it. */
  'queue:jobSlots': { request: z.object({ workspaceId: z.string().optional() }), response: jobSlotsSchema },
  /** Slot use over the last hour or day (GET /priority_job_slot_stats), avg or max per bucket. */
  'queue:slotStats': { request: slotStatsQuerySchema, response: slotStatsSchema },

  /**
   * Download one result file into the downloads folder: of a run (a URL its status record gave), or with
   * `assemblyId` instead of `runId` of any Assembly of the active workspace (core checks its status record).
   */
  'results:download': {
    request: z
      .object({ runId: z.string().optional(), assemblyId: assemblyIdSchema.optional(), url: z.string().url(), name: z.string().min(1) })
      .refine((r) => (r.runId === undefined) !== (r.assemblyId === undefined), 'Name either a run or an Assembly.'),
    response: z.object({ path: z.string() }),
  },
  /**
   * A preview of a run's result file (made by core, so the renderer needs no network), as files:thumbnail.
   * `assemblyId` instead of `runId`: a file of any Assembly of the workspace (core re-reads its status record).
   */
  'results:thumbnail': {
    request: z
      .object({ runId: z.string().optional(), assemblyId: assemblyIdSchema.optional(), url: z.string().url(), size: z.number().int().min(16).max(512).default(160) })
      .refine((r) => (r.runId === undefined) !== (r.assemblyId === undefined), 'Name either a run or an Assembly.'),
    response: mediaPreviewSchema,
  },
  /** "Save results to folder…": the remembered output folder, layout and conflict policy. */
  'results:mirrorSettings': { request: z.object({}), response: mirrorSettingsSchema },
  /** The host's folder dialog; the chosen folder is remembered (unchanged when the user cancels). */
  'results:chooseMirrorFolder': { request: z.object({}), response: mirrorSettingsSchema.extend({ canceled: z.boolean() }) },
  /**
   * Download the results of a run, a batch or Assemblies into the remembered folder by a layout and a
   * conflict policy (both remembered), each verified against its record. Answers at once; progress and
   * the summary come as `results:mirrorProgress`.
   */
  'results:mirror': {
    request: z.object({ scope: mirrorScopeSchema, layout: mirrorLayoutSchema, conflict: conflictPolicySchema }),
    response: z.object({ mirrorId: z.string(), folder: z.string() }),
  },
  'results:mirrorCancel': { request: z.object({ mirrorId: z.string().min(1) }), response: z.object({ canceled: z.boolean() }) },
  /** A job manifest (CSV or JSON) of a run, a batch or Assemblies, written where the host's save dialog says. */
  'manifest:export': { request: z.object({ scope: mirrorScopeSchema, format: manifestFormatSchema }), response: manifestExportSchema },
  /**
   * Drag a result out of the app (Electron host): core downloads it to its drag cache (or reuses the copy
   * there) and the host starts a native drag of that file. The browser host drags the URL instead
   * (DownloadURL), and answers DRAG_UNAVAILABLE here. `start: false` only fetches it (the mouse went down on
   * the result), so the drag that follows starts at once.
   */
  'results:startDrag': {
    request: z
      .object({ runId: z.string().optional(), assemblyId: assemblyIdSchema.optional(), url: z.string().url(), name: z.string().min(1).max(255), start: z.boolean().default(true) })
      .refine((r) => (r.runId === undefined) !== (r.assemblyId === undefined), 'Name either a run or an Assembly.'),
    response: z.object({ path: z.string() }),
  },
  /**
   * Stored assets (GET/PATCH/DELETE /dam/assets…, docs/assets.md): a page of one folder level (`delimiter`)
   * or of everything under a prefix, by cursor; one asset with every version; rename, move, delete; bulk
   * move/delete of assets and whole folders (core sends 100 ids per request, the service's limit).
   */
  'assets:list': { request: assetListRequestSchema, response: assetListPageSchema },
  'assets:get': { request: z.object({ workspaceId: z.string().optional(), assetId: assetIdSchema, versionId: assetIdSchema.optional() }), response: assetDetailSchema },
  'assets:rename': { request: z.object({ workspaceId: z.string().optional(), assetId: assetIdSchema, filename: z.string().min(1).max(255) }), response: assetSchema },
  'assets:move': { request: z.object({ workspaceId: z.string().optional(), assetId: assetIdSchema, destination: folderPathSchema }), response: assetSchema },
  'assets:delete': { request: z.object({ workspaceId: z.string().optional(), assetId: assetIdSchema }), response: z.object({}) },
  'assets:bulkMove': { request: assetBulkMoveRequestSchema, response: assetBulkResultSchema },
  'assets:bulkDelete': { request: assetBulkDeleteRequestSchema, response: assetBulkResultSchema },
  /** An asset's bytes (one version, else the current one) into the downloads folder; shell:openPath may open it. */
  'assets:download': {
    request: z.object({ workspaceId: z.string().optional(), assetId: assetIdSchema, versionId: assetIdSchema.optional() }),
    response: z.object({ path: z.string() }),
  },
  /** A small preview of an image asset (core fetches its bytes; cached per version, which never changes). */
  'assets:thumbnail': {
    request: z.object({ workspaceId: z.string().optional(), assetId: assetIdSchema, versionId: assetIdSchema.optional(), size: z.number().int().min(16).max(512).default(96) }),
    response: mediaPreviewSchema,
  },
  /** "Use as input": an Assembly that imports the assets (`/transloadit/import`) and runs a Template's steps or the given ones. */
  'assets:useAsInput': { request: assetUseRequestSchema, response: z.object({ assemblyId: z.string() }) },
  /** Open a file results:download saved with the default app, or show it in the file manager. Nothing else. */
  'shell:openPath': { request: z.object({ path: z.string().min(1) }), response: z.object({}) },
  'shell:revealPath': { request: z.object({ path: z.string().min(1) }), response: z.object({}) },
  /** Open an https URL (http only to a loopback workspace, no credentials) in the system browser. */
  'shell:openUrl': { request: z.object({ url: z.string().url().max(8000) }), response: z.object({}) },

  /** Templates of a workspace (the active one unless given); errors carry the service's codes. */
  'templates:list': { request: templateListQuerySchema, response: templateListSchema },
  'templates:get': { request: z.object({ workspaceId: z.string().optional(), id: z.string().min(1) }), response: templateSchema },
  'templates:create': { request: templateInputSchema.extend({ workspaceId: z.string().optional() }), response: templateSchema },
  'templates:update': {
    request: templateInputSchema.partial().extend({ workspaceId: z.string().optional(), id: z.string().min(1) }),
    response: templateSchema,
  },
  'templates:delete': { request: z.object({ workspaceId: z.string().optional(), id: z.string().min(1) }), response: z.object({}) },
  /**
   * "Try this Template here first": core copies a remote workspace's Template to the Local workspace
   * (remote-only storage swapped for stored assets, each change said), and runs the picked files on both.
   */
  'templates:tryHere': {
    request: z.object({ workspaceId: z.string().min(1), id: z.string().min(1), files: z.array(selectedFileSchema).min(1).max(100) }),
    response: templateTrialSchema,
  },
  /** A try as it stands: both runs' states and the comparison per step (results, sizes, dimensions, durations, errors). */
  'templates:trial': { request: z.object({ trialId: z.string().min(1) }), response: templateTrialSchema },
  /** The newest try of a remote workspace's Template, kept across restarts; null when it was never tried. */
  'templates:lastTrial': { request: z.object({ workspaceId: z.string().min(1), id: z.string().min(1) }), response: templateTrialSchema.nullable() },

  /** Template credentials. Secret values go in (create, edit) and never come back out. */
  'credentials:list': { request: z.object({ workspaceId: z.string().optional() }), response: z.array(credentialSchema) },
  'credentials:create': { request: credentialInputSchema.extend({ workspaceId: z.string().optional() }), response: credentialSchema },
  'credentials:update': { request: credentialInputSchema.extend({ workspaceId: z.string().optional(), id: z.string().min(1) }), response: credentialSchema },
  'credentials:delete': { request: z.object({ workspaceId: z.string().optional(), id: z.string().min(1) }), response: z.object({}) },
  /** Connect with credentials (saved, or the form's) from core and report check by check; secrets stay in core. */
  'credentials:test': { request: credentialTestRequestSchema, response: credentialTestReportSchema },

  /** The account's bill for a month (`GET /bill/{YYYY-MM}`, scope billing:read); docs/account.md. */
  'account:bill': { request: z.object({ workspaceId: z.string().optional(), month: billMonthSchema }), response: billSchema },
  /** Assembly statistics over a range (`GET /assembly_stats`, scope assemblies:read); region `workspace` is resolved in core. */
  'account:stats': { request: statsRequestSchema, response: statsSchema },

  /** Auth Keys of the workspace's account. Secrets stay in core. */
  'authKeys:list': { request: z.object({ workspaceId: z.string().optional() }), response: z.array(authKeySchema) },
  'authKeys:scopes': { request: z.object({ workspaceId: z.string().optional() }), response: z.array(z.string()) },
  'authKeys:create': { request: authKeyChangeSchema.extend({ workspaceId: z.string().optional() }), response: authKeySchema },
  'authKeys:update': { request: authKeyChangeSchema.extend({ workspaceId: z.string().optional(), id: z.string().min(1) }), response: authKeySchema },
  'authKeys:delete': { request: z.object({ workspaceId: z.string().optional(), id: z.string().min(1) }), response: z.object({}) },
  /** Core puts the key's secret on the system clipboard and clears it after `clearsInSeconds`; CLIPBOARD_UNAVAILABLE where there is none. */
  'authKeys:copySecret': {
    request: z.object({ workspaceId: z.string().optional(), id: z.string().min(1) }),
    response: z.object({ clearsInSeconds: z.number() }),
  },
  /**
   * The one channel that returns a secret to the page, on an explicit Reveal the user confirmed (the
   * consoles' convention; docs/workspaces-and-keys.md). The page keeps it only in the reveal widget.
   */
  'authKeys:revealSecret': {
    request: z.object({ workspaceId: z.string().optional(), id: z.string().min(1) }),
    response: z.object({ authKey: z.string(), secret: z.string() }),
  },
  /** Signs a content-delivery URL in core with the chosen key's secret (read from the service, never sent on). */
  'cdn:sign': { request: cdnUrlRequestSchema, response: z.object({ url: z.string(), expiresAt: z.string() }) },
  /** Fetches what a signed URL serves (only `<endpoint>/file/…` of the workspace or https `*.tlcdn.com`). */
  'cdn:preview': { request: z.object({ workspaceId: z.string().optional(), url: z.string().url().max(8000) }), response: cdnPreviewSchema },
} as const;

/** Events from core to the renderer. Progress is coalesced in core (a few per second per run). */
export const events = {
  /** A run changed state, gained a status record or results: whole once, then what was appended (run-update.ts). */
  'run:updated': runUpdateSchema,
  /** Upload progress: totals plus the files that changed. */
  'run:progress': runProgressSchema,
  /** An Assembly followed with `assemblies:follow` changed (status re-read, or execution progress). */
  'assembly:updated': assemblyUpdateSchema,
  /** A results:mirror moved on (coalesced), or ended (`state` done or canceled, with the summary). */
  'results:mirrorProgress': mirrorProgressSchema,
  /** The webhook tester received a notification (verified in core). */
  'webhooks:received': receivedWebhookSchema,
  /** The draft changed (files added while a folder is walked, removed, cleared). */
  'draft:updated': draftSummarySchema,
  /** The transfer queue changed: totals and the changed transfers, batches and rows (coalesced). */
  'transfers:changed': transferChangesSchema,
  /** A watch folder changed (state, counts, a file): at most 5 a second per watch. */
  'watch-folders:changed': watchFoldersChangedSchema,
  /** A key rotation moved a step, stopped, or was rolled back. */
  'rotation:updated': rotationSchema,
  /** The embedded local service started, stopped answering, crashed or came back. */
  'service:status': serviceStatusSchema,
  /** An error in the host that no request was waiting for (logged; the app went on). */
  'app:error': appErrorEventSchema,
  /** A drop ended or one of its Assemblies failed: a toast in a focused window, else a Web Notification (browser host). */
  'app:notification': desktopNoticeSchema,
  /** The Electron host's menu or an OS notification asks the page to do something (go to a route, pick files…). */
  'app:command': appCommandSchema,
} as const;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export type ChannelRequest<C extends ChannelName> = z.input<Channels[C]['request']>;
export type ParsedRequest<C extends ChannelName> = z.output<Channels[C]['request']>;
export type ChannelResponse<C extends ChannelName> = z.output<Channels[C]['response']>;

export type Events = typeof events;
export type EventName = keyof Events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;

export const channelNames = Object.keys(channels) as ChannelName[];
export const eventNames = Object.keys(events) as EventName[];

export const isChannelName = (name: unknown): name is ChannelName =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(channels, name);
export const isEventName = (name: unknown): name is EventName =>
  typeof name === 'string' && Object.prototype.hasOwnProperty.call(events, name);
