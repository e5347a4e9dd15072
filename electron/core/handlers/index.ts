import type { Handlers } from '../ipc/handlers';
import { createAccountHandlers } from './account-handlers';
import { createAppHandlers } from './app-handlers';
import type { HandlerContext } from './context';
import { createAssemblyHandlers, createStatusMemo } from './assembly-handlers';
import { createAssetHandlers } from './asset-handlers';
import { createAuthKeyHandlers } from './auth-key-handlers';
import { createQueueHandlers } from './queue-handlers';
import { createCredentialHandlers } from './credential-handlers';
import { createDownloadLedger } from '../files/download-ledger';
import { createDraftHandlers } from './draft-handlers';
import { createFileHandlers } from './file-handlers';
import { createResultHandlers } from './result-handlers';
import { createMirrorHandlers } from './mirror-handlers';
import { createRunHandlers } from './run-handlers';
import { createServiceHandlers } from './service-handlers';
import { createShellHandlers } from './shell-handlers';
import { createTemplateHandlers } from './template-handlers';
import { createTransferHandlers } from './transfer-handlers';
import { createWatchFolderHandlers } from './watch-folder-handlers';
import { createRotationHandlers } from './rotation-handlers';
import { createSignInHandlers } from './sign-in-handlers';
import { createWebhookHandlers } from './webhook-handlers';
import { createWorkspaceHandlers } from './workspace-handlers';

/** Every channel of the contract; `Handlers` fails to compile if one is missing. */
export function createHandlers(ctx: HandlerContext): Handlers {
  // What results:download wrote: the only files shell:openPath/revealPath will touch.
  const downloads = createDownloadLedger();
  // Status records of any Assembly the page looked at: what results:thumbnail may fetch for it.
  const statuses = createStatusMemo();
  return {
    ...createAppHandlers(ctx),
    ...createServiceHandlers(ctx),
    ...createWorkspaceHandlers(ctx),
    ...createFileHandlers(ctx),
    ...createDraftHandlers(ctx),
    ...createRunHandlers(ctx),
    ...createTransferHandlers(ctx),
    ...createWatchFolderHandlers(ctx),
    ...createAssemblyHandlers(ctx, statuses),
    ...createQueueHandlers(ctx),
    ...createWebhookHandlers(ctx),
    ...createResultHandlers(ctx, downloads, statuses),
    ...createMirrorHandlers(ctx, ctx.mirrors, downloads),
    ...createAssetHandlers(ctx, downloads),
    ...createShellHandlers(ctx, downloads),
    ...createTemplateHandlers(ctx),
    ...createCredentialHandlers(ctx),
    ...createAuthKeyHandlers(ctx),
    ...createAccountHandlers(ctx),
    ...createRotationHandlers(ctx.rotation),
    ...createSignInHandlers(ctx),
  };
}
