import type { Handlers } from '../ipc/handlers';
import { createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate } from '../templates/template-api';
import { withApi, type HandlerContext } from './context';

type TemplateChannels = 'templates:list' | 'templates:get' | 'templates:create' | 'templates:update' | 'templates:delete';

export function createTemplateHandlers(ctx: HandlerContext): Pick<Handlers, TemplateChannels> {
  return {
    'templates:list': ({ workspaceId, ...query }) => withApi(ctx, workspaceId, (api) => listTemplates(api, query)),
    'templates:get': ({ workspaceId, id }) => withApi(ctx, workspaceId, (api) => getTemplate(api, id)),
    'templates:create': ({ workspaceId, ...input }) => withApi(ctx, workspaceId, (api) => createTemplate(api, input)),
    'templates:update': ({ workspaceId, id, ...change }) => withApi(ctx, workspaceId, (api) => updateTemplate(api, id, change)),
    'templates:delete': ({ workspaceId, id }) => withApi(ctx, workspaceId, (api) => deleteTemplate(api, id)),
  };
}
