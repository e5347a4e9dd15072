import { runCredentialTest } from '../credentials/test-request';
import type { Handlers } from '../ipc/handlers';
import { createCredential, deleteCredential, listCredentials, updateCredential } from '../templates/credential-api';
import { withApi, type HandlerContext } from './context';

type CredentialChannels = 'credentials:list' | 'credentials:create' | 'credentials:update' | 'credentials:delete' | 'credentials:test';

export function createCredentialHandlers(ctx: HandlerContext): Pick<Handlers, CredentialChannels> {
  return {
    'credentials:list': ({ workspaceId }) => withApi(ctx, workspaceId, (api) => listCredentials(api)),
    'credentials:create': ({ workspaceId, ...input }) => withApi(ctx, workspaceId, (api) => createCredential(api, input)),
    'credentials:update': ({ workspaceId, id, ...input }) => withApi(ctx, workspaceId, (api) => updateCredential(api, id, input)),
    'credentials:delete': ({ workspaceId, id }) => withApi(ctx, workspaceId, (api) => deleteCredential(api, id)),
    // Secrets stay here: the saved content is read in core and only the checks go back.
    'credentials:test': ({ workspaceId, ...request }) => withApi(ctx, workspaceId, (api) => runCredentialTest(api, request)),
  };
}
