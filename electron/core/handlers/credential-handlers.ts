import type { Handlers } from '../ipc/handlers';
import { createCredential, deleteCredential, listCredentials, updateCredential } from '../templates/credential-api';
import type { HandlerContext } from './context';

type CredentialChannels = 'credentials:list' | 'credentials:create' | 'credentials:update' | 'credentials:delete';

export function createCredentialHandlers(ctx: HandlerContext): Pick<Handlers, CredentialChannels> {
  return {
    'credentials:list': async ({ workspaceId }) => {
      const client = ctx.clientFor(workspaceId);
      return client.ok ? listCredentials(client.value.api) : client;
    },
    'credentials:create': async ({ workspaceId, ...input }) => {
      const client = ctx.clientFor(workspaceId);
      return client.ok ? createCredential(client.value.api, input) : client;
    },
    'credentials:update': async ({ workspaceId, id, ...input }) => {
      const client = ctx.clientFor(workspaceId);
      return client.ok ? updateCredential(client.value.api, id, input) : client;
    },
    'credentials:delete': async ({ workspaceId, id }) => {
      const client = ctx.clientFor(workspaceId);
      return client.ok ? deleteCredential(client.value.api, id) : client;
    },
  };
}
