import type { Handlers } from '../ipc/handlers';
import type { Instructions } from '../../../shared/api/instructions';
import type { TransferSettings } from '../../../shared/ipc/transfer-models';
import { ok } from '../../../shared/result';
import type { AssemblyLimits } from '../transfers/batching';
import { buildPlan, limitsOfTemplateContent, mergeLimits } from '../drafts/plan';
import { getTemplate } from '../templates/template-api';
import type { HandlerContext } from './context';

type DraftChannels = 'drafts:add' | 'drafts:get' | 'drafts:rows' | 'drafts:skipped' | 'drafts:remove' | 'drafts:clear' | 'drafts:plan' | 'drafts:choice' | 'drafts:saveChoice';

/** What the plan needs from the transfer engine; the composition root wires them (defaults until it does). */
export interface DraftPorts {
  /** The transfer settings the engine keeps (`transfers:settings`); skip rules included. */
  getSettings(): TransferSettings;
  /** A file sent before from this path with this size (skipUnchanged candidates). */
  isUploadedBefore?: (path: string, size: number) => boolean;
}

/** The Upload view's selection, held in core (see drafts/draft.ts). */
export function createDraftHandlers(ctx: HandlerContext): Pick<Handlers, DraftChannels> {
  const { drafts } = ctx;
  return {
    'drafts:add': async ({ handles }) => drafts.add(handles),
    'drafts:get': async () => ok(drafts.summary()),
    'drafts:rows': async ({ offset, limit }) => ok(drafts.rows(offset, limit)),
    'drafts:skipped': async ({ offset, limit }) => ok(drafts.skipped(offset, limit)),
    'drafts:remove': async ({ ids }) => ok(drafts.remove(ids)),
    'drafts:clear': async () => ok(drafts.clear()),
    // The choice outlives a Start and a Clear: it is what the user does with files, not the files.
    'drafts:choice': async () => ok(drafts.choice()),
    'drafts:saveChoice': async ({ choice }) => {
      drafts.saveChoice(choice);
      return ok({});
    },
    'drafts:plan': async ({ workspaceId, instructions }) => {
      const template = await templateLimitsOf(ctx, workspaceId, instructions);
      const { limits, sources } = mergeLimits(instructions.auth, template.limits);
      const templateError = template.templateError;
      return ok(
        buildPlan({
          files: { forEach: (visit) => drafts.forEachFile(visit), pathAt: (index) => drafts.pathAt(index) },
          settings: ctx.draftPorts.getSettings(),
          limits,
          limitSources: sources,
          unreadable: drafts.summary().unreadable,
          isUploadedBefore: ctx.draftPorts.isUploadedBefore,
          templateError,
          dropLabel: drafts.label(),
        }),
      );
    },
  };
}

/** A Template's limits (read from the service); steps alone carry none. A Template that cannot be read is a warning, not a failure. */
async function templateLimitsOf(
  ctx: HandlerContext,
  workspaceId: string | undefined,
  instructions: Instructions,
): Promise<{ limits: AssemblyLimits; templateError: { code: string; message: string } | null }> {
  const none: AssemblyLimits = { maxSize: null, maxNumberOfFiles: null };
  if (!instructions.template_id) return { limits: none, templateError: null };
  const client = ctx.clientFor(workspaceId);
  if (!client.ok) return { limits: none, templateError: client.error };
  const template = await getTemplate(client.value.api, instructions.template_id);
  if (!template.ok) return { limits: none, templateError: template.error };
  return { limits: limitsOfTemplateContent(template.value.content), templateError: null };
}
