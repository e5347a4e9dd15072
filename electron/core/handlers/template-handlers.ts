import type { Handlers } from '../ipc/handlers';
import { createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate } from '../templates/template-api';
import type { HandlerContext } from './context';

type TemplateChannels = 'templates:list' | 'templates:get' | 'templates:create' | 'templates:update' | 'templates:delete';

export function createTemplateHandlers(ctx: HandlerContext): Pick<Handlers, TemplateChannels> {
  return {
    'templates:list': async ({ workspaceId, ...query }) => {
      const client = ctx.clientFor(workspaceId);
      return client.ok ? listTemplates(client.value.api, query) : client;
    },
    'templates:get': async ({ workspaceId, id }) => {
      const client = ctx.clientFor(workspaceId);
      return client.ok ? getTemplate(client.value.api, id) : client;
    },
    'templates:create': async ({ workspaceId, ...input }) => {
      const client = ctx.clientFor(workspaceId);
      return client.ok ? createTemplate(client.value.api, input) : client;
    },
    'templates:update': async ({ workspaceId, id, ...change }) => {
      const client = ctx.clientFor(workspaceId);
      return client.ok ? updateTemplate(client.value.api, id, change) : client;
    },
    'templates:delete': async ({ workspaceId, id }) => {
      const client = ctx.clientFor(workspaceId);
      return client.ok ? deleteTemplate(client.value.api, id) : client;
    },
  };
}
