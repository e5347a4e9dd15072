import type { Handlers } from '../ipc/handlers';
import { AppErrorCode, err } from '../../../shared/result';
import type { HandlerContext } from './context';

type DraftChannels = 'drafts:add' | 'drafts:get' | 'drafts:rows' | 'drafts:skipped' | 'drafts:remove' | 'drafts:clear' | 'drafts:plan';

// SCAFFOLD (replaced by electron/core/drafts in this session): answers that the draft is not built yet.
export function createDraftHandlers(_ctx: HandlerContext): Pick<Handlers, DraftChannels> {
  const notYet = async () => err(AppErrorCode.internal, 'Drafts are not available yet.');
  return { 'drafts:add': notYet, 'drafts:get': notYet, 'drafts:rows': notYet, 'drafts:skipped': notYet, 'drafts:remove': notYet, 'drafts:clear': notYet, 'drafts:plan': notYet };
}
