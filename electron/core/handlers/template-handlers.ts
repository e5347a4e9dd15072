import type { Handlers } from '../ipc/handlers';
import { createTemplate, deleteTemplate, getTemplate, listTemplates, updateTemplate } from '../templates/template-api';
import { createTemplateTrials } from '../templates/template-trial';
import { withApi, type HandlerContext } from './context';
import { resolveSelectedFiles } from './run-handlers';

type TemplateChannels = 'templates:list' | 'templates:get' | 'templates:create' | 'templates:update' | 'templates:delete' | 'templates:tryHere' | 'templates:trial' | 'templates:lastTrial';

export function createTemplateHandlers(ctx: HandlerContext): Pick<Handlers, TemplateChannels> {
  const trials = createTemplateTrials({ clientFor: (id) => ctx.clientFor(id), startRun: (input) => ctx.transfers.startRun(input), runs: ctx.runs, store: ctx.trialStore });
  return {
    'templates:list': ({ workspaceId, ...query }) => withApi(ctx, workspaceId, (api) => listTemplates(api, query)),
    'templates:get': ({ workspaceId, id }) => withApi(ctx, workspaceId, (api) => getTemplate(api, id)),
    'templates:create': ({ workspaceId, ...input }) => withApi(ctx, workspaceId, (api) => createTemplate(api, input)),
    'templates:update': ({ workspaceId, id, ...change }) => withApi(ctx, workspaceId, (api) => updateTemplate(api, id, change)),
    'templates:delete': ({ workspaceId, id }) => withApi(ctx, workspaceId, (api) => deleteTemplate(api, id)),
    'templates:tryHere': async ({ workspaceId, id, files }) => {
      const local = await resolveSelectedFiles(ctx.files, files);
      return local.ok ? trials.start({ workspaceId, templateId: id, files: local.value }) : local;
    },
    'templates:trial': async ({ trialId }) => trials.get(trialId),
    'templates:lastTrial': async ({ workspaceId, id }) => trials.latest({ workspaceId, templateId: id }),
  };
}
